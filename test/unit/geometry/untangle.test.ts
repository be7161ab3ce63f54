import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intersectingVertices, untangle } from '../../../src/geometry/fit/untangle.ts';
import { weldMap } from '../../../src/geometry/mesh/weld.ts';
import { grow, vertexNeighbours } from '../../../src/geometry/mesh/adjacency.ts';

/** A closed UV sphere whose seam meridian (s = 0) is split: its vertices are copied for the triangles on one side. */
function seamedSphere(rings: number, segments: number) {
  const positions: number[] = [0, 1, 0];
  for (let r = 1; r < rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const theta = (2 * Math.PI * s) / segments;
      positions.push(Math.sin(phi) * Math.cos(theta), Math.cos(phi), Math.sin(phi) * Math.sin(theta));
    }
  }
  positions.push(0, -1, 0);
  const bottom = positions.length / 3 - 1;
  const copies = new Map<number, number>();
  for (let r = 1; r < rings; r++) {
    copies.set(r, positions.length / 3);
    positions.push(...positions.slice(3 * (1 + (r - 1) * segments), 3 * (1 + (r - 1) * segments) + 3));
  }
  // The last column of quads closes onto the copies.
  const at = (r: number, s: number) => (s === segments ? copies.get(r)! : 1 + (r - 1) * segments + s);
  const indices: number[] = [];
  for (let s = 0; s < segments; s++) {
    indices.push(0, at(1, s + 1), at(1, s));
    indices.push(bottom, at(rings - 1, s), at(rings - 1, s + 1));
    for (let r = 1; r < rings - 1; r++) indices.push(at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r + 1, s));
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/** untangle as first written, with Sets: the definition the typed-array version must match bit for bit. */
function reference(positions: Float32Array, safe: Float32Array, indices: Uint32Array, triangles: Uint32Array): number {
  const steps = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1];
  let bad = intersectingVertices(positions, indices, triangles);
  if (bad.size === 0) return 0;
  const weld = weldMap(positions);
  const neighbours = vertexNeighbours(positions.length / 3, Uint32Array.from(indices, (v) => weld[v]));
  const original = positions.slice();
  const welded = (vertices: Set<number>) => grow(new Set([...vertices].map((v) => weld[v])), neighbours, 2);
  let region = welded(bad);
  for (const t of steps) {
    for (let v = 0; v < weld.length; v++) if (region.has(weld[v])) for (let k = 0; k < 3; k++) positions[v * 3 + k] = original[v * 3 + k] * (1 - t) + safe[v * 3 + k] * t;
    bad = intersectingVertices(positions, indices, triangles);
    if (bad.size === 0) return region.size;
    region = new Set([...region, ...welded(bad)]);
  }
  // Past the last step the region grows on at the safe shape.
  for (let size = 0; region.size > size; ) {
    size = region.size;
    for (let v = 0; v < weld.length; v++) if (region.has(weld[v])) for (let k = 0; k < 3; k++) positions[v * 3 + k] = safe[v * 3 + k];
    bad = intersectingVertices(positions, indices, triangles);
    if (bad.size === 0) return region.size;
    region = new Set([...region, ...welded(bad)]);
  }
  return region.size;
}

test('untangle blends the folds away, moving exactly the vertices the set-based definition moves, seam copies together', () => {
  const { positions: safe, indices } = seamedSphere(14, 20);
  const all = Uint32Array.from({ length: indices.length / 3 }, (_, t) => t);
  for (const depth of [1.5, 1.7, 1.9]) {
    // The cap pushed down through the sphere, one seam copy with its original.
    const folded = safe.slice();
    for (let i = 0; i < folded.length; i += 3) if (folded[i + 1] > 0.5) folded[i + 1] -= depth + 0.05 * folded[i];
    assert.ok(intersectingVertices(folded, indices, all).size > 0, `depth ${depth}: folded`);
    const expected = folded.slice(), got = folded.slice();
    const moved = reference(expected, safe, indices, all);
    assert.equal(untangle(got, safe, indices, all), moved, `depth ${depth}`);
    assert.ok(moved > 0);
    assert.deepEqual(got, expected, `depth ${depth}`);
    assert.equal(intersectingVertices(got, indices, all).size, 0, `depth ${depth}: untangled`);
    const weld = weldMap(safe);
    for (let v = 0; v < weld.length; v++) assert.deepEqual(got.subarray(3 * v, 3 * v + 3), got.subarray(3 * weld[v], 3 * weld[v] + 3), `seam vertex ${v} stays joined`);
  }
  const flat = safe.slice();
  assert.equal(untangle(flat, safe, indices, all), 0, 'nothing folded, nothing moved');
  assert.deepEqual(flat, safe);
});

test('a fold wider than the blending steps reach is untangled too: the region grows on at the safe shape', () => {
  // A fine sphere's upper half pushed down through the lower one: after the last step (the region at the safe shape)
  // the fold's edge still crossed, 96 vertices.
  const { positions: safe, indices } = seamedSphere(60, 24);
  const all = Uint32Array.from({ length: indices.length / 3 }, (_, t) => t);
  const folded = safe.slice();
  for (let i = 0; i < folded.length; i += 3) if (folded[i + 1] > 0) folded[i + 1] -= 1.5 + 0.05 * folded[i];
  assert.ok(intersectingVertices(folded, indices, all).size > 0, 'folded');
  const expected = folded.slice(), got = folded.slice();
  const moved = reference(expected, safe, indices, all);
  assert.equal(untangle(got, safe, indices, all), moved);
  assert.deepEqual(got, expected);
  assert.equal(intersectingVertices(got, indices, all).size, 0, 'untangled');
});
