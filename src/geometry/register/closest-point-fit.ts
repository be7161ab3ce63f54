/**
 * Non-rigid closest-point fitting: moves a mesh's vertices onto a target surface while keeping it smooth.
 * Each round pairs every free vertex with its closest point on the target, drops pairs that are too far
 * or whose surfaces face different ways (the other side of an ear, a lip), then solves for the smoothest
 * displacement field that follows the kept pairs:
 *   minimise  sum_i w_i |x_i - d_i|^2 + stiffness * sum_edges |x_i - x_j|^2
 * (Gauss-Seidel sweeps on the mesh graph). The stiffness falls from round to round, so the mesh first
 * moves as a whole and ends close to the surface in detail.
 */
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';
import { vertexNormals } from '../mesh/normals.ts';
import { vertexNeighbours } from '../mesh/adjacency.ts';
import { weldMap } from '../mesh/weld.ts';

export interface TargetSurface {
  bvh: TriangleBvh;
  /** Unit face normals of the target's triangles (xyz per triangle, outward; angleWeightedNormals(...).face). */
  faceNormals: ArrayLike<number>;
}

export interface ClosestPointFitOptions {
  /** Vertices that never take a target of their own (they follow their neighbours), e.g. the inside of the mouth. */
  free?: readonly number[];
  /** Vertices held to given points instead of their closest surface point (landmarks), with their data weight. */
  anchors?: { vertices: ArrayLike<number>; targets: Float32Array; weight: number };
  /** Stiffness per round (relative to a vertex's data weight of 1); one round per entry. */
  stiffness?: readonly number[];
  /** Pairs farther apart than this (mesh units) are dropped; shrinks with the rounds to `finalDistance`. */
  maxDistance?: number;
  finalDistance?: number;
  /** Pairs whose normals meet at more than this angle's cosine below are dropped. */
  minNormalDot?: number;
  /** Gauss-Seidel sweeps per round. */
  sweeps?: number;
  /** The mesh's graph (fitGraph), when several fits share it. */
  graph?: FitGraph;
}

/** Which vertex each one moves with (copies of a vertex split along a UV seam move as one) and the welded vertices' neighbours. */
export interface FitGraph {
  weld: Uint32Array;
  neighbours: number[][];
}

export function fitGraph(positions: Float32Array, indices: Uint32Array): FitGraph {
  const weld = weldMap(positions);
  return { weld, neighbours: vertexNeighbours(positions.length / 3, Uint32Array.from(indices, (v) => weld[v])) };
}

const DEFAULTS = {
  stiffness: [8, 4, 2, 1, 1, 1],
  maxDistance: 5,
  finalDistance: 0.6,
  minNormalDot: 0.5,
  sweeps: 40,
};

/** Fits `positions` (modified in place) onto the target surface; returns how many vertices had a target in the last round. */
export function fitToSurface(positions: Float32Array, indices: Uint32Array, target: TargetSurface, options: ClosestPointFitOptions = {}): number {
  const o = { ...DEFAULTS, ...options };
  const n = positions.length / 3;
  // Copies of a vertex split along a UV seam move as one, or the seam would open.
  const { weld, neighbours } = o.graph ?? fitGraph(positions, indices);
  const free = new Uint8Array(n);
  for (const v of o.free ?? []) free[weld[v]] = 1;
  // Per welded vertex, 1 + the index of its anchor point (0: none).
  const anchorOf = new Int32Array(n);
  if (o.anchors) for (let k = 0; k < o.anchors.vertices.length; k++) anchorOf[weld[o.anchors.vertices[k]]] = k + 1;
  const wanted = new Float64Array(n * 3);
  const weight = new Float64Array(n);
  const x = new Float64Array(n * 3);
  const hit = emptyClosestPoint();
  const hints = new Int32Array(n).fill(-1);
  const rounds = o.stiffness.length;
  let matched = 0;
  for (let round = 0; round < rounds; round++) {
    const reach = o.maxDistance + ((o.finalDistance - o.maxDistance) * round) / Math.max(1, rounds - 1);
    const normals = vertexNormals(positions, indices);
    matched = 0;
    for (let v = 0; v < n; v++) {
      weight[v] = 0;
      x[v * 3] = x[v * 3 + 1] = x[v * 3 + 2] = 0;
      if (free[v] || weld[v] !== v) continue;
      const px = positions[v * 3], py = positions[v * 3 + 1], pz = positions[v * 3 + 2];
      if (anchorOf[v] > 0 && o.anchors) {
        const a = (anchorOf[v] - 1) * 3, t = o.anchors.targets;
        weight[v] = o.anchors.weight;
        wanted[v * 3] = x[v * 3] = t[a] - px;
        wanted[v * 3 + 1] = x[v * 3 + 1] = t[a + 1] - py;
        wanted[v * 3 + 2] = x[v * 3 + 2] = t[a + 2] - pz;
        continue;
      }
      if (!target.bvh.closestPoint(px, py, pz, hit, reach, hints[v])) continue;
      hints[v] = hit.triangle;
      const fn = target.faceNormals;
      const dot = fn[hit.triangle * 3] * normals[v * 3] + fn[hit.triangle * 3 + 1] * normals[v * 3 + 1] + fn[hit.triangle * 3 + 2] * normals[v * 3 + 2];
      if (dot < o.minNormalDot) continue;
      weight[v] = 1;
      matched++;
      wanted[v * 3] = x[v * 3] = hit.x - px;
      wanted[v * 3 + 1] = x[v * 3 + 1] = hit.y - py;
      wanted[v * 3 + 2] = x[v * 3 + 2] = hit.z - pz;
    }
    smoothDisplacements(x, wanted, weight, neighbours, o.stiffness[round], o.sweeps);
    for (let v = 0; v < n; v++) {
      const r = weld[v] * 3;
      positions[v * 3] += x[r];
      positions[v * 3 + 1] += x[r + 1];
      positions[v * 3 + 2] += x[r + 2];
    }
  }
  return matched;
}

/** Gauss-Seidel on (W + stiffness * L) x = W d, L the graph Laplacian of the mesh. */
function smoothDisplacements(x: Float64Array, wanted: Float64Array, weight: Float64Array, neighbours: number[][], stiffness: number, sweeps: number): void {
  const n = weight.length;
  for (let s = 0; s < sweeps; s++) {
    for (let v = 0; v < n; v++) {
      const nb = neighbours[v];
      let sx = 0, sy = 0, sz = 0;
      for (const u of nb) {
        sx += x[u * 3];
        sy += x[u * 3 + 1];
        sz += x[u * 3 + 2];
      }
      const w = weight[v];
      const denom = w + stiffness * nb.length;
      if (denom === 0) continue;
      x[v * 3] = (w * wanted[v * 3] + stiffness * sx) / denom;
      x[v * 3 + 1] = (w * wanted[v * 3 + 1] + stiffness * sy) / denom;
      x[v * 3 + 2] = (w * wanted[v * 3 + 2] + stiffness * sz) / denom;
    }
  }
}
