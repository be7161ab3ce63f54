/**
 * Rigid alignment of one part of a mesh (an ear with the skin around it) to a target surface, by ICP with
 * correspondences both ways: each part vertex to its closest target point, and each target point near the
 * part to its closest point on the part, pairs whose normals disagree dropped and the farthest tenth trimmed.
 *
 * Why: an ear stands 1-1.6 cm out from the skull with a narrow gap behind it. When the template's ear sits
 * more than about that far from the scan's (where the ears are, relative to the face, varies from head to
 * head), its closest points land on the scalp or on the wrong side of the scan's ear and a smooth
 * closest-point fit folds it into the skull. Moved as one rigid piece, the ear keeps its shape while the
 * scan's ear, seen from the scan's side too, draws it into place.
 */
import { applyMat3, fitSimilarity, transposeMat3, type Similarity } from '../fit/similarity.ts';
import { applySimilarity } from '../fit/fit-head.ts';
import { emptyClosestPoint, TriangleBvh } from '../spatial/triangle-bvh.ts';
import { angleWeightedNormals } from '../spatial/pseudonormals.ts';
import type { TargetSurface } from './closest-point-fit.ts';

/** The target surface with its triangles, so that its points can be paired with the part too. */
export interface TargetMesh extends TargetSurface {
  positions: Float32Array;
  indices: Uint32Array;
}

export interface AlignPartOptions {
  iterations?: number;
  /** Pairs farther apart than this (mesh units) are not formed. */
  reach?: number;
  /** Target triangles within the part's bounding sphere grown by this much are paired with the part. */
  margin?: number;
  /** At most this many target points, and part vertices, are paired per iteration (a fine mesh is thinned). */
  maxTargetPoints?: number;
  /** Iterations stop once a step moves no paired part point farther than this (mesh units). */
  minStep?: number;
  /** Pairs whose normals meet at more than this angle's cosine below are dropped. */
  minNormalDot?: number;
  /** The share of pairs kept, nearest first. */
  keep?: number;
}

const DEFAULTS: Required<AlignPartOptions> = { iterations: 20, reach: 3, margin: 1, maxTargetPoints: 800, minStep: 0.005, minNormalDot: 0.5, keep: 0.9 };

/**
 * The rigid motion (a similarity of scale 1) that best moves the part (`vertices` of the mesh, with the
 * triangles among them) onto the target. The mesh itself is not changed.
 */
export function alignPart(positions: Float32Array, indices: Uint32Array, vertices: readonly number[], target: TargetMesh, options: AlignPartOptions = {}): Similarity {
  const o = { ...DEFAULTS, ...options };
  const inPart = new Uint8Array(positions.length / 3);
  for (const v of vertices) inPart[v] = 1;
  const partIndices = Uint32Array.from(triangleCorners(indices, inPart));
  const points = targetPointsNear(positions, vertices, target, o);
  const sampled = thin(vertices, o.maxTargetPoints);
  // The part only moves rigidly: its index and normals are built once, in its own frame, and target points
  // are taken there by the inverse motion.
  const part = angleWeightedNormals(positions, partIndices);
  const partBvh = TriangleBvh.build(positions, partIndices);
  let total: Similarity = { scale: 1, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };
  const hit = emptyClosestPoint();
  for (let it = 0; it < o.iterations; it++) {
    const from: number[] = [];
    const to: number[] = [];
    const r = total.rotation, rt = transposeMat3(r);
    for (const v of sampled) {
      const p = applySimilarity(total, positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]);
      if (!target.bvh.closestPoint(p[0], p[1], p[2], hit, o.reach)) continue;
      const n = applyMat3(r, part.vertex[v * 3], part.vertex[v * 3 + 1], part.vertex[v * 3 + 2]);
      if (dot(target.faceNormals, hit.triangle, n, 0) < o.minNormalDot * Math.hypot(n[0], n[1], n[2])) continue;
      from.push(p[0], p[1], p[2]);
      to.push(hit.x, hit.y, hit.z);
    }
    for (let k = 0; k < points.positions.length; k += 3) {
      const [x, y, z] = [0, 1, 2].map((d) => points.positions[k + d] - total.translation[d]);
      const q = applyMat3(rt, x, y, z);
      if (!partBvh.closestPoint(q[0], q[1], q[2], hit, o.reach)) continue;
      const n = applyMat3(rt, points.normals[k], points.normals[k + 1], points.normals[k + 2]);
      if (dot(part.face, hit.triangle, n, 0) < o.minNormalDot) continue;
      from.push(...applySimilarity(total, hit.x, hit.y, hit.z));
      to.push(points.positions[k], points.positions[k + 1], points.positions[k + 2]);
    }
    if (from.length < 9) break;
    const step = rigidFit(from, to, o.keep);
    total = compose(step, total);
    let largest = 0;
    for (let k = 0; k < from.length; k += 3) {
      const p = applySimilarity(step, from[k], from[k + 1], from[k + 2]);
      largest = Math.max(largest, Math.hypot(p[0] - from[k], p[1] - from[k + 1], p[2] - from[k + 2]));
    }
    if (largest < o.minStep) break;
  }
  return total;
}

