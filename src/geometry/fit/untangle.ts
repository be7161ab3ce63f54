/**
 * Keeps a fitted mesh free of self-intersections: detected landmarks occasionally fold the surface (a mouth
 * corner pulled through the mouth bag, pressed lips). Vertices of intersecting triangles, with a ring of
 * neighbours, are blended towards a safe shape (the template under the fit's similarity, which is valid)
 * in growing steps until no intersection is left.
 */
import { SelfIntersectionWalk, weldMap } from '../mesh/checks.ts';
import { grow, vertexNeighbours } from '../mesh/adjacency.ts';

/**
 * How far towards the safe shape each step blends: small steps first, since most folds open within a tenth of
 * the way (closed lips whose seal folded at one spot reopened 0.5-0.9 mm over a fifth of the mouth at steps of a quarter).
 */
const BLEND_STEPS = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1];
/** Folds are checked again after each step over the same triangles: pairs that did not move keep their answer. */
const walk = new SelfIntersectionWalk();

/** Vertices of triangles (among `triangles`, ids into `indices`) that cut through another one of them. */
export function intersectingVertices(positions: Float32Array, indices: Uint32Array, triangles: Uint32Array): Set<number> {
  const sub = new Uint32Array(triangles.length * 3);
  triangles.forEach((t, i) => sub.set(indices.subarray(t * 3, t * 3 + 3), i * 3));
  let edge = 0;
  for (let t = 0; t < sub.length; t += 3) edge += Math.hypot(positions[sub[t] * 3] - positions[sub[t + 1] * 3], positions[sub[t] * 3 + 1] - positions[sub[t + 1] * 3 + 1], positions[sub[t] * 3 + 2] - positions[sub[t + 1] * 3 + 2]);
  const cell = (2 * edge) / Math.max(1, triangles.length) || 1;
  const out = new Set<number>();
  walk.run(positions, sub, cell, (i, j) => {
    for (let k = 0; k < 3; k++) out.add(sub[3 * i + k]);
    for (let k = 0; k < 3; k++) out.add(sub[3 * j + k]);
  });
  return out;
}

/** Triangles with at least one vertex in `vertices`. */
export function trianglesTouching(indices: Uint32Array, vertices: readonly number[], vertexCount: number): Uint32Array {
  const mark = new Uint8Array(vertexCount);
  for (const v of vertices) mark[v] = 1;
  const out: number[] = [];
  for (let t = 0; t < indices.length / 3; t++) if (mark[indices[t * 3]] || mark[indices[t * 3 + 1]] || mark[indices[t * 3 + 2]]) out.push(t);
  return Uint32Array.from(out);
}

/**
 * Blends the neighbourhoods of intersections towards `safe` (same vertex order) in place; checks only
 * `triangles` (the region where folds can appear). Returns how many vertices were moved.
 */
export function untangle(positions: Float32Array, safe: Float32Array, indices: Uint32Array, triangles: Uint32Array): number {
  let bad = intersectingVertices(positions, indices, triangles);
  if (bad.size === 0) return 0;
  // Copies of a vertex split along a UV seam are one vertex here: grown over and blended together, they stay joined.
  const weld = weldMap(positions);
  const neighbours = vertexNeighbours(positions.length / 3, Uint32Array.from(indices, (v) => weld[v]));
  const original = positions.slice();
  const welded = (vertices: Set<number>) => grow(new Set([...vertices].map((v) => weld[v])), neighbours, 2);
  let region = welded(bad);
  for (const t of BLEND_STEPS) {
    for (let v = 0; v < weld.length; v++) {
      if (region.has(weld[v])) for (let k = 0; k < 3; k++) positions[v * 3 + k] = original[v * 3 + k] * (1 - t) + safe[v * 3 + k] * t;
    }
    bad = intersectingVertices(positions, indices, triangles);
    if (bad.size === 0) return region.size;
    region = new Set([...region, ...welded(bad)]);
  }
  return region.size;
}
