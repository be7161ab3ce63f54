/**
 * Fitting: deform the template so that its 468 face vertices land on the photo's landmarks (head frame, cm),
 * carry the deformation smoothly to everything else (cranium, ears, neck, mouth, teeth, tongue) with a global
 * similarity plus an RBF warp of the residual, and seat the eyeballs in the fitted sockets, behind the
 * detected irises as far as the sockets allow. The ears, far from every landmark, move as whole pieces with the
 * face's sides and width instead of the warp, at the height of the face between the brows and the nose's base.
 */
import { fitSimilarity, applyMat3, type Similarity } from './similarity.ts';
import { evaluatePairs, factorRbf, solveRbf, type RbfFactor, type RbfWarp } from './rbf.ts';
import { TRIANGLE_STRIDE, closestOnTriangle } from '../spatial/closest-on-triangle.ts';
import { hypot3 } from '../mesh/vec.ts';
import { untangle } from './untangle.ts';

export type Vec3 = [number, number, number];

export interface EyeRest {
  center: Vec3;
  radius: number;
}

export interface FitSource {
  /** Template neutral head positions; vertices 0..467 are the canonical face in landmark order. */
  head: Float32Array;
  /** The head's triangles: the eyeballs are fitted into the sockets and lids they form. */
  indices: Uint32Array;
  /** Positions of the other meshes by name (teeth, tongue, eyes...). */
  parts: Record<string, Float32Array>;
  /** Eyeball rest centres by mesh name (those meshes move rigidly with their eye). */
  eyes: Record<string, EyeRest>;
  /**
   * Facing vertex pairs across the mouth and eye openings, [upper, lower]: detected landmarks of pressed
   * lips or closed lids can cross, which would fold the mesh, so each pair is kept `MIN_GAP` apart.
   */
  openingPairs: [number, number][];
  /** The ears, if they should be placed and sized from the face beside them. */
  ears?: EarRest[];
}

/**
 * An ear. The photo has no landmarks on it, and the warp, fitted to the face, stretches or shears what
 * lies far behind the face's sides: an ear follows the face's rotation, the contour points in front of it
 * and the face's width (its size), as one piece, blending into the warp at its stem. Its height follows
 * the middle of the face (an ear spans about the brows to the nose's base), not the contour points, which
 * a rounder or longer jaw moves up or down.
 */
export interface EarRest {
  vertices: number[];
  /** Per vertex, how much it moves with the ear rather than with the warp (0 at the stem, 1 on the pinna). */
  weights: number[];
  /** Face landmarks on the contour in front of the ear. */
  anchors: number[];
  /** Two landmarks across the face whose distance sizes the ear. */
  width: [number, number];
  /** Landmarks at the brows and at the nose's base: their mean height places the ear's. */
  level: number[];
  /** The head triangles with a corner on the ear's stem (weight under 1) or two rings into the pinna: where the blend into the warp can fold. */
  stem: Uint32Array;
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
  const fit = solveFit(src, targets);
  return placeFit(src, fit, warpPoints(src.head.subarray(FACE_POINTS * 3), fit.global, fit.warp));
}

/**
 * Two fits of the template at once, to `targets` as fitHead's and to `posed` for the head alone (no parts, no
 * eyes), each as fitHead gives it: both warps are evaluated together over the head's vertices, which costs
 * little more than one (the pipeline fits the neutral face and the face as the photo shows it).
 */
export function fitHeadAndPosed(src: FitSource, targets: FitTargets, posed: FitTargets): [FittedHead, FittedHead] {
  const fit = solveFit(src, targets), posedFit = solveFit(src, posed);
  const points = src.head.subarray(FACE_POINTS * 3);
  const d = new Float64Array(points.length), posedD = new Float64Array(points.length);
  evaluatePairs(fit.warp, posedFit.warp, points, d, posedD);
  const out = new Float32Array(points.length), posedOut = new Float32Array(points.length);
  for (let i = 0; i < points.length; i += 3) {
    const x = points[i], y = points[i + 1], z = points[i + 2];
    similarityPlus(fit.global, x, y, z, d, i, out, i);
    similarityPlus(posedFit.global, x, y, z, posedD, i, posedOut, i);
  }
  return [placeFit(src, fit, out), placeFit({ ...src, parts: {}, eyes: {} }, posedFit, posedOut)];
}

