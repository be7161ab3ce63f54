/**
 * Fitting: deform the template so that its 468 face vertices land on the photo's landmarks (head frame, cm),
 * carry the deformation smoothly to everything else (cranium, ears, neck, mouth, teeth, tongue) with a global
 * similarity plus an RBF warp of the residual, and place the eyeballs behind the detected irises.
 */
import { fitSimilarity, applyMat3, type Similarity } from './similarity.ts';
import { factorRbf, solveRbf, type RbfFactor, type RbfWarp } from './rbf.ts';

export type Vec3 = [number, number, number];

export interface EyeRest {
  center: Vec3;
  radius: number;
}

export interface FitSource {
  /** Template neutral head positions; vertices 0..467 are the canonical face in landmark order. */
  head: Float32Array;
  /** Positions of the other meshes by name (teeth, tongue, eyes...). */
  parts: Record<string, Float32Array>;
  /** Eyeball rest centres by mesh name (those meshes move rigidly with their eye). */
  eyes: Record<string, EyeRest>;
  /**
   * Facing vertex pairs across the mouth and eye openings, [upper, lower]: detected landmarks of pressed
   * lips or closed lids can cross, which would fold the mesh, so each pair is kept `MIN_GAP` apart.
   */
  openingPairs: [number, number][];
}

export interface FitTargets {
  /** 478 landmarks in the head frame (cm): 468 face points then two irises (centre + 4 rim points each). */
  landmarks: Float32Array;
}

export interface FittedHead {
  head: Float32Array;
  parts: Record<string, Float32Array>;
  eyes: Record<string, EyeRest>;
  /** The similarity part of the fit: template -> avatar. */
  global: Similarity;
  /** Moves any template-space points (packed xyz) the way the head was deformed (e.g. joints). */
  deform(points: Float32Array): Float32Array;
}

const FACE_POINTS = 468;
const IRIS_CENTRES = [468, 473];
/** How closely the RBF follows individual landmarks (cm of kernel regularisation). */
const RBF_SMOOTHING = 0.05;

/** Deforms the template to the targets; pure. */
export function fitHead(src: FitSource, targets: FitTargets): FittedHead {
  const lm = separateOpenings(targets.landmarks, src.openingPairs);
  const global = fitSimilarity(src.head, lm, rangeIndices(FACE_POINTS));
  const residual = new Float64Array(FACE_POINTS * 3);
  for (let i = 0; i < FACE_POINTS; i++) {
    const g = applySimilarity(global, src.head[i * 3], src.head[i * 3 + 1], src.head[i * 3 + 2]);
    for (let d = 0; d < 3; d++) residual[i * 3 + d] = lm[i * 3 + d] - g[d];
  }
  // phi(r) = r commutes with similarities, so the warp can be solved and evaluated in template space,
  // where the system only depends on the template and is factorised once.
  const warp = solveRbf(templateFactor(src.head), residual);
  // The landmarks themselves are the best estimate of the face surface; the warp moves the rest.
  const head = new Float32Array(src.head.length);
  head.set(lm.subarray(0, FACE_POINTS * 3));
  head.set(warpPoints(src.head.subarray(FACE_POINTS * 3), global, warp), FACE_POINTS * 3);

  const eyes: Record<string, EyeRest> = {};
  const parts: Record<string, Float32Array> = {};
  for (const [name, positions] of Object.entries(src.parts)) {
    const eye = src.eyes[name];
    if (!eye) {
      parts[name] = warpPoints(positions, global, warp);
      continue;
    }
    const placed = placeEye(eye, global, warp, lm);
    eyes[name] = placed;
    parts[name] = moveRigid(positions, eye, placed);
  }
  return { head, parts, eyes, global, deform: (points) => warpPoints(points, global, warp) };
}

/** Smallest vertical gap (cm) kept between the upper and lower side of an opening. */
const MIN_GAP = 0.06;

function separateOpenings(landmarks: Float32Array, pairs: [number, number][]): Float32Array {
  const lm = landmarks.slice();
  for (const [up, down] of pairs) {
    const gap = lm[up * 3 + 1] - lm[down * 3 + 1];
    if (gap >= MIN_GAP) continue;
    const mid = (lm[up * 3 + 1] + lm[down * 3 + 1]) / 2;
    lm[up * 3 + 1] = mid + MIN_GAP / 2;
    lm[down * 3 + 1] = mid - MIN_GAP / 2;
  }
  return lm;
}

function rangeIndices(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

export function applySimilarity(s: Similarity, x: number, y: number, z: number): Vec3 {
  const r = applyMat3(s.rotation, x, y, z);
  return [s.scale * r[0] + s.translation[0], s.scale * r[1] + s.translation[1], s.scale * r[2] + s.translation[2]];
}

const factors = new WeakMap<Float32Array, RbfFactor>();

function templateFactor(head: Float32Array): RbfFactor {
  let f = factors.get(head);
  if (!f) {
    f = factorRbf(head.subarray(0, FACE_POINTS * 3), RBF_SMOOTHING);
    factors.set(head, f);
  }
  return f;
}

/** Template-space points to the avatar: similarity plus the residual warp (evaluated at the template point). */
function warpPoints(points: Float32Array, global: Similarity, warp: RbfWarp): Float32Array {
  const out = new Float32Array(points.length);
  const d = new Float64Array(3);
  for (let i = 0; i < points.length; i += 3) {
    const g = applySimilarity(global, points[i], points[i + 1], points[i + 2]);
    warp.evaluate(points[i], points[i + 1], points[i + 2], d);
    out[i] = g[0] + d[0];
    out[i + 1] = g[1] + d[1];
    out[i + 2] = g[2] + d[2];
  }
  return out;
}

/**
 * The eyeball follows the warp, then shifts sideways/vertically so that its front pole sits behind the
 * detected iris centre (the iris depth from the landmark model is too coarse to use).
 */
function placeEye(eye: EyeRest, global: Similarity, warp: RbfWarp, lm: Float32Array): EyeRest {
  const g = applySimilarity(global, ...eye.center);
  const d = new Float64Array(3);
  warp.evaluate(...eye.center, d);
  const center: Vec3 = [g[0] + d[0], g[1] + d[1], g[2] + d[2]];
  const iris = IRIS_CENTRES.map((c) => lm.subarray(c * 3, c * 3 + 3)).find((p) => Math.sign(p[0]) === Math.sign(center[0]));
  if (iris) {
    center[0] = iris[0];
    center[1] = iris[1];
  }
  return { center, radius: eye.radius * global.scale };
}

function moveRigid(points: Float32Array, from: EyeRest, to: EyeRest): Float32Array {
  const out = new Float32Array(points.length);
  const k = to.radius / from.radius;
  for (let i = 0; i < points.length; i += 3) {
    for (let d = 0; d < 3; d++) out[i + d] = to.center[d] + (points[i + d] - from.center[d]) * k;
  }
  return out;
}
