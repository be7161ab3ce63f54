/**
 * The shape observer's gaps on the mesh (tools/quality/observe-shapes.ts meshGaps): the lips' and lids' upper centre
 * against the other contour right below it, so that a mouth kept a little sideways is not read as crossed lips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { meshGaps, type GapLoops } from '../../../tools/quality/observe-shapes.ts';
import { upperAndLower } from '../../../src/geometry/expressions/primitives.ts';
import { templateFrame } from '../../../src/geometry/expressions/frame.ts';

const tpl = buildTemplate('2.0');
const loops: GapLoops = { left: tpl.loops.leftEye, right: tpl.loops.rightEye, lips: tpl.loops.lipsInner };
const UPPER_CENTRE = 13, LOWER_CENTRE = 14;

test("the template's parted lips and open eyes read as open", () => {
  const gaps = meshGaps(tpl.head.positions, loops);
  assert.ok(gaps.lips > 0.03, `lips ${gaps.lips}`);
  assert.ok(gaps.lidsLeft > 0.05 && gaps.lidsRight > 0.05, `lids ${gaps.lidsLeft} ${gaps.lidsRight}`);
});

test('an upper lip pushed through the lower one reads as crossed', () => {
  const p = Float32Array.from(tpl.head.positions);
  const open = meshGaps(p, loops).lips;
  // At least 1 mm past the lower lip (the gap is in eye-centre distances, under 7 cm).
  p[3 * UPPER_CENTRE + 1] -= open * 7 + 0.1;
  assert.ok(meshGaps(p, loops).lips < 0);
});

test('closed lips with the lower lip 3 mm to the side read as closed, though its centre stands above the upper one', () => {
  const p = Float32Array.from(tpl.head.positions);
  const x13 = p[3 * UPPER_CENTRE];
  // The lower lip 3 mm to the side and sloping (as p12-a's neutral keeps its mouth): its centre vertex rises.
  for (const v of upperAndLower(templateFrame(tpl), tpl.loops.lipsInner).lower) {
    p[3 * v] += 0.3;
    p[3 * v + 1] += 0.2 * (p[3 * v] - x13);
  }
  // The upper centre laid 0.1 mm over the lower contour right below it (its height there read off the gap, which is
  // linear in the upper centre's height: at heights 0 and 1 cm).
  const gapAt = (y: number) => {
    p[3 * UPPER_CENTRE + 1] = y;
    return meshGaps(p, loops).lips;
  };
  const [g0, g1] = [gapAt(0), gapAt(1)];
  p[3 * UPPER_CENTRE + 1] = -g0 / (g1 - g0) + 0.01;
  assert.ok(p[3 * UPPER_CENTRE + 1] < p[3 * LOWER_CENTRE + 1], 'the upper centre vertex stands below the lower one');
  const gaps = meshGaps(p, loops).lips;
  assert.ok(gaps > 0 && gaps < 0.01, `lips ${gaps}`);
});
