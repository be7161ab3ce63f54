/**
 * Registration of the template onto a scan: the template's face is aligned to the landmarks lifted onto
 * the scan (similarity), the scan is brought into the avatar's frame (the template's, at the scan's own
 * size), the template is fitted to the landmarks like a photo's, then pulled onto the scan's surface by a
 * smooth non-rigid closest-point fit (face, cranium, ears and neck), and folds near the openings untangled.
 */
import type { MeshData } from '../../model/avatar.ts';
import { fitHead, type FittedHead } from '../../geometry/fit/fit-head.ts';
import { applyMat3, fitSimilarity, transposeMat3, type Similarity } from '../../geometry/fit/similarity.ts';
import { intersectingVertices, trianglesTouching, untangle } from '../../geometry/fit/untangle.ts';
import { fitGraph, fitToSurface, type ClosestPointFitOptions, type FitGraph, type TargetSurface } from '../../geometry/register/closest-point-fit.ts';
import { relaxTangles } from '../../geometry/register/relax-tangles.ts';
import { grow, vertexNeighbours } from '../../geometry/mesh/adjacency.ts';
import { alignPart, type TargetMesh } from '../../geometry/register/align-part.ts';
import { applySimilarity } from '../../geometry/fit/fit-head.ts';
import { angleWeightedNormals } from '../../geometry/spatial/pseudonormals.ts';
import { emptyClosestPoint, TriangleBvh } from '../../geometry/spatial/triangle-bvh.ts';
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

/**
 * `openEyes` (hifimesh): the landmarks of a photo of the same face with the eyes open (any head frame); the
 * fitted lids then take the photo's eyelid contours instead of the scan's closed lids, and the eyeballs sit
 * behind the photo's irises.
 */
