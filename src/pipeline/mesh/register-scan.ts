/**
 * Registration of the template onto a scan: the template's face is aligned to the landmarks lifted onto
 * the scan (similarity), the scan is brought into the avatar's frame (the template's, at the scan's own
 * size), the template is fitted to the landmarks like a photo's, then pulled onto the scan's surface by a
 * smooth non-rigid closest-point fit (face, cranium, ears and neck), and folds near the openings untangled.
 */
import type { MeshData } from '../../model/avatar.ts';
import { fitHead, type FittedHead } from '../../geometry/fit/fit-head.ts';
import { applyMat3, fitSimilarity, transposeMat3, type Similarity } from '../../geometry/fit/similarity.ts';
import { untangle } from '../../geometry/fit/untangle.ts';
import { fitToSurface, type ClosestPointFitOptions, type TargetSurface } from '../../geometry/register/closest-point-fit.ts';
import { relaxTangles } from '../../geometry/register/relax-tangles.ts';
import { angleWeightedNormals } from '../../geometry/spatial/pseudonormals.ts';
import { TriangleBvh } from '../../geometry/spatial/triangle-bvh.ts';
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X } from '../face/pose.ts';
import type { TemplateView } from '../template-view.ts';

export interface Registration {
  /** The scan in the avatar's frame (same vertices, moved rigidly). */
  scan: MeshData;
  scanBvh: TriangleBvh;
  /** The 478 lifted landmarks in the avatar's frame (missing ones estimated from the template). */
  landmarks: Float32Array;
  fitted: FittedHead;
  /** The head fitted onto the scan's surface. */
  head: Float32Array;
  /** Head vertices that had a surface target in the last round of the closest-point fit. */
  matched: number;
}

export function registerScan(tpl: TemplateView, scan: MeshData, lifted: Float32Array): Registration {
  const template = tpl.meshes[0].geometry;
  const found = Uint32Array.from({ length: FACE_POINTS }, (_, i) => i).filter((i) => Number.isFinite(lifted[i * 3]));
  // Inner lip landmarks, lifted by a ray that just misses the lip, land on the teeth: those vertices take closest points instead.
  const margins = new Set([...freeVertices(tpl), ...tpl.source.loops.lipsInner]);
  const anchored = found.filter((i) => !margins.has(i));
  const sim = fitSimilarity(template.positions, lifted, found);
  const toAvatar = rigidInverse(sim);
  const moved: MeshData = {
    positions: toAvatar(scan.positions, true),
    normals: toAvatar(scan.normals, false),
    uvs: scan.uvs,
    indices: scan.indices,
  };
  const landmarks = completeLandmarks(tpl, toAvatar(lifted, true), sim.scale);
  const scanBvh = TriangleBvh.build(moved.positions, moved.indices);
  // From the template under the similarity (free of folds, unlike a warp extrapolated from the face's
  // landmarks to the neck), pulled onto the scan with the face's landmark vertices held to the landmarks.
  const head = scaled(template.positions, sim.scale);
  const surface = { bvh: scanBvh, faceNormals: angleWeightedNormals(moved.positions, moved.indices).face };
  const options = { free: freeVertices(tpl), anchors: { vertices: anchored, targets: gather(landmarks, anchored), weight: ANCHOR_WEIGHT } };
  fitToSurface(head, template.indices, surface, { ...options, ...COARSE });
  const coarse = head.slice();
  const matched = fitDetail(head, coarse, template.indices, surface, options);
  // Eyes, teeth, tongue and joints follow the fitted face the way the photo path moves them.
  const fitted = fitHead(
    {
      head: template.positions,
      indices: template.indices,
      parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions])),
      eyes: tpl.eyes,
      openingPairs: tpl.openingPairs,
    },
    { landmarks: withFace(landmarks, head) },
  );
  return { scan: moved, scanBvh, landmarks, fitted, head, matched };
}

/**
 * The rigid part of scan ~ s R template + t, inverted: points go to R^T (p - t), so the scan keeps its
 * size and lands where the template, scaled by s, sits. Directions (`translate` false) are only rotated.
 */
function rigidInverse(sim: Similarity): (xyz: Float32Array, translate: boolean) => Float32Array {
  const rt = transposeMat3(sim.rotation);
  const [tx, ty, tz] = sim.translation;
  return (xyz, translate) => {
    const out = new Float32Array(xyz.length);
    const k = translate ? 1 : 0;
    for (let i = 0; i < xyz.length; i += 3) out.set(applyMat3(rt, xyz[i] - k * tx, xyz[i + 1] - k * ty, xyz[i + 2] - k * tz), i);
    return out;
  };
}

