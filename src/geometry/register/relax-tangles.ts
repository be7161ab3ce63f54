/**
 * Removes small folds left after a fit: the vertices of intersecting triangles, with two rings of
 * neighbours, are moved towards the average of their neighbours (Laplacian smoothing) until the
 * triangles around them no longer intersect. Unlike blending towards another shape, the surface stays
 * where it was, only locally smoothed. Copies of a vertex on a UV seam move together.
 */
import { intersectingVertices, trianglesTouching } from '../fit/untangle.ts';
import { vertexNeighbours } from '../mesh/adjacency.ts';
import { weldMap } from '../mesh/checks.ts';

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
    for (let v = 0; v < n; v++) if (weld[v] !== v && region.has(weld[v])) positions.copyWithin(v * 3, weld[v] * 3, weld[v] * 3 + 3);
    bad = intersectingVertices(positions, indices, trianglesTouching(indices, [...region], n));
  }
  return bad.size;
}

function grow(seed: Set<number>, neighbours: number[][], rings: number): Set<number> {
  const out = new Set(seed);
  let front = [...seed];
  for (let r = 0; r < rings; r++) {
    const next: number[] = [];
    for (const v of front) for (const u of neighbours[v]) if (!out.has(u)) (out.add(u), next.push(u));
    front = next;
  }
  return out;
}