interface SolvedFit {
  /** The landmarks with the openings kept apart. */
  lm: Float32Array;
  global: Similarity;
  warp: RbfWarp;
}

function solveFit(src: FitSource, targets: FitTargets): SolvedFit {
  const lm = separateOpenings(targets.landmarks, src.openingPairs);
  const global = fitSimilarity(src.head, lm, rangeIndices(FACE_POINTS));
  const residual = new Float64Array(FACE_POINTS * 3);
  for (let i = 0; i < FACE_POINTS; i++) {
    const g = applySimilarity(global, src.head[i * 3], src.head[i * 3 + 1], src.head[i * 3 + 2]);
    for (let d = 0; d < 3; d++) residual[i * 3 + d] = lm[i * 3 + d] - g[d];
  }
  // phi(r) = r commutes with similarities, so the warp can be solved and evaluated in template space,
  // where the system only depends on the template and is factorised once.
  return { lm, global, warp: solveRbf(templateFactor(src.head), residual) };
}

/** The fitted head from its warped vertices past the face's (`rest`), with the ears, eyes and parts placed. */
function placeFit(src: FitSource, { lm, global, warp }: SolvedFit, rest: Float32Array): FittedHead {
  // The landmarks themselves are the best estimate of the face surface; the warp moves the rest.
  const head = new Float32Array(src.head.length);
  head.set(lm.subarray(0, FACE_POINTS * 3));
  head.set(rest, FACE_POINTS * 3);
  for (const ear of src.ears ?? []) {
    const warped = head.slice();
    placeEar(head, src.head, lm, global, ear);
    // A stem sheared far from the warp can fold (p12-a's right ear on 1.6: one triangle through seven): it goes back
    // towards the warp's shape, which has no fold, as far as it takes.
    untangle(head, warped, src.indices, ear.stem);
  }

  const eyes: Record<string, EyeRest> = {};
  const parts: Record<string, Float32Array> = {};
  for (const [name, positions] of Object.entries(src.parts)) {
    const eye = src.eyes[name];
    if (!eye) {
      parts[name] = warpPoints(positions, global, warp);
      continue;
    }
    const { center, radius, front } = placeEye(eye, global, warp, lm, head, src.indices);
    eyes[name] = { center, radius };
    parts[name] = moveRigid(positions, eye, eyes[name], front);
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

/**
 * How far (cm) an ear may move up or down against the contour beside it: its stem, which blends into
 * the warp over about a centimetre, folds when sheared much further.
 */
const MAX_EAR_RISE = 0.5;

function placeEar(head: Float32Array, rest: Float32Array, lm: Float32Array, global: Similarity, ear: EarRest): void {
  const mean = (points: ArrayLike<number>, ids: number[]): Vec3 => [0, 1, 2].map((k) => ids.reduce((s, a) => s + points[3 * a + k], 0) / ids.length) as Vec3;
  const from = mean(rest, ear.anchors);
  const span = (points: ArrayLike<number>) => Math.hypot(...[0, 1, 2].map((k) => points[3 * ear.width[0] + k] - points[3 * ear.width[1] + k]));
  const size = span(lm) / span(rest);
  // The contour's centre, moved along the face's up to keep the template's height against the level.
  const up = applyMat3(global.rotation, 0, 1, 0);
  const contour = mean(lm, ear.anchors), level = mean(lm, ear.level);
  const wanted = [0, 1, 2].reduce((s, k) => s + (level[k] - contour[k]) * up[k], 0) - size * (mean(rest, ear.level)[1] - from[1]);
  const rise = Math.max(-MAX_EAR_RISE, Math.min(MAX_EAR_RISE, wanted));
  const to = contour.map((c, k) => c + rise * up[k]);
  // A plain loop: forEach's closure, made per call and inlined, took placeEar's optimized code with it every job.
  for (let i = 0; i < ear.vertices.length; i++) {
    const v = ear.vertices[i];
    const r = applyMat3(global.rotation, rest[3 * v] - from[0], rest[3 * v + 1] - from[1], rest[3 * v + 2] - from[2]);
    const w = ear.weights[i];
    for (let k = 0; k < 3; k++) head[3 * v + k] += (to[k] + size * r[k] - head[3 * v + k]) * w;
  }
}

function rangeIndices(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

export function applySimilarity(s: Similarity, x: number, y: number, z: number): Vec3 {
  const r = applyMat3(s.rotation, x, y, z);
  return [s.scale * r[0] + s.translation[0], s.scale * r[1] + s.translation[1], s.scale * r[2] + s.translation[2]];
}

/** applySimilarity to packed xyz points, in place, with no array per point (the same arithmetic). */
export function applySimilarityInPlace(s: Similarity, points: Float32Array): Float32Array {
  const m = s.rotation, k = s.scale, t = s.translation;
  for (let i = 0; i < points.length; i += 3) {
    const x = points[i], y = points[i + 1], z = points[i + 2];
    points[i] = k * (m[0] * x + m[1] * y + m[2] * z) + t[0];
    points[i + 1] = k * (m[3] * x + m[4] * y + m[5] * z) + t[1];
    points[i + 2] = k * (m[6] * x + m[7] * y + m[8] * z) + t[2];
  }
  return points;
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
    warp.evaluate(points[i], points[i + 1], points[i + 2], d);
    similarityPlus(global, points[i], points[i + 1], points[i + 2], d, 0, out, i);
  }
  return out;
}

/** The similarity's image of (x, y, z) plus the displacement d[at..at+2], into out[o..o+2] (applySimilarity's arithmetic, no array). */
function similarityPlus(s: Similarity, x: number, y: number, z: number, d: Float64Array, at: number, out: Float32Array, o: number): void {
  const m = s.rotation, k = s.scale, t = s.translation;
  out[o] = k * (m[0] * x + m[1] * y + m[2] * z) + t[0] + d[at];
  out[o + 1] = k * (m[3] * x + m[4] * y + m[5] * z) + t[1] + d[at + 1];
  out[o + 2] = k * (m[6] * x + m[7] * y + m[8] * z) + t[2] + d[at + 2];
}

/**
 * Clearance (cm) kept between an eyeball's sphere and the head's triangles around it: a little less than
 * the templates' own (0.16 to 0.28 mm, where the lid contour's chords pass closest), so that a fit which
 * leaves the socket as it is also leaves the eyeball as it is.
 */
const EYE_GAP = 0.015;
/** Bisection steps when moving an eyeball towards its iris (2^-16 of the way). */
const SEAT_STEPS = 16;
/** Largest turn of an eyeball towards its iris (radians): the eyeLook* shapes turn it 18 to 22 degrees more. */
const MAX_TURN = (30 * Math.PI) / 180;

/**
 * The eyeball's centre follows the warp, which carries the socket around it; its radius is the template's
 * at the fit's scale, or less where the warped socket or lids came closer than that (the warp is not a
 * similarity: a narrower or shallower eye squeezes the socket, whose rings sit only 0.8 to 2 mm outside
 * the template's eyeball). The centre then moves sideways/vertically towards the detected iris centre,
 * but only as far as the eyeball keeps `EYE_GAP` from every head triangle: on the test photos the
 * detected irises sit 1.5 to 6 mm outwards and up from the warped centre, and moving the whole eyeball
 * there pushed it through the socket and lids (100 to 460 crossing triangle pairs per eye). What is left
 * of the offset turns the eyeball instead, so that its front pole still sits behind the iris. (The iris
 * depth from the landmark model is too coarse to use.)
 */
function placeEye(
  eye: EyeRest,
  global: Similarity,
  warp: RbfWarp,
  lm: Float32Array,
  head: Float32Array,
  indices: Uint32Array,
): EyeRest & { front: Vec3 } {
  const g = applySimilarity(global, ...eye.center);
  const d = new Float64Array(3);
  warp.evaluate(...eye.center, d);
  const warped: Vec3 = [g[0] + d[0], g[1] + d[1], g[2] + d[2]];
  const wanted = eye.radius * global.scale;
  const socket = nearbyTriangles(head, indices, warped, 3 * wanted);
  const room = (c: Vec3) => Math.sqrt(closestDistance2(socket, c)) - EYE_GAP;
  const radius = Math.min(wanted, room(warped));
  const iris = IRIS_CENTRES.map((c) => lm.subarray(c * 3, c * 3 + 3)).find((p) => Math.sign(p[0]) === Math.sign(warped[0]));
  if (!iris) return { center: warped, radius, front: [0, 0, 1] };
  const toward = (t: number): Vec3 => [warped[0] + t * (iris[0] - warped[0]), warped[1] + t * (iris[1] - warped[1]), warped[2]];
  let reach = 1;
  if (room(toward(1)) < radius) {
    // room(toward(lo)) >= radius > room(toward(hi)) throughout.
    let lo = 0, hi = 1;
    for (let step = 0; step < SEAT_STEPS; step++) {
      const mid = (lo + hi) / 2;
      if (room(toward(mid)) >= radius) lo = mid;
      else hi = mid;
    }
    reach = lo;
  }
  const center = toward(reach);
  // The front pole at (iris x, iris y) on the sphere, turning at most MAX_TURN.
  const dx = iris[0] - center[0], dy = iris[1] - center[1];
  const side = Math.hypot(dx, dy), limit = radius * Math.sin(MAX_TURN);
  const f = side > limit ? limit / side : 1;
  const front: Vec3 = [(f * dx) / radius, (f * dy) / radius, 0];
  front[2] = Math.sqrt(1 - front[0] ** 2 - front[1] ** 2);
  return { center, radius, front };
}

/**
 * Triangles with a corner within `reach` of `centre`, packed for closestOnTriangle. Head triangles are a few
 * millimetres wide, so with a reach of several eyeball radii these hold every triangle the eyeball can touch.
 */
function nearbyTriangles(positions: Float32Array, indices: Uint32Array, centre: Vec3, reach: number): Float32Array {
  const near = (v: number) => hypot3(positions[3 * v] - centre[0], positions[3 * v + 1] - centre[1], positions[3 * v + 2] - centre[2]) <= reach;
  const picked: number[] = [];
  for (let t = 0; t < indices.length; t += 3) if (near(indices[t]) || near(indices[t + 1]) || near(indices[t + 2])) picked.push(t);
  const out = new Float32Array(TRIANGLE_STRIDE * picked.length);
  for (let i = 0; i < picked.length; i++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[picked[i] + k], o = TRIANGLE_STRIDE * i + 3 * k;
      out[o] = positions[v];
      out[o + 1] = positions[v + 1];
      out[o + 2] = positions[v + 2];
    }
  }
  return out;
}

/** Squared distance from p to the nearest of the packed triangles. */
function closestDistance2(triangles: Float32Array, p: Vec3): number {
  const scratch = new Float64Array(3);
  let best = Infinity;
  for (let o = 0; o < triangles.length; o += TRIANGLE_STRIDE) best = Math.min(best, closestOnTriangle(triangles, o, p[0], p[1], p[2], scratch));
  return best;
}

/**
 * Moves a part with its eyeball: scaled about the rest centre, turned so that the rest front (+Z, where the
 * template's eyeballs look) points along `front`, then placed at the new centre.
 */
function moveRigid(points: Float32Array, from: EyeRest, to: EyeRest, front: Vec3): Float32Array {
  const out = new Float32Array(points.length);
  const k = to.radius / from.radius;
  // Smallest rotation taking +Z to front (Rodrigues with axis +Z x front = (-fy, fx, 0)).
  const [fx, fy, fz] = front;
  const c = 1 / (1 + fz);
  const m = [1 - fx * fx * c, -fx * fy * c, fx, -fx * fy * c, 1 - fy * fy * c, fy, -fx, -fy, fz];
  for (let i = 0; i < points.length; i += 3) {
    const x = (points[i] - from.center[0]) * k, y = (points[i + 1] - from.center[1]) * k, z = (points[i + 2] - from.center[2]) * k;
    out[i] = to.center[0] + m[0] * x + m[1] * y + m[2] * z;
    out[i + 1] = to.center[1] + m[3] * x + m[4] * y + m[5] * z;
    out[i + 2] = to.center[2] + m[6] * x + m[7] * y + m[8] * z;
  }
  return out;
}
