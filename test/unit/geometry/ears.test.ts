/**
 * Ears after fitting: placed and sized from the face beside them, as whole pieces. A face 12 % wider
 * than the template (and no taller) gets ears 12 % larger in every direction, not stretched sideways
 * as the warp alone would leave them; the template's own landmarks leave them where they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitHead, type FitSource } from '../../../src/geometry/fit/fit-head.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import type { TemplateView } from '../../../src/pipeline/template-view.ts';

const source = (tpl: TemplateView, ears: boolean): FitSource => ({
  head: tpl.meshes[0].geometry.positions,
  indices: tpl.meshes[0].geometry.indices,
  parts: {},
  eyes: {},
  openingPairs: tpl.openingPairs,
  ears: ears ? tpl.ears : undefined,
});

/** The template's face points, widened by `wide` across (x) about the middle, irises in front of the eyes. */
function landmarks(tpl: TemplateView, wide: number): Float32Array {
  const lm = new Float32Array(478 * 3);
  lm.set(tpl.meshes[0].geometry.positions.subarray(0, 468 * 3));
  for (let i = 0; i < 468; i++) lm[3 * i] *= wide;
  for (const [mesh, iris] of [['eyeLeft', 468], ['eyeRight', 473]] as const) {
    const { center, radius } = tpl.eyes[mesh];
    for (let k = 0; k < 5; k++) lm.set([center[0] * wide, center[1], center[2] + radius], 3 * (iris + k));
  }
  return lm;
}

/** Extent of the pinna (vertices moving fully with the ear) along each axis. */
function extent(tpl: TemplateView, positions: Float32Array, side: number): number[] {
  const ear = tpl.ears[side];
  const pinna = ear.vertices.filter((_, i) => ear.weights[i] === 1);
  assert.ok(pinna.length > ear.vertices.length / 2, 'most of the ear is pinna');
  return [0, 1, 2].map((k) => Math.max(...pinna.map((v) => positions[3 * v + k])) - Math.min(...pinna.map((v) => positions[3 * v + k])));
}

test('the ears stay put on the template and grow evenly with a wider face', () => {
  const tpl = loadTemplateView('1.6');
  const rest = tpl.meshes[0].geometry.positions;
  const still = fitHead(source(tpl, true), { landmarks: landmarks(tpl, 1) });
  for (const ear of tpl.ears) for (const v of ear.vertices) for (let k = 0; k < 3; k++) assert.ok(Math.abs(still.head[3 * v + k] - rest[3 * v + k]) < 1e-3);

  const wide = 1.12;
  const placed = fitHead(source(tpl, true), { landmarks: landmarks(tpl, wide) });
  const warped = fitHead(source(tpl, false), { landmarks: landmarks(tpl, wide) });
  for (const side of [0, 1]) {
    const before = extent(tpl, rest, side);
    const grown = extent(tpl, placed.head, side).map((e, k) => e / before[k]);
    for (const g of grown) assert.ok(Math.abs(g - wide) < 0.01, `ear ${side} grows ${grown.map((x) => x.toFixed(3)).join(', ')}`);
    // The warp alone leaves the ear's height as it was: the fit is what sizes it.
    const stretched = extent(tpl, warped.head, side).map((e, k) => e / before[k]);
    assert.ok(Math.abs(stretched[1] - 1) < Math.abs(grown[1] - 1) / 2, `warped ear height ${stretched[1].toFixed(3)}`);
    // It stays beside the face: its centre moves out with the face's side.
    const centre = (p: Float32Array) => tpl.ears[side].vertices.reduce((s, v) => s + p[3 * v], 0) / tpl.ears[side].vertices.length;
    assert.ok(Math.abs(centre(placed.head) - centre(rest) * wide) < 0.3, `ear ${side} centre x ${centre(placed.head).toFixed(2)} for ${(centre(rest) * wide).toFixed(2)}`);
  }
});
