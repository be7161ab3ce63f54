import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeTangents } from '../../../src/geometry/mesh/tangents.ts';

// A unit quad in the XY plane facing +Z, u along +X.
const positions = Float32Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
const normals = Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
const indices = Uint32Array.of(0, 1, 2, 0, 2, 3);

test('tangents follow +u; the handedness flips with v', () => {
  const vUp = computeTangents(positions, normals, Float32Array.of(0, 0, 1, 0, 1, 1, 0, 1), indices);
  const vDown = computeTangents(positions, normals, Float32Array.of(0, 1, 1, 1, 1, 0, 0, 0), indices);
  for (let v = 0; v < 4; v++) {
    assert.deepEqual(Array.from(vUp.subarray(v * 4, v * 4 + 4)), [1, 0, 0, 1]);
    assert.deepEqual(Array.from(vDown.subarray(v * 4, v * 4 + 4)), [1, 0, 0, -1]);
  }
});

test('degenerate UVs still give a unit tangent orthogonal to the normal', () => {
  const t = computeTangents(positions, normals, new Float32Array(8), indices);
  for (let v = 0; v < 4; v++) {
    const [x, y, z] = t.subarray(v * 4, v * 4 + 3);
    assert.ok(Math.abs(Math.hypot(x, y, z) - 1) < 1e-6 && Math.abs(z) < 1e-6);
  }
});
