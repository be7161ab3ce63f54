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
import { fitToSurface } from '../../geometry/register/closest-point-fit.ts';
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
  const margins = new Set(freeVertices(tpl));
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
  const start = scaled(template.positions, sim.scale);
  const head = start.slice();
  const surface = { bvh: scanBvh, faceNormals: angleWeightedNormals(moved.positions, moved.indices).face };
  const options = { free: freeVertices(tpl), anchors: { vertices: anchored, targets: gather(landmarks, anchored), weight: ANCHOR_WEIGHT } };
  fitToSurface(head, template.indices, surface, { ...options, ...COARSE });
  // The stiff fit is near the surface and rarely tangled: what the detailed fit tangles blends back towards it.
  const coarse = head.slice();
  const matched = fitToSurface(head, template.indices, surface, { ...options, ...DETAILED });
  untangle(head, coarse, template.indices, allTriangles(template.indices));
  // Folds the stiff fit had too are smoothed out where they are.
  relaxTangles(head, template.indices, allTriangles(template.indices));
  // Eyes, teeth, tongue and joints follow the fitted face the way the photo path moves them.
  const fitted = fitHead(
    {
      head: template.positions,
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
const DETAILED = { stiffness: [1, 0.4, 0.1], maxDistance: 1.5, finalDistance: 0.6 };
/**
 * Vertices that take neither a landmark nor a closest point (they follow their neighbours): the mouth's
 * inside, the eye sockets, the inner lip and eyelid contours (their landmarks, lifted by a ray that just
 * misses the lip or lid, land on the teeth or the eyeball) and the skin within this distance (cm) of the
 * eyelid contours, whose closest scan point is often on the eyeball.
 */
const NEAR_LIDS = 0.35;
const freeSets = new WeakMap<TemplateView, number[]>();

function freeVertices(tpl: TemplateView): number[] {
  let free = freeSets.get(tpl);
  if (free) return free;
  const p = tpl.meshes[0].geometry.positions;
  const lids = [...tpl.source.loops.leftEye, ...tpl.source.loops.rightEye];
  const nearLids = tpl.source.regions.face.filter(
    (v) => v >= FACE_POINTS && lids.some((l) => Math.hypot(p[v * 3] - p[l * 3], p[v * 3 + 1] - p[l * 3 + 1], p[v * 3 + 2] - p[l * 3 + 2]) < NEAR_LIDS),
  );
  free = [...tpl.mouthInside, ...tpl.eyeSockets, ...lids, ...tpl.source.loops.lipsInner, ...nearLids];
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
