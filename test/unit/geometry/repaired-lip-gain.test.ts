import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gainRepairedLipsAsSeen } from '../../../src/geometry/texture/repaired-lip-gain.ts';
import { LipPixel } from '../../../src/geometry/texture/lip-colour.ts';

const W = 10;

test("vertices on repaired lip pixels take the seen lips' median gain; the others keep their own", () => {
  // Pixels: row 0 outside, row 1 kept lip, row 2 replaced.
  const pixels = new Uint8Array(W * 3);
  pixels.fill(LipPixel.kept, W, 2 * W);
  pixels.fill(LipPixel.replaced, 2 * W);
  // Vertices: one on skin, three on kept lip (one unseen), one on a replaced pixel (a shaded corner: large gains).
  const img = Float32Array.of(1.5, 0.5, 1.5, 1.5, 3.5, 1.5, 5.5, 1.5, 7.5, 1.5, 2.5, 2.5);
  const gain = Float32Array.of(2, 2, 2, 1, 1.1, 1.2, 1.2, 1.3, 1.4, 1.4, 1.5, 1.6, 9, 9, 9, 2.7, 2.5, 2.6);
  const visible = Uint8Array.of(1, 1, 1, 1, 0, 1);
  gainRepairedLipsAsSeen(gain, img, pixels, W, visible);
  assert.deepEqual(Array.from(gain.subarray(15)).map((g) => +g.toFixed(3)), [1.2, 1.3, 1.4], 'the median of the three seen lip vertices');
  assert.deepEqual(Array.from(gain.subarray(0, 15)), Array.from(Float32Array.of(2, 2, 2, 1, 1.1, 1.2, 1.2, 1.3, 1.4, 1.4, 1.5, 1.6, 9, 9, 9)));
});

test('without a seen lip vertex the gains stay as they are', () => {
  const pixels = new Uint8Array(W).fill(LipPixel.replaced);
  const gain = Float32Array.of(2.7, 2.5, 2.6);
  gainRepairedLipsAsSeen(gain, Float32Array.of(4.5, 0.5), pixels, W);
  assert.deepEqual(Array.from(gain), Array.from(Float32Array.of(2.7, 2.5, 2.6)));
});
