import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median } from '../../../src/geometry/texture/sample.ts';
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