export function registerScan(tpl: TemplateView, scan: MeshData, lifted: Float32Array, openEyes?: Float32Array): Registration {
  const template = tpl.meshes[0].geometry;
  const found = trustedLandmarks(template.positions, lifted);
  // Inner lip landmarks, lifted by a ray that just misses the lip, land on the teeth: those vertices take closest points instead.
  const margins = new Set([...freeVertices(tpl, false), ...tpl.source.loops.lipsInner]);
  const anchored = found.filter((i) => !margins.has(i));
  const sim = fitSimilarity(template.positions, lifted, found);
  const toAvatar = rigidInverse(sim);
  const moved: MeshData = {
    positions: toAvatar(scan.positions, true),
    normals: toAvatar(scan.normals, false),
    uvs: scan.uvs,
    indices: scan.indices,
  };
  const landmarks = completeLandmarks(tpl, toAvatar(onlyFound(lifted, found), true), sim.scale);
  const lids = openEyes ? openLids(tpl, landmarks, found, openEyes) : undefined;
  const scanBvh = TriangleBvh.build(moved.positions, moved.indices);
  // From the template under the similarity (free of folds, unlike a warp extrapolated from the face's
  // landmarks to the neck), pulled onto the scan with the face's landmark vertices held to the landmarks.
  const start = scaled(template.positions, sim.scale);
  const head = start.slice();
  const surface: TargetMesh = { bvh: scanBvh, faceNormals: angleWeightedNormals(moved.positions, moved.indices).face, positions: moved.positions, indices: moved.indices };
  const { graph, neighbours } = templateGraph(tpl);
  const options = lids
    ? { graph, free: freeVertices(tpl, true), anchors: { vertices: [...anchored, ...lids.vertices], targets: Float32Array.from([...gather(landmarks, anchored), ...lids.targets]), weight: ANCHOR_WEIGHT } }
    : { graph, free: freeVertices(tpl, false), anchors: { vertices: anchored, targets: gather(landmarks, anchored), weight: ANCHOR_WEIGHT } };
  // The ears stay held where they were aligned through the detailed levels too: a pinna's front leans in to the
  // head, and its closest points there reach over onto the scan's skin (p12-a's avatar as a scan: 654 folding
  // vertices by its left ear at the first level, and the coarse fit kept).
  const withAligned = { ...options, anchors: withEars(tpl, head, surface, options.anchors) };
  fitToSurface(head, template.indices, surface, { ...withAligned, ...COARSE });
  const coarse = head.slice();
  const matched = fitDetail(head, coarse, start, template.indices, neighbours, surface, withAligned);
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

/** A lifted landmark farther than this (cm, template scale) from the template's point under the face's similarity is off the face. */
const MAX_LANDMARK_RESIDUAL = 1.5;

/**
 * The face landmarks that were lifted onto the face: a ray cast through parted lips lands deep in the mouth,
 * one at the face's silhouette on the ear or the neck, centimetres from the face (the template's face differs
 * from a person's by well under that). Judged against a similarity fitted without them.
 */
function trustedLandmarks(template: Float32Array, lifted: Float32Array): Uint32Array {
  const all = Uint32Array.from({ length: FACE_POINTS }, (_, i) => i).filter((i) => Number.isFinite(lifted[i * 3]));
  let found = all;
  for (let pass = 0; pass < 2; pass++) {
    const sim = fitSimilarity(template, lifted, found);
    found = all.filter((i) => {
      const p = applySimilarity(sim, template[i * 3], template[i * 3 + 1], template[i * 3 + 2]);
      return Math.hypot(p[0] - lifted[i * 3], p[1] - lifted[i * 3 + 1], p[2] - lifted[i * 3 + 2]) <= MAX_LANDMARK_RESIDUAL * sim.scale;
    });
  }
  return found;
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

/** Skin within this distance (cm, template) of an ear moves with it when the ear is aligned rigidly. */
const EAR_PATCH = 2;
const earPatches = new WeakMap<TemplateView, { ear: number[]; patch: number[] }[]>();
const graphs = new WeakMap<TemplateView, { graph: FitGraph; neighbours: number[][] }>();

/** The head's graph for the closest-point fit (seam copies welded) and its plain neighbours (for growing fold regions), once per template. */
function templateGraph(tpl: TemplateView): { graph: FitGraph; neighbours: number[][] } {
  let g = graphs.get(tpl);
  if (!g) {
    const { positions, indices } = tpl.meshes[0].geometry;
    g = { graph: fitGraph(positions, indices), neighbours: vertexNeighbours(positions.length / 3, indices) };
    graphs.set(tpl, g);
  }
  return g;
}

/**
 * The landmark anchors plus, for the coarse fit, each ear's vertices held where a rigid alignment of the
 * ear (with the skin around it) onto the scan puts them: the smooth fit alone cannot slide an ear that
 * starts more than about its own thickness from the scan's, and folds it into the skull (align-part.ts).
 */
function withEars(tpl: TemplateView, head: Float32Array, surface: TargetMesh, anchors: Anchors): Anchors {
  const vertices = [...Array.from(anchors.vertices)];
  const targets = [...anchors.targets];
  for (const { ear, patch } of earParts(tpl)) {
    const motion = alignPart(head, tpl.meshes[0].geometry.indices, patch, surface);
    for (const v of ear) {
      vertices.push(v);
      targets.push(...applySimilarity(motion, head[v * 3], head[v * 3 + 1], head[v * 3 + 2]));
    }
  }
  return { vertices, targets: Float32Array.from(targets), weight: anchors.weight };
}

function earParts(tpl: TemplateView): { ear: number[]; patch: number[] }[] {
  let parts = earPatches.get(tpl);
  if (parts) return parts;
  const p = tpl.meshes[0].geometry.positions;
  const { earLeft, earRight, skin } = tpl.source.regions;
  const near = (ear: number[]) => skin.filter((v) => ear.some((e) => Math.hypot(p[v * 3] - p[e * 3], p[v * 3 + 1] - p[e * 3 + 1], p[v * 3 + 2] - p[e * 3 + 2]) < EAR_PATCH));
  parts = [earLeft, earRight].map((ear) => ({ ear, patch: [...ear, ...near(ear)] }));
  earPatches.set(tpl, parts);
  return parts;
}

type Anchors = NonNullable<ClosestPointFitOptions['anchors']>;

/** The face landmarks not in `found` set to NaN (missing); the irises kept. */
function onlyFound(lifted: Float32Array, found: Uint32Array): Float32Array {
  const out = lifted.slice();
  out.fill(Number.NaN, 0, FACE_POINTS * 3);
  for (const i of found) out.set(lifted.subarray(i * 3, i * 3 + 3), i * 3);
  return out;
}

/** The closest-point fit's two stages: the head moves as a whole, then follows the surface in detail. */
const COARSE = { stiffness: [8, 4, 2], maxDistance: 5, finalDistance: 1.5 };
/** The detailed stage: one closest-point round per level, each with its stiffness and reach (cm). */
const DETAIL_LEVELS = [
  { stiffness: 2, reach: 1.5 },
  { stiffness: 0.8, reach: 0.8 },
  { stiffness: 0.4, reach: 0.6 },
];
/** A level's folds are repaired among the triangles this many rings of neighbours around them (the whole head is checked once at the end). */
const FOLD_RINGS = 8;
/**
 * The coarse fit's repair runs again, at most this many times in all, while folds are left anywhere: smoothing one
 * fold can push a vertex through a triangle outside those it checked (p12-a's avatar as a scan: an ear into the
 * skull, 35 vertices, after which no level could be kept). Two passes were enough there.
 */
const COARSE_REPAIRS = 3;

/**
 * The detailed fit from the coarse one (in `head`, modified in place). The coarse fit's folds (at the lids,
 * the lips) are smoothed out first, and those smoothing cannot undo are blended back towards `start` (the
 * template under the similarity, which has none). Each level then starts from the last fold-free result;
 * its folds (at creases: the lips, the mouth corners, where the ears meet the head) are blended back
 * towards that result and smoothed out. Blending towards the coarse fit in one step took whole regions
 * back to it: p12-a's lower lip (no landmarks there: rays through the parted lips) 4-5 mm off the scan.
 * A level that keeps folds ends the fit at the previous one, and so does one whose repair leaves the repaired
 * region farther from the scan than the previous level had it: smoothing a fold can drag the skin round it off the
 * surface (a subdivided avatar scan on 1.6: the face 0.29 mm from the scan before the last level's repair, 1.18 mm
 * and up to 16 mm after it). If the repairs made a fold outside the triangles they checked, the result is blended
 * back towards the coarse fit; last the coarse fit is kept.
 * Returns the vertices matched to the surface by the last level kept (0: the coarse fit is kept).
 */
function fitDetail(
  head: Float32Array,
  coarse: Float32Array,
  start: Float32Array,
  indices: Uint32Array,
  neighbours: number[][],
  surface: TargetSurface,
  options: ClosestPointFitOptions,
): number {
  const all = allTriangles(indices);
  const n = head.length / 3;
  /** The vertices around the folds of `positions` and the triangles touching them (none: no fold). */
  const aroundFolds = (positions: Float32Array) => {
    const folds = intersectingVertices(positions, indices, all);
    if (folds.size === 0) return undefined;
    const vertices = grow(folds, neighbours, FOLD_RINGS);
    return { vertices, triangles: trianglesTouching(indices, [...vertices], n) };
  };
  for (let pass = 0; pass < COARSE_REPAIRS; pass++) {
    const near = aroundFolds(coarse)?.triangles;
    if (!near) break;
    if (relaxTangles(coarse, indices, near) === 0) continue;
    untangle(coarse, start, indices, near);
    relaxTangles(coarse, indices, near);
  }
  head.set(coarse);
  const kept = coarse.slice();
  const distance = meanDistance(surface, options.free ?? [], n);
  let matched = 0;
  for (const { stiffness, reach } of DETAIL_LEVELS) {
    const m = fitToSurface(head, indices, surface, { ...options, stiffness: [stiffness], maxDistance: reach, finalDistance: reach });
    const near = aroundFolds(head);
    if (near) {
      // untangle reports 0 moved vertices when it found no fold: no second check needed then.
      if (untangle(head, kept, indices, near.triangles) > 0 && relaxTangles(head, indices, near.triangles) > 0) break;
      if (distance(head, near.vertices) > distance(kept, near.vertices)) break;
    }
    kept.set(head);
    matched = m;
  }
  head.set(kept);
  if (untangle(head, coarse, indices, all) === 0 || relaxTangles(head, indices, all) === 0) return matched;
  head.set(coarse);
  return 0;
}

/** The mean distance from the scan of some of a head's vertices, those `free` left out (they take no target of their own). */
function meanDistance(surface: TargetSurface, free: readonly number[], n: number): (positions: Float32Array, vertices: Iterable<number>) => number {
  const isFree = new Uint8Array(n);
  for (const v of free) isFree[v] = 1;
  const hit = emptyClosestPoint();
  return (positions, vertices) => {
    let sum = 0, count = 0;
    for (const v of vertices) {
      if (isFree[v] || !surface.bvh.closestPoint(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2], hit)) continue;
      sum += hit.distance;
      count++;
    }
    return count === 0 ? 0 : sum / count;
  };
}

/**
 * Vertices that take neither a landmark nor a closest point (they follow their neighbours): the mouth's
 * inside, the eye sockets, and the eyelid contours with the skin within this distance (cm) of them: their
 * landmarks (lifted by a ray that just misses the lid) and closest scan points are often on the eyeball.
 */
const NEAR_LIDS = 0.25;
/**
 * With open lids from a photo, the lid contours are held to the photo's and the skin this far (cm) around
 * them follows: the scan's closed lids lie where the open eye is, and skin pulled onto them would fold
 * against a lid opened a few millimetres above.
 */
const NEAR_OPEN_LIDS = 0.8;
const freeSets = new WeakMap<TemplateView, Map<boolean, number[]>>();

function freeVertices(tpl: TemplateView, openLids: boolean): number[] {
  const sets = freeSets.get(tpl) ?? new Map<boolean, number[]>();
  freeSets.set(tpl, sets);
  let free = sets.get(openLids);
  if (free) return free;
  const p = tpl.meshes[0].geometry.positions;
  const lids = [...tpl.source.loops.leftEye, ...tpl.source.loops.rightEye];
  const reach = openLids ? NEAR_OPEN_LIDS : NEAR_LIDS;
  const contour = new Set(lids);
  const nearLids = tpl.source.regions.face.filter(
    (v) => !contour.has(v) && lids.some((l) => Math.hypot(p[v * 3] - p[l * 3], p[v * 3 + 1] - p[l * 3 + 1], p[v * 3 + 2] - p[l * 3 + 2]) < reach),
  );
  free = [...tpl.mouthInside, ...tpl.eyeSockets, ...(openLids ? [] : lids), ...nearLids];
  sets.set(openLids, free);
  return free;
}

/** Landmarks around an eye (cm from its contour's centre, template) that place the photo's eye on the scan's. */
const EYE_SURROUNDINGS = 2.5;

/**
 * The photo's eyelid contours (and irises) in the avatar's frame: per eye, the photo's landmarks are moved by
 * the similarity that best lays the landmarks around that eye (eye corners, brow, cheek; not the lids,
 * which are closed on the scan) onto the scan's lifted (`found`) ones. The irises in `landmarks` are replaced by the photo's.
 */
function openLids(tpl: TemplateView, landmarks: Float32Array, found: Uint32Array, photo: Float32Array): { vertices: number[]; targets: number[] } {
  const p = tpl.meshes[0].geometry.positions;
  const vertices: number[] = [];
  const targets: number[] = [];
  const near = new Set(freeVertices(tpl, false));
  for (const loop of [tpl.source.loops.leftEye, tpl.source.loops.rightEye]) {
    const centre = [0, 1, 2].map((k) => loop.reduce((s, v) => s + p[v * 3 + k], 0) / loop.length);
    const byX = [...loop].sort((a, b) => p[a * 3] - p[b * 3]);
    const corners = [byX[0], byX[byX.length - 1]];
    const around = found.filter(
      (i) => !near.has(i) && Math.hypot(p[i * 3] - centre[0], p[i * 3 + 1] - centre[1], p[i * 3 + 2] - centre[2]) < EYE_SURROUNDINGS,
    );
    const sim = fitSimilarity(photo, landmarks, Uint32Array.from([...corners, ...around]));
    for (const v of loop) {
      vertices.push(v);
      targets.push(...applySimilarity(sim, photo[v * 3], photo[v * 3 + 1], photo[v * 3 + 2]));
    }
    const iris = centre[0] > 0 ? IRIS_PLUS_X : IRIS_MINUS_X;
    for (let i = iris; i < iris + 5; i++) landmarks.set(applySimilarity(sim, photo[i * 3], photo[i * 3 + 1], photo[i * 3 + 2]), i * 3);
  }
  return { vertices, targets };
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
