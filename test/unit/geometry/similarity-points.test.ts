import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySimilarity, applySimilarityInPlace } from '../../../src/geometry/fit/fit-head.ts';
import { quatToMat3 } from '../../../src/geometry/fit/similarity.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

test('a similarity applied to packed points in place gives, point by point, what applySimilarity gives', () => {
  const random = seededRandom(3);
  const q = [0.9, 0.2, -0.3, 0.1];
  const n = Math.hypot(...q);
  const s = { scale: 1.37, rotation: quatToMat3(q[0] / n, q[1] / n, q[2] / n, q[3] / n), translation: [0.5, -2.25, 10] as [number, number, number] };
  const points = Float32Array.from({ length: 300 }, () => (random() - 0.5) * 40);
  const want = new Float32Array(points.length);
  for (let i = 0; i < points.length; i += 3) want.set(applySimilarity(s, points[i], points[i + 1], points[i + 2]), i);
  assert.deepEqual(applySimilarityInPlace(s, points), want);
});
