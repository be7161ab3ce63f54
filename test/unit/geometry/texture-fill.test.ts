import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dilate } from '../../../src/geometry/texture/uv-raster.ts';
import { pushPullFill, TexelSource } from '../../../src/geometry/texture/transfer-fill.ts';

/** Reference dilation: every pass looks at every texel, against the coverage before the pass. */
function dilateReference(rgba: Uint8Array, covered: Uint8Array, size: number, passes: number): void {
  for (let p = 0; p < passes; p++) {
    const before = covered.slice();
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = y * size + x;
        if (before[i]) continue;
        const n = [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, y > 0 ? i - size : -1, y < size - 1 ? i + size : -1].find((k) => k >= 0 && before[k] === 1);
        if (n === undefined) continue;
        rgba.copyWithin(i * 4, n * 4, n * 4 + 4);
        covered[i] = 1;
      }
    }
  }
}

test('dilation grows islands by one texel a pass, taking the first covered neighbour (left, right, up, down)', () => {
  let s = 5;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (const size of [1, 7, 64]) {
    const covered = Uint8Array.from({ length: size * size }, () => (rand() < 0.15 ? 1 : 0));
    const rgba = Uint8Array.from({ length: size * size * 4 }, () => Math.floor(rand() * 256));
    const expected = { rgba: rgba.slice(), covered: covered.slice() };
    dilateReference(expected.rgba, expected.covered, size, 4);
    dilate(rgba, covered, size, 4);
    assert.deepEqual(covered, expected.covered, `size ${size}`);
    assert.deepEqual(rgba, expected.rgba, `size ${size}`);
  }
});

test('push-pull fill gives gaps a blend of the colours around them and leaves an atlas without gaps as it is', () => {
  const size = 8;
  const rgba = new Uint8Array(size * size * 4);
  const source = new Uint8Array(size * size).fill(TexelSource.scan);
  for (let i = 0; i < size * size; i++) rgba.set(i % size < size / 2 ? [200, 40, 0, 255] : [0, 40, 200, 255], i * 4);
  const full = rgba.slice();
  pushPullFill(full, source, size);
  assert.deepEqual(full, rgba);
  // A gap across the border between the two colours: filled with a colour between them.
  for (let y = 2; y < 6; y++) for (let x = 3; x < 5; x++) source[y * size + x] = TexelSource.fill;
  pushPullFill(rgba, source, size);
  const mid = (4 * size + 3) * 4;
  assert.ok(rgba[mid] > 0 && rgba[mid] < 200 && rgba[mid + 2] > 0 && rgba[mid + 2] < 200, `filled ${rgba.slice(mid, mid + 3)}`);
  assert.equal(rgba[mid + 1], 40);
});
