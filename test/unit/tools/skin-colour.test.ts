import { test } from 'node:test';
import assert from 'node:assert/strict';
import { srgbToLab, deltaE, samePersonDeltaE, betweenPersonSpread } from '../../../tools/quality/skin-colour.ts';

test('sRGB converts to CIE Lab under D65', () => {
  const close = (a: number[], b: number[], tol: number) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < tol, `${a} vs ${b}`));
  close(srgbToLab([255, 255, 255]), [100, 0, 0], 0.1);
  close(srgbToLab([0, 0, 0]), [0, 0, 0], 0.1);
  // Published reference values of the sRGB primaries (D65).
  close(srgbToLab([255, 0, 0]), [53.24, 80.09, 67.2], 0.3);
  close(srgbToLab([0, 255, 0]), [87.73, -86.18, 83.18], 0.3);
  close(srgbToLab([0, 0, 255]), [32.3, 79.19, -107.86], 0.3);
});

test('ΔE is averaged over pairs of photos of the same person only', () => {
  const r = samePersonDeltaE([
    { name: 'a-1', person: 'a', lab: [70, 10, 10] },
    { name: 'a-2', person: 'a', lab: [73, 14, 10] },
    { person: 'b', lab: [40, 0, 0] },
    { person: 'multi', lab: [40, 0, 0] },
    { person: 'multi', lab: [80, 0, 0] },
  ]);
  assert.equal(r.pairs, 1);
  assert.equal(r.mean, 5);
  // Which channel carries the difference: the second photo's Lab minus the first's.
  assert.deepEqual(r.byPair, [{ person: 'a', names: ['a-1', 'a-2'], difference: [3, 4, 0], deltaE: 5 }]);
  assert.equal(deltaE([0, 0, 0], [3, 4, 0]), 5);
});

test('the spread between people is taken over the mean colour of each person, not over photos', () => {
  const r = betweenPersonSpread([
    { person: 'a', lab: [60, 10, 10] },
    { person: 'a', lab: [64, 10, 10] },
    { person: 'b', lab: [72, 13, 14] },
    { person: 'multi', lab: [20, 0, 0] },
    { person: undefined, lab: [95, 0, 0] },
  ]);
  assert.equal(r.persons, 2);
  // Person a's mean (62, 10, 10) against b: ΔE 11.18; L* 62 and 72.
  assert.ok(Math.abs(r.meanDeltaE - Math.hypot(10, 3, 4)) < 1e-9, `${r.meanDeltaE}`);
  assert.equal(r.lightnessSd, 5);
  // Pulling both towards one tone shows as a smaller spread.
  const pulled = betweenPersonSpread([
    { person: 'a', lab: [66, 11, 12] },
    { person: 'b', lab: [68, 12, 12] },
  ]);
  assert.ok(pulled.meanDeltaE < r.meanDeltaE && pulled.lightnessSd < r.lightnessSd);
});
