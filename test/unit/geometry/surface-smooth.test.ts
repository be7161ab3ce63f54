/** smoothOverSurface: a per-vertex value averaged over the mesh's neighbours, seam copies as one vertex. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smoothOverSurface } from '../../../src/geometry/mesh/surface-smooth.ts';

// A square of two triangles (0 1 2, 0 2 3) and a third triangle (4 2 1) whose vertex 4 is a seam copy of vertex 0.
const positions = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0];
const indices = [0, 1, 2, 0, 2, 3, 4, 2, 1];

test('a step spreads to the neighbours, seam copies take one value and no pass leaves the range', () => {
  const once = smoothOverSurface([1, 0, 0, 0, 1], positions, indices, 1);
  assert.equal(once[4], once[0], 'the seam copy follows its original');
  assert.ok(once[0] < 1 && once[1] > 0 && once[3] > 0, `the step spread: ${[...once]}`);
  const many = smoothOverSurface([1, 0, 0, 0, 1], positions, indices, 50);
  for (const x of many) assert.ok(Math.abs(x - many[0]) < 1e-3 && x > 0 && x < 1, `evened out: ${[...many]}`);
});

test('held vertices keep their value, their copies too, and the others still average with them', () => {
  const out = smoothOverSurface([1, 0, 0, 0, 1], positions, indices, 3, [4]);
  assert.equal(out[0], 1);
  assert.equal(out[4], 1);
  assert.ok(out[2] > 0 && out[2] < 1);
});
