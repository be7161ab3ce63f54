import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { srgbToLab, deltaE, samePersonDeltaE, betweenPersonSpread, renderedSkin, rgbOfHex, sideSkinHue } from '../../../tools/quality/skin-colour.ts';
import { decodePhoto } from '../../../src/pipeline/face/analyse.ts';

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

test("the cheeks' a*b* distance sees one half of a face tinted warm at the same luminance, which their balance does not", async () => {
  const { image } = await decodePhoto(new Uint8Array(readFileSync(new URL('../../fixtures/faces/p03-a.jpg', import.meta.url))));
  const before = (await renderedSkin(image))!;
  // The image's left half redder and less blue, green set so that the luminance stays (roughly, in sRGB).
  const tinted = { ...image, data: Uint8Array.from(image.data) };
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width / 2; x++) {
      const i = (y * image.width + x) * 3;
      const [r, g, b] = [image.data[i], image.data[i + 1], image.data[i + 2]];
      const [r2, b2] = [Math.min(255, r * 1.15), b * 0.75];
      tinted.data[i] = r2;
      tinted.data[i + 1] = Math.min(255, Math.max(0, g + (0.2126 * (r - r2) + 0.0722 * (b - b2)) / 0.7152));
      tinted.data[i + 2] = b2;
    }
  }
  const after = (await renderedSkin(tinted))!;
  assert.ok(after.cheekChroma > before.cheekChroma + 5, `a*b* distance ${before.cheekChroma} -> ${after.cheekChroma}`);
  assert.ok(Math.abs(after.cheekBalance - before.cheekBalance) < 0.1, `balance ${before.cheekBalance} -> ${after.cheekBalance}`);
});

test("the side view's skin hue: 0 on the skin tone at any lightness, a red blotch raises it, hair and background do not count", () => {
  const tone = rgbOfHex('#c8a08c');
  assert.deepEqual(tone, [200, 160, 140]);
  // A 512 px side view: the skin tone, shaded to 80 % in its lower half; dark hair in its top rows; background (alpha 0) on its left.
  const view = (blotch: boolean) => {
    const rgba = new Uint8Array(512 * 512 * 4);
    for (let y = 0; y < 512; y++) {
      for (let x = 0; x < 512; x++) {
        const o = (y * 512 + x) * 4;
        const shade = y > 270 ? 0.8 : 1;
        const colour = y < 200 ? [40, 30, 25] : blotch && x > 250 && y > 250 && y < 320 ? [230, 130, 120] : tone.map((c) => c * shade);
        rgba.set([...colour, x < 170 ? 0 : 255], o);
      }
    }
    return { width: 512, height: 512, rgba };
  };
  const even = sideSkinHue(view(false), tone)!;
  assert.ok(even.mean < 0.002 && even.p90 < 0.002, `${even.mean}, ${even.p90}`);
  const blotched = sideSkinHue(view(true), tone)!;
  assert.ok(blotched.mean > 0.01 && blotched.p90 > 0.05, `${blotched.mean}, ${blotched.p90}`);
  assert.equal(sideSkinHue({ width: 512, height: 512, rgba: new Uint8Array(512 * 512 * 4) }, tone), undefined);
});
