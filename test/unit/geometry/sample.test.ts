import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, lumaGrain } from '../../../src/geometry/texture/sample.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

test('median: the upper middle of the values in numeric order (not string order), the input left as it was', () => {
  assert.equal(median([]), 0);
  assert.equal(median([7]), 7);
  // String order would put 100 before 9.
  assert.equal(median([100, 9, 20]), 20);
  assert.equal(median([3, -1.5, 2, 10]), 3);
  const rnd = seededRandom(3);
  const values = Array.from({ length: 1001 }, () => Math.round(rnd() * 5000) / 10 - 100);
  const copy = values.slice();
  assert.equal(median(values), [...values].sort((a, b) => a - b)[500]);
  assert.deepEqual(values, copy);
});

test('lumaGrain: none on a flat patch or across one sharp edge, much on hair-like grain', () => {
  const size = 40;
  const image = (luma: (x: number, y: number) => number) => {
    const data = new Uint8Array(size * size * 3);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data.fill(luma(x, y), (y * size + x) * 3, (y * size + x) * 3 + 3);
    return { width: size, height: size, data };
  };
  assert.equal(lumaGrain(image(() => 120), 20, 20, 5), 0);
  // A jaw line or a shadow's border through the patch: only the pixels beside it differ from their neighbourhood.
  assert.ok(lumaGrain(image((x) => (x < 20 ? 40 : 200)), 20, 20, 5) < 0.01);
  // Dark strands on darker skin, a pixel or two wide.
  const rnd = seededRandom(7);
  const grain = image(() => Math.round(60 + 50 * rnd()));
  assert.ok(lumaGrain(grain, 20, 20, 5) > 0.1, `grain ${lumaGrain(grain, 20, 20, 5)}`);
});
