import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inBoxAround, trianglesWithCornerIn, withinReach } from '../../../src/geometry/mesh/near-points.ts';

test('inBoxAround: the vertices in the box round the points grown by the reach, its faces included', () => {
  const positions = [0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 1.5, 0, 1, 0, 0.5];
  assert.deepEqual([...inBoxAround(positions, [1, 0, 0, 1, 0.5, 0], 0.5)], [0, 1, 0, 0, 1]);
  assert.deepEqual([...inBoxAround(positions, [1, 0, 0], 1)], [1, 1, 1, 0, 1]);
});

test('withinReach: the vertices nearer than the reach to a point, not those only in the box round the points', () => {
  // (1, 0.9, 0) is in the box round the two points grown by 1, but 1.35 from the nearer one.
  const positions = [0, 0, 0, 1, 0.9, 0, 2, 0.5, 0, 3.1, 0, 0];
  assert.deepEqual([...inBoxAround(positions, [0, 0, 0, 2, 0, 0], 1)], [1, 1, 1, 0]);
  assert.deepEqual([...withinReach(positions, [0, 0, 0, 2, 0, 0], 1)], [1, 0, 1, 0]);
});

test('trianglesWithCornerIn: the triangles with any corner inside, their indices in order', () => {
  const indices = [0, 1, 2, 2, 3, 4, 3, 4, 0];
  assert.deepEqual([...trianglesWithCornerIn(indices, Uint8Array.from([0, 0, 1, 0, 0]))], [0, 1, 2, 2, 3, 4]);
  assert.deepEqual([...trianglesWithCornerIn(indices, new Uint8Array(5))], []);
});
