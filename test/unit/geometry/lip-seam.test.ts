import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawLipSeam, SEAM_SHADE } from '../../../src/geometry/texture/lip-seam.ts';
import type { Rgb } from '../../../src/geometry/texture/rgb-image.ts';

const SIZE = 256;
const lip: Rgb = [180, 110, 110];

/** An atlas of one colour, and a lip rim as the templates lay it out: upper and lower contours a few texels apart. */
function setup(fill: Rgb) {
  const rgba = new Uint8Array(SIZE * SIZE * 4);
  for (let i = 0; i < SIZE * SIZE; i++) rgba.set([...fill, 255], i * 4);
  // Vertex k: x from 28 to 228 texels along the upper contour (row 100), then back along the lower one (row 103).
  const xs = Array.from({ length: 11 }, (_, k) => 28 + 20 * k);
  const rows = [...xs.map((x) => [x, 100]), ...xs.slice(1, -1).reverse().map((x) => [x, 103])];
  const uvs = new Float32Array(rows.flatMap(([x, y]) => [x / SIZE, 1 - y / SIZE]));
  return { rgba, uvs, rim: rows.map((_, i) => i) };
}
const at = (rgba: Uint8Array, x: number, y: number) => Array.from(rgba.subarray((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 3));

test('pale texels along the rim become a thin line of the shaded lip colour; the lips beyond it keep theirs', () => {
  const pale: Rgb = [230, 200, 195];
  const { rgba, uvs, rim } = setup(pale);
  drawLipSeam(rgba, SIZE, uvs, rim, lip);
  const seam = lip.map((c) => Math.round(c * SEAM_SHADE));
  // Along the contours: the seam; between them (1.5 texels from each), nearly.
  for (const y of [99, 100, 102, 103]) assert.deepEqual(at(rgba, 128, y), seam, `row ${y}`);
  assert.ok(at(rgba, 128, 101)[0] < seam[0] + 0.2 * (pale[0] - seam[0]));
  // 0.007 mouth widths (1.4 texels) and a one-texel ramp: nothing from 3 texels off either contour.
  assert.deepEqual(at(rgba, 128, 96), pale);
  assert.deepEqual(at(rgba, 128, 107), pale);
  // The line is thin: at most 2 texels of each lip are touched.
  const touched = Array.from({ length: 20 }, (_, k) => 92 + k).filter((y) => at(rgba, 128, y)[0] !== pale[0]);
  assert.ok(touched.length <= 8, `rows ${touched}`);
});

test('texels already darker than the seam (a closed mouth\'s own line) stay as the photo shows them', () => {
  const dark: Rgb = [40, 25, 25];
  const { rgba, uvs, rim } = setup(dark);
  drawLipSeam(rgba, SIZE, uvs, rim, lip);
  for (const y of [99, 100, 101, 102, 103]) assert.deepEqual(at(rgba, 128, y), dark);
});
