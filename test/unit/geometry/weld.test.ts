import { test } from 'node:test';
import assert from 'node:assert/strict';
import { weldMap } from '../../../src/geometry/mesh/weld.ts';
import { vertexNormals } from '../../../src/geometry/mesh/normals.ts';
import { neighbourLists, vertexNeighbours } from '../../../src/geometry/mesh/adjacency.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Positions on a coarse lattice (many exact repeats), with 0 and -0 both present. */
function latticePoints(count: number, seed: number): Float32Array {
  const rand = random(seed);
  const p = new Float32Array(count * 3);
  for (let i = 0; i < p.length; i++) {
    const c = Math.floor(rand() * 3) - 1;
    p[i] = c === 0 && rand() < 0.5 ? -0 : c * 0.1;
  }
  return p;
}

test('the weld map sends every vertex to the first vertex at an equal position (0 and -0 equal, NaN alone)', () => {
  for (const seed of [1, 2, 3]) {
    const p = latticePoints(400, seed);
    p[30] = NaN;
    p[33] = NaN;
    const map = weldMap(p);
    for (let v = 0; v < p.length / 3; v++) {
      let first = v;
      for (let u = 0; u < v; u++) {
        if (p[3 * u] === p[3 * v] && p[3 * u + 1] === p[3 * v + 1] && p[3 * u + 2] === p[3 * v + 2]) {
          first = u;
          break;
        }
      }
      assert.equal(map[v], first, `seed ${seed}, vertex ${v}`);
    }
    assert.equal(map[10], 10, 'a vertex with a NaN coordinate equals no other');
    assert.equal(map[11], 11);
  }
});

test('vertices at one position share the normal summed over all of them in vertex order; the others keep their own', () => {
  // Two triangles folded along x = 0, the shared edge's vertices duplicated (a seam), and a lone triangle.
  const positions = new Float32Array([0, 0, 0, 0, 1, 0, -1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 5, 5, 5, 6, 5, 5, 5, 6, 5]);
  const indices = new Uint32Array([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  const n = vertexNormals(positions, indices);
  const face = (a: number, b: number, c: number) => {
    const u = [0, 1, 2].map((k) => positions[3 * b + k] - positions[3 * a + k]), w = [0, 1, 2].map((k) => positions[3 * c + k] - positions[3 * a + k]);
    return [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  };
  const f1 = face(0, 1, 2), f2 = face(3, 4, 5);
  const unit = (v: number[]) => Float32Array.from(v, (x) => x / Math.hypot(...v));
  const shared = unit([0, 1, 2].map((k) => 0 + f1[k] + f2[k]));
  for (const v of [0, 3, 1, 5]) assert.deepEqual(n.subarray(3 * v, 3 * v + 3), shared, `seam vertex ${v}`);
  // A lone vertex's sum starts at 0 too (so -0 becomes 0).
  assert.deepEqual(n.subarray(6, 9), unit(f1.map((x) => 0 + x)));
  assert.deepEqual(n.subarray(12, 15), unit(f2.map((x) => 0 + x)));
  assert.deepEqual([...n.subarray(18, 27)], [0, 0, 1, 0, 0, 1, 0, 0, 1]);
});

test('packed neighbour lists hold the same one ring as vertexNeighbours, and grow the same rings', () => {
  const rand = random(5);
  const count = 200;
  const indices = Uint32Array.from({ length: 900 }, () => Math.floor(rand() * count));
  const sets = vertexNeighbours(count, indices);
  const { start, list } = neighbourLists(count, indices);
  for (let v = 0; v < count; v++) assert.deepEqual([...new Set(list.subarray(start[v], start[v + 1]))].sort((a, b) => a - b), sets[v], `vertex ${v}`);
  assert.equal(list.length, 2 * indices.length);
});