function triangleCorners(indices: Uint32Array, inPart: Uint8Array): number[] {
  const out: number[] = [];
  for (let t = 0; t < indices.length; t += 3) if (inPart[indices[t]] && inPart[indices[t + 1]] && inPart[indices[t + 2]]) out.push(indices[t], indices[t + 1], indices[t + 2]);
  return out;
}

/** Centroids and normals of the target triangles near the part (every k-th, at most `maxTargetPoints`). */
function targetPointsNear(positions: Float32Array, vertices: readonly number[], target: TargetMesh, o: Required<AlignPartOptions>) {
  const c = [0, 1, 2].map((k) => vertices.reduce((s, v) => s + positions[v * 3 + k], 0) / vertices.length);
  const radius = vertices.reduce((r, v) => Math.max(r, Math.hypot(positions[v * 3] - c[0], positions[v * 3 + 1] - c[1], positions[v * 3 + 2] - c[2])), 0) + o.margin;
  const near: number[] = [];
  const p = target.positions, ix = target.indices;
  const centroid = (t: number, k: number) => (p[ix[t * 3] * 3 + k] + p[ix[t * 3 + 1] * 3 + k] + p[ix[t * 3 + 2] * 3 + k]) / 3;
  for (let t = 0; t < ix.length / 3; t++) {
    if (Math.hypot(centroid(t, 0) - c[0], centroid(t, 1) - c[1], centroid(t, 2) - c[2]) < radius) near.push(t);
  }
  const chosen = thin(near, o.maxTargetPoints);
  const out = { positions: new Float32Array(chosen.length * 3), normals: new Float32Array(chosen.length * 3) };
  chosen.forEach((t, i) => {
    for (let k = 0; k < 3; k++) {
      out.positions[i * 3 + k] = centroid(t, k);
      out.normals[i * 3 + k] = target.faceNormals[t * 3 + k];
    }
  });
  return out;
}

/** Every k-th item, at most `most` of them. */
function thin<T>(items: readonly T[], most: number): T[] {
  const stride = Math.max(1, Math.ceil(items.length / most));
  return items.filter((_, i) => i % stride === 0);
}

/** The rotation and translation moving `from` onto `to` (packed xyz pairs), over the nearest `keep` share of the pairs. */
function rigidFit(from: number[], to: number[], keep: number): Similarity {
  const n = from.length / 3;
  const gap = Array.from({ length: n }, (_, k) => Math.hypot(from[k * 3] - to[k * 3], from[k * 3 + 1] - to[k * 3 + 1], from[k * 3 + 2] - to[k * 3 + 2]));
  const limit = [...gap].sort((a, b) => a - b)[Math.min(n - 1, Math.floor(n * keep))];
  const kept = Uint32Array.from({ length: n }, (_, k) => k).filter((k) => gap[k] <= limit);
  const { rotation } = fitSimilarity(from, to, kept);
  const ca = [0, 1, 2].map((d) => kept.reduce((s, k) => s + from[k * 3 + d], 0) / kept.length);
  const cb = [0, 1, 2].map((d) => kept.reduce((s, k) => s + to[k * 3 + d], 0) / kept.length);
  const rc = applyMat3(rotation, ca[0], ca[1], ca[2]);
  return { scale: 1, rotation, translation: [cb[0] - rc[0], cb[1] - rc[1], cb[2] - rc[2]] };
}

/** a after b. */
function compose(a: Similarity, b: Similarity): Similarity {
  const r = a.rotation, s = b.rotation;
  const rotation = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => r[i * 3] * s[j] + r[i * 3 + 1] * s[3 + j] + r[i * 3 + 2] * s[6 + j])) as Similarity['rotation'];
  const t = applySimilarity(a, b.translation[0], b.translation[1], b.translation[2]);
  return { scale: 1, rotation, translation: t };
}

const dot = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number) => a[i * 3] * b[j * 3] + a[i * 3 + 1] * b[j * 3 + 1] + a[i * 3 + 2] * b[j * 3 + 2];
