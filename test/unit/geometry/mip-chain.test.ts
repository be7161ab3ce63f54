import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RgbaImage } from '../../../src/geometry/render/image.ts';
import { mipLevel } from '../../../src/geometry/render/mip-chain.ts';
import { renderMeshes, type RenderItem } from '../../../src/geometry/render/rasterize.ts';
import type { Camera } from '../../../src/geometry/render/camera.ts';
import { quad } from '../../fixtures/shapes.ts';

/** Black and white stripes one texel wide, fully opaque. */
function stripes(size: number): RgbaImage {
  const rgba = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    const v = i % size % 2 === 0 ? 0 : 255;
    rgba.set([v, v, v, 255], i * 4);
  }
  return { width: size, height: size, rgba };
}

test('a mip level averages 2x2 texels by their coverage: transparent texels lend no colour', () => {
  const img: RgbaImage = { width: 2, height: 2, rgba: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0]) };
  const half = mipLevel(img, 1);
  assert.equal(half.width, 1);
  const [r, g, , a] = half.rgba;
  assert.ok(r > 240 && g < 15, `colour ${r},${g}: the transparent green bled in`);
  assert.ok(Math.abs(a - 64) <= 1, `coverage ${a}, a quarter expected`);
  assert.equal(mipLevel(img, 1), half, 'built once, kept with the image');
  assert.equal(mipLevel(img, 5), half, 'a level past the last is the last');
});

test('a fine texture seen small: sampled pre-filtered it renders an even grey, unfiltered it aliases', () => {
  const texture = stripes(256);
  // 256 texels over some 40 pixels: about six texels per pixel.
  const camera: Camera = { type: 'orthographic', viewHeight: 2.4, eye: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0] };
  const spread = (mipmap: boolean) => {
    const item: RenderItem = { geometry: quad(2, 0), texture, mipmap, alphaMode: 'OPAQUE' };
    const img = renderMeshes([item], camera, { width: 48, height: 48 });
    const values: number[] = [];
    for (let y = 14; y < 34; y++) for (let x = 14; x < 34; x++) values.push(img.rgba[(y * 48 + x) * 4]);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  };
  const filtered = spread(true), raw = spread(false);
  assert.ok(filtered < 12, `pre-filtered: spread ${filtered.toFixed(1)}`);
  assert.ok(raw > 3 * filtered, `unfiltered: spread ${raw.toFixed(1)} against ${filtered.toFixed(1)}`);
});

test('a mip level is the alpha-weighted mean of each 2x2, rounded, on solid, clear and mixed texels alike, and on unaligned bytes', () => {
  // Blocks of equal alpha (0, 255 and between) beside blocks of mixed alpha, colours from a fixed hash; odd sizes clamp.
  for (const [width, height, offset] of [[64, 48, 0], [33, 17, 1], [1, 9, 3]]) {
    const buffer = new Uint8Array(width * height * 4 + offset);
    const rgba = buffer.subarray(offset);
    for (let i = 0; i < width * height; i++) {
      const block = ((i % width) >> 1) + ((Math.floor(i / width) >> 1) * 7);
      const alphas = [0, 255, 130, -1];
      const alpha = alphas[block % 4] < 0 ? (i * 2654435761) >>> 24 : alphas[block % 4];
      rgba.set([(i * 40503) & 255, (i * 9973) & 255, (i * 31) & 255, alpha], i * 4);
    }
    const half = mipLevel({ width, height, rgba }, 1);
    const w2 = Math.max(1, width >> 1), h2 = Math.max(1, height >> 1);
    assert.equal(half.width, w2);
    assert.equal(half.height, h2);
    for (let y = 0; y < h2; y++) {
      for (let x = 0; x < w2; x++) {
        const texels = [[2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]].map(([tx, ty]) => (Math.min(height - 1, ty) * width + Math.min(width - 1, tx)) * 4);
        const weights = texels.map((t) => rgba[t + 3] + 1);
        const sum = weights.reduce((s, v) => s + v, 0);
        const expected = [0, 1, 2].map((k) => Math.round(texels.reduce((s, t, j) => s + rgba[t + k] * weights[j], 0) / sum));
        expected.push(Math.round((sum - 4) / 4));
        assert.deepEqual(Array.from(half.rgba.subarray((y * w2 + x) * 4, (y * w2 + x) * 4 + 4)), expected, `texel ${x},${y} of ${width}x${height}`);
      }
    }
  }
});
