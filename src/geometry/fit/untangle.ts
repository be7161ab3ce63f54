/**
 * Keeps a fitted mesh free of self-intersections: detected landmarks occasionally fold the surface (a mouth
 * corner pulled through the mouth bag, pressed lips). Vertices of intersecting triangles, with a ring of
 * neighbours, are blended towards a safe shape (the template under the fit's similarity, which is valid)
 * in growing steps until no intersection is left; past the last step, the region grows on at the safe shape.
 */
import { SelfIntersectionWalk } from '../mesh/checks.ts';
import { weldMap } from '../mesh/weld.ts';
import { hypot3 } from '../mesh/vec.ts';
import { neighbourLists, type NeighbourLists } from '../mesh/adjacency.ts';

/**
 * How far towards the safe shape each step blends: small steps first, since most folds open within a tenth of
 * the way (closed lips whose seal folded at one spot reopened 0.5-0.9 mm over a fifth of the mouth at steps of a quarter).
 */
const BLEND_STEPS = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1];
/** Rings of neighbours blended with the vertices of intersecting triangles. */
const RINGS = 2;
/** Folds are checked again after each step over the same triangles: pairs that did not move keep their answer. */
const walk = new SelfIntersectionWalk();

/** Vertices of triangles (among `triangles`, ids into `indices`) that cut through another one of them. */
export function intersectingVertices(positions: Float32Array, indices: Uint32Array, triangles: Uint32Array): Set<number> {
  const sub = new Uint32Array(triangles.length * 3);
  for (let i = 0; i < triangles.length; i++) for (let k = 0; k < 3; k++) sub[i * 3 + k] = indices[triangles[i] * 3 + k];
  let edge = 0;
  for (let t = 0; t < sub.length; t += 3) edge += hypot3(positions[sub[t] * 3] - positions[sub[t + 1] * 3], positions[sub[t] * 3 + 1] - positions[sub[t + 1] * 3 + 1], positions[sub[t] * 3 + 2] - positions[sub[t + 1] * 3 + 2]);
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
  const welded = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) welded[i] = weld[indices[i]];
  const grower = new RingGrower(neighbourLists(weld.length, welded));
  const original = positions.slice();
  // Per welded vertex, 1 where it is blended.
  const region = new Uint8Array(weld.length);
  let size = grower.grow(bad, weld, region);
  for (const t of BLEND_STEPS) {
    for (let v = 0; v < weld.length; v++) {
      if (region[weld[v]]) for (let k = 0; k < 3; k++) positions[v * 3 + k] = original[v * 3 + k] * (1 - t) + safe[v * 3 + k] * t;
    }
    bad = intersectingVertices(positions, indices, triangles);
    if (bad.size === 0) return size;
    size += grower.grow(bad, weld, region);
  }
  // A fold wider than the steps grew over (a misread mouth closed on itself: p12-a's mirror image kept three crossing
  // pairs) is left at the safe shape, which has none, over a region grown on until no fold is left or it stops growing.
  for (let added = 1; added > 0; size += added) {
    for (let v = 0; v < weld.length; v++) {
      if (region[weld[v]]) for (let k = 0; k < 3; k++) positions[v * 3 + k] = safe[v * 3 + k];
    }
    bad = intersectingVertices(positions, indices, triangles);
    if (bad.size === 0) return size;
    added = grower.grow(bad, weld, region);
  }
  return size;
}

/** RINGS rings of neighbours around a set of (welded) vertices, marked in a region. */
class RingGrower {
  /** Per vertex, the last growth that reached it. */
  private readonly seen: Uint32Array;
  private epoch = 0;
  private front: number[] = [];
  private next: number[] = [];

  constructor(private readonly neighbours: NeighbourLists) {
    this.seen = new Uint32Array(neighbours.start.length - 1);
  }

  /** Marks the vertices `RINGS` rings around `seeds` (through `weld`) in `region`; returns how many were new there. */
  grow(seeds: Iterable<number>, weld: Uint32Array, region: Uint8Array): number {
    const { start, list } = this.neighbours;
    const seen = this.seen, stamp = ++this.epoch;
    let front = this.front, next = this.next, added = 0;
    next.length = 0;
    const reach = (v: number) => {
      if (seen[v] === stamp) return;
      seen[v] = stamp;
      next.push(v);
      if (!region[v]) (region[v] = 1), added++;
    };
    for (const v of seeds) reach(weld[v]);
    for (let r = 0; r < RINGS; r++) {
      [front, next] = [next, front];
      next.length = 0;
      for (const v of front) for (let e = start[v]; e < start[v + 1]; e++) reach(list[e]);
    }
    this.front = front;
    this.next = next;
    return added;
  }
}
