import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleIrisColour } from '../../../src/geometry/texture/bake-parts.ts';
import type { RgbImage } from '../../../src/geometry/texture/rgb-image.ts';

/** A photo's eye: skin, an iris disc of one colour with a dark pupil and a catchlight on its ring. */
function eyePhoto(ring: [number, number, number]): RgbImage {
  const size = 64, data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - 32, y - 32) / 10;
      const catchlight = Math.hypot(x - 38, y - 28) < 2;
      const c = d > 1 ? [200, 150, 130] : d < 0.35 ? [10, 8, 8] : catchlight ? [250, 250, 250] : ring;
      data.set(c, (y * size + x) * 3);
    }
  }
  return { width: size, height: size, data };
}

test("the iris's colour is its ring's, lit as the avatar's socket, lids and cornea light it: brighter than the photo shows it", () => {
  const ring: [number, number, number] = [86, 60, 43];
  const colour = sampleIrisColour(eyePhoto(ring), [{ x: 32, y: 32, r: 10 }]);
  // The photo's iris lies in the same shade as the avatar's (0.86 of its colour on the preview), so it is taken over that.
  colour.forEach((c, i) => assert.ok(Math.abs(c - ring[i] / 0.86) <= 1, `channel ${i}: ${c}, the ring ${ring[i]}`));
});

test('an eye whose opening shows too little of the ring (shut, or its contour misplaced) is sampled over the whole ring', () => {
  const ring: [number, number, number] = [86, 60, 43];
  const shut: [number, number][] = [[20, 31.8], [44, 31.8], [44, 32.2], [20, 32.2]];
  const colour = sampleIrisColour(eyePhoto(ring), [{ x: 32, y: 32, r: 10, opening: shut }]);
  colour.forEach((c, i) => assert.ok(Math.abs(c - ring[i] / 0.86) <= 1, `channel ${i}: ${c}, the ring ${ring[i]}`));
});
