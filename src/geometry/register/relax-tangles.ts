/**
 * Removes small folds left after a fit: the vertices of intersecting triangles, with two rings of
 * neighbours, are moved towards the average of their neighbours (Laplacian smoothing) until the
 * triangles around them no longer intersect. Unlike blending towards another shape, the surface stays
 * where it was, only locally smoothed. Copies of a vertex on a UV seam move together.
 */
import { intersectingVertices } from '../fit/untangle.ts';
import { grow, vertexNeighbours } from '../mesh/adjacency.ts';
import { weldMap } from '../mesh/weld.ts';

const ATTEMPTS = 6;
/** Smoothing shrinks a surface: a region larger than this share of the mesh is not smoothed further. */
const MAX_REGION = 0.06;
const SWEEPS = 8;
const RINGS = 2;

/** Relaxes folds among `triangles` in place; returns how many intersecting vertices are left. */
export function relaxTangles(positions: Float32Array, indices: Uint32Array, triangles: Uint32Array): number {
  const n = positions.length / 3;
  let bad = intersectingVertices(positions, indices, triangles);
  if (bad.size === 0) return 0;
  const weld = weldMap(positions);
  const welded = Uint32Array.from(indices, (v) => weld[v]);
  const neighbours = vertexNeighbours(n, welded);
  let region = new Set<number>();
  for (let attempt = 0; attempt < ATTEMPTS && bad.size > 0; attempt++) {
    const grown = grow(new Set([...region, ...[...bad].map((v) => weld[v])]), neighbours, RINGS);
    if (grown.size > MAX_REGION * n) break;
    region = grown;
    for (let s = 0; s < SWEEPS; s++) {
      for (const v of region) {
        const nb = neighbours[v];
        let x = 0, y = 0, z = 0;
        for (const u of nb) {
          x += positions[u * 3];
          y += positions[u * 3 + 1];
          z += positions[u * 3 + 2];
        }
        positions[v * 3] = x / nb.length;
        positions[v * 3 + 1] = y / nb.length;
        positions[v * 3 + 2] = z / nb.length;
      }
    }
    // Seam copies take their welded vertex's place, and their triangles are checked with the region's.
    const moved: number[] = [];
    for (let v = 0; v < n; v++) {
      if (!region.has(weld[v])) continue;
      if (weld[v] !== v) positions.copyWithin(v * 3, weld[v] * 3, weld[v] * 3 + 3);
      moved.push(v);
    }
    bad = intersectingVertices(positions, indices, trianglesNear(positions, indices, moved, triangles));
  }
  return bad.size;
}

/**
 * Triangles (of `among`) that can cut the ones around `vertices`: those with a corner within the mesh's longest
 * edge of their bounding box (a triangle meeting that box has all its corners that close to it).
 */
function trianglesNear(positions: Float32Array, indices: Uint32Array, vertices: readonly number[], among: Uint32Array): Uint32Array {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[v * 3 + k]);
      hi[k] = Math.max(hi[k], positions[v * 3 + k]);
    }
  }
  let edge = 0;
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e] * 3, b = indices[t + ((e + 1) % 3)] * 3;
      edge = Math.max(edge, Math.hypot(positions[a] - positions[b], positions[a + 1] - positions[b + 1], positions[a + 2] - positions[b + 2]));
    }
  }
  const inside = (v: number) => [0, 1, 2].every((k) => positions[v * 3 + k] >= lo[k] - edge && positions[v * 3 + k] <= hi[k] + edge);
  return among.filter((t) => inside(indices[t * 3]) || inside(indices[t * 3 + 1]) || inside(indices[t * 3 + 2]));
}
