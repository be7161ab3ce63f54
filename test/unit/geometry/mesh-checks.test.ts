import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMesh, countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { boundaryLoops } from '../../../src/geometry/mesh/adjacency.ts';

/** A unit cube, triangles counter-clockwise from outside; UVs spread on a grid, one cell per face. */
function cube(offset = [0, 0, 0]) {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1].map((x, i) => x + offset[i % 3]));
  const quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [1, 2, 6, 5], [0, 4, 7, 3]];
  const indices = new Uint32Array(quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]));
  return { positions, indices };
}

/** Every triangle its own vertices and its own UV cell, so UVs are valid whatever the shape. */
function withOwnUvs(mesh: { positions: Float32Array; indices: Uint32Array }) {
  const positions: number[] = [], uvs: number[] = [], indices: number[] = [];
  const cells = Math.ceil(Math.sqrt(mesh.indices.length / 3));
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    const u = (t % cells) / cells, v = Math.floor(t / cells) / cells, s = 0.8 / cells;
    for (let k = 0; k < 3; k++) {
      const p = mesh.indices[3 * t + k];
      positions.push(mesh.positions[3 * p], mesh.positions[3 * p + 1], mesh.positions[3 * p + 2]);
      indices.push(3 * t + k);
    }
    uvs.push(u, v, u + s, v, u, v + s);
  }
  return { positions: Float32Array.from(positions), uvs: Float32Array.from(uvs), indices: Uint32Array.from(indices) };
}

test('a closed cube passes every check (vertices split at UV seams are welded)', () => {
  const report = checkMesh(withOwnUvs(cube()));
  assert.deepEqual(report, { closed: true, manifold: true, outwardFacing: true, selfIntersections: 0, degenerateTriangles: 0, uvOutOfRange: 0, uvOverlaps: 0, boundaryLoops: 0 });
});

test('an open cube reports its hole unless it is allowed, and inverted winding is caught', () => {
  const c = cube();
  const open = { positions: c.positions, indices: c.indices.slice(0, 30) };
  const loops = boundaryLoops(open.indices);
  assert.equal(loops.length, 1);
  assert.equal(checkMesh(withOwnUvs(open)).closed, false);
  const uvs = new Float32Array(16).map((_, i) => (i % 2 ? 0.5 : 0.25));
  assert.equal(checkMesh({ ...open, uvs }, { openBoundaries: loops }).closed, true);
  const inverted = { ...c, indices: c.indices.map((_, i, a) => a[i - (i % 3) + 2 - (i % 3)]) };
  assert.equal(checkMesh(withOwnUvs(inverted)).outwardFacing, false);
});

test('triangles that cut through each other are counted; touching ones are not', () => {
  const a = cube(), b = cube([0.5, 0.3, 0.4]), touching = cube([1, 0, 0]);
  assert.ok(countIntersectionsBetween(a, b) > 0);
  assert.equal(countIntersectionsBetween(a, touching), 0);
  const merged = {
    positions: new Float32Array([...a.positions, ...b.positions]),
    indices: new Uint32Array([...a.indices, ...Array.from(b.indices, (v) => v + 8)]),
  };
  assert.ok(checkMesh(withOwnUvs(merged)).selfIntersections > 0);
});

test('non-manifold edges and degenerate triangles are reported', () => {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 2, 0, 0]);
  const uvs = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0.1, 0.1, 0.1, 1, 1]);
  // Three triangles on edge 0-1.
  const fin = checkMesh({ positions, uvs, indices: new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4]) });
  assert.equal(fin.manifold, false);
  const flat = checkMesh({ positions, uvs, indices: new Uint32Array([0, 1, 5]) });
  assert.equal(flat.degenerateTriangles, 1);
});

test('UV overlaps, mirrored UV triangles and UVs out of range are counted', () => {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0]);
  const indices = new Uint32Array([0, 1, 2, 3, 4, 5]);
  const separate = new Float32Array([0, 0, 0.4, 0, 0, 0.4, 0.5, 0.5, 0.9, 0.5, 0.5, 0.9]);
  assert.equal(checkMesh({ positions, uvs: separate, indices }).uvOverlaps, 0);
  const stacked = new Float32Array([0, 0, 0.4, 0, 0, 0.4, 0.1, 0.1, 0.5, 0.1, 0.1, 0.5]);
  assert.equal(checkMesh({ positions, uvs: stacked, indices }).uvOverlaps, 1);
  const mirrored = new Float32Array([0, 0, 0, 0.4, 0.4, 0, 0.5, 0.5, 0.9, 0.5, 0.5, 0.9]);
  assert.equal(checkMesh({ positions, uvs: mirrored, indices }).uvOverlaps, 1);
  const outside = new Float32Array([0, 0, 1.2, 0, 0, 0.4, 0.5, 0.5, 0.9, 0.5, 0.5, -0.1]);
  assert.equal(checkMesh({ positions, uvs: outside, indices }).uvOutOfRange, 2);
});