/**
 * Landmarks that missed the scan (a hole) take the template's point at the fitted scale; a missing iris
 * takes the middle of its eyelid contour.
 */
function completeLandmarks(tpl: TemplateView, lm: Float32Array, scale: number): Float32Array {
  const head = tpl.meshes[0].geometry.positions;
  for (let i = 0; i < FACE_POINTS; i++) {
    if (Number.isFinite(lm[i * 3])) continue;
    for (let k = 0; k < 3; k++) lm[i * 3 + k] = scale * head[i * 3 + k];
  }
  const loops = [tpl.source.loops.leftEye, tpl.source.loops.rightEye];
  for (const iris of [IRIS_PLUS_X, IRIS_MINUS_X]) {
    const side = iris === IRIS_PLUS_X ? 1 : -1;
    const loop = loops.find((l) => Math.sign(head[l[0] * 3]) === side) ?? loops[0];
    const centre = [0, 1, 2].map((k) => loop.reduce((s, v) => s + lm[v * 3 + k], 0) / loop.length);
    for (let p = iris; p < iris + 5; p++) if (!Number.isFinite(lm[p * 3])) lm.set(centre, p * 3);
  }
  return lm;
}

/** The closest-point fit's two stages: the head moves as a whole, then follows the surface in detail. */
const COARSE = { stiffness: [8, 4, 2], maxDistance: 5, finalDistance: 1.5 };
const DETAILED = { maxDistance: 1.5, finalDistance: 0.6 };
/** Stiffness of the detailed fit, tried in turn until the result has no folds. */
const DETAIL_STIFFNESS = [[1, 0.6, 0.4], [1, 1, 1]];

/**
 * The detailed fit from the coarse one (in `head`, modified in place). The coarse fit's rare folds are
 * smoothed out first; folds the detailed fit makes blend back towards it, and those left are smoothed out.
 * If some are still left, a stiffer detailed fit is tried, and last the coarse fit itself is kept (less
 * close to the surface, but valid matters more). Returns the vertices matched to the surface.
 */
function fitDetail(head: Float32Array, coarse: Float32Array, indices: Uint32Array, surface: TargetSurface, options: ClosestPointFitOptions): number {
  const all = allTriangles(indices);
  relaxTangles(coarse, indices, all);
  for (const stiffness of DETAIL_STIFFNESS) {
    head.set(coarse);
    const matched = fitToSurface(head, indices, surface, { ...options, ...DETAILED, stiffness });
    // untangle reports 0 moved vertices when it found no fold: no second check needed then.
    if (untangle(head, coarse, indices, all) === 0 || relaxTangles(head, indices, all) === 0) return matched;
  }
  head.set(coarse);
  return 0;
}
/**
 * Vertices that take neither a landmark nor a closest point (they follow their neighbours): the mouth's
 * inside, the eye sockets, and the eyelid contours with the skin within this distance (cm) of them: their
 * landmarks (lifted by a ray that just misses the lid) and closest scan points are often on the eyeball.
 */
const NEAR_LIDS = 0.25;
const freeSets = new WeakMap<TemplateView, number[]>();

function freeVertices(tpl: TemplateView): number[] {
  let free = freeSets.get(tpl);
  if (free) return free;
  const p = tpl.meshes[0].geometry.positions;
  const lids = [...tpl.source.loops.leftEye, ...tpl.source.loops.rightEye];
  const nearLids = tpl.source.regions.face.filter(
    (v) => lids.some((l) => Math.hypot(p[v * 3] - p[l * 3], p[v * 3 + 1] - p[l * 3 + 1], p[v * 3 + 2] - p[l * 3 + 2]) < NEAR_LIDS),
  );
  free = [...tpl.mouthInside, ...tpl.eyeSockets, ...lids, ...nearLids];
  freeSets.set(tpl, free);
  return free;
}

/** Landmarks are pulled this many times harder than closest points. */
const ANCHOR_WEIGHT = 1;

const scaled = (positions: Float32Array, s: number) => positions.map((x) => x * s);

function gather(points: Float32Array, ids: Uint32Array): Float32Array {
  const out = new Float32Array(ids.length * 3);
  ids.forEach((v, k) => out.set(points.subarray(v * 3, v * 3 + 3), k * 3));
  return out;
}

/** The landmarks with the face points replaced by the fitted head's face vertices (the irises kept). */
function withFace(landmarks: Float32Array, head: Float32Array): Float32Array {
  const out = landmarks.slice();
  out.set(head.subarray(0, FACE_POINTS * 3));
  return out;
}

const allTriangles = (indices: Uint32Array) => Uint32Array.from({ length: indices.length / 3 }, (_, t) => t);
