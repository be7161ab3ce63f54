/**
 * Separates the photo's expression from the face's identity: the template's own ARKit shapes, computed on
 * the template at rest, are the expression parameters of the landmark fit. Weights (0..1) and the head's
 * pose are fitted together; the landmarks with the fitted expression taken out are the neutral face the
 * identity fit then follows, its lips brought together.
 */
import { arkitShape, motions, type ArkitName } from '../expressions/arkit.ts';
import { expressionFrame, templateFrame, zeroDeltas, type FittedGeometry } from '../expressions/frame.ts';
import type { HeadTemplate } from '../template/types.ts';
import { applyMat3, fitSimilarity, type Similarity } from './similarity.ts';

const FACE_POINTS = 468;

/** Shapes of expression the face landmarks show: fitted, then taken out of the neutral face. */
export const EXPRESSION_SHAPES: readonly ArkitName[] = [
  'jawOpen', 'mouthSmileLeft', 'mouthSmileRight', 'mouthFrownLeft', 'mouthFrownRight', 'mouthLowerDownLeft', 'mouthLowerDownRight',
  'mouthUpperUpLeft', 'mouthUpperUpRight', 'mouthPucker', 'mouthFunnel', 'eyeBlinkLeft', 'eyeBlinkRight', 'eyeSquintLeft', 'eyeSquintRight',
  'cheekSquintLeft', 'cheekSquintRight', 'browDownLeft', 'browDownRight', 'browInnerUp', 'browOuterUpLeft', 'browOuterUpRight',
];
/**
 * Shapes that also match a face's own make: a wider mouth (stretch, dimple), fuller or thinner lips
 * (press, roll, shrug), an asymmetric mouth or jaw, eyes more open than the template's (eyeWide). They are
 * fitted alongside, so that the expression does not take them up (without them a wide mouth read as
 * smile plus frown on every face), and left in the neutral face as identity.
 * Not fitted: the eyeLook* shapes (they turn the eyeballs, which carry no face landmark), tongueOut and
 * cheekPuff (no landmark sees them), and mouthClose (only meaningful on top of jawOpen, whose lower lip
 * it holds back: the two together are ambiguous).
 */
export const MAKE_SHAPES: readonly ArkitName[] = [
  'mouthStretchLeft', 'mouthStretchRight', 'mouthDimpleLeft', 'mouthDimpleRight', 'mouthPressLeft', 'mouthPressRight',
  'mouthRollLower', 'mouthRollUpper', 'mouthShrugLower', 'mouthShrugUpper', 'mouthLeft', 'mouthRight', 'jawLeft', 'jawRight',
  'jawForward', 'eyeWideLeft', 'eyeWideRight', 'noseSneerLeft', 'noseSneerRight',
];

/**
 * Weight of the landmarks' depth against their image-plane coordinates: the detector's depth is a guess
 * from the face's appearance, several times noisier than x and y.
 */
const DEPTH_WEIGHT = 0.25;
/**
 * Ridge penalties (cm² per unit weight²): an expression shape must explain at least this much squared
 * landmark motion before it is used, so that a face's own make is not read as an expression; the make
 * shapes take what they explain more freely.
 */
export const RIDGE = { expression: 3, make: 0.3 };
/** Alternations between the pose and the weights; the weights settle in three or four. */
const ROUNDS = 5;
/** Coordinate-descent sweeps over the weights per round. */
const SWEEPS = 100;

export interface ExpressionBasis {
  /** The expression shapes, then the make shapes. */
  names: readonly ArkitName[];
  /** How many of `names` (the first) are expression shapes. */
  expressions: number;
  /** Per shape, the face points' deltas (468 xyz) on the template at rest. */
  deltas: Float32Array[];
  /** Weighted Gram matrix of the deltas (names.length²), row-major. */
  gram: Float64Array;
}

const bases = new WeakMap<HeadTemplate, ExpressionBasis>();

/** The fitted shapes on the template itself; computed once per template. */
export function expressionBasis(template: HeadTemplate): ExpressionBasis {
  let basis = bases.get(template);
  if (basis) return basis;
  const frame = templateFrame(template);
  const names = [...EXPRESSION_SHAPES, ...MAKE_SHAPES];
  const deltas = names.map((name) => arkitShape(frame, name, { jawLips: false }).head.slice(0, FACE_POINTS * 3));
  const k = deltas.length;
  const gram = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = a; b < k; b++) gram[a * k + b] = gram[b * k + a] = weightedDot(deltas[a], deltas[b]);
  basis = { names, expressions: EXPRESSION_SHAPES.length, deltas, gram };
  bases.set(template, basis);
  return basis;
}

function weightedDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < FACE_POINTS * 3; i += 3) s += a[i] * b[i] + a[i + 1] * b[i + 1] + DEPTH_WEIGHT * a[i + 2] * b[i + 2];
  return s;
}

export interface ExpressionFit {
  /** Weight of every fitted shape, in the basis' order (expressions first). */
  weights: Float64Array;
  /** The expression shapes' weights by name. */
  expression: Record<string, number>;
  /** The pose of the posed template on the landmarks: template -> head frame. */
  pose: Similarity;
  /** The landmarks (478, head frame) with the fitted expression taken out (see closeMouth for the lips). */
  neutral: Float32Array;
}

/** Fits shape weights and pose to 478 head-frame landmarks; pure. */
export function fitExpression(basis: ExpressionBasis, template: Float32Array, landmarks: Float32Array, ridge = RIDGE): ExpressionFit {
  const k = basis.names.length;
  const weights = new Float64Array(k);
  const posed = template.slice(0, FACE_POINTS * 3);
  const face = Uint32Array.from({ length: FACE_POINTS }, (_, i) => i);
  const residual = new Float64Array(FACE_POINTS * 3);
  const rhs = new Float64Array(k);
  let pose = fitSimilarity(posed, landmarks, face);
  for (let round = 0; round < ROUNDS; round++) {
    toTemplate(pose, landmarks, template, residual);
    for (let a = 0; a < k; a++) rhs[a] = weightedDot(basis.deltas[a], residual);
    solveBoxRidge(basis, ridge, rhs, weights);
    posed.set(template.subarray(0, FACE_POINTS * 3));
    addWeighted(posed, basis.deltas, weights);
    pose = fitSimilarity(posed, landmarks, face);
  }
  toTemplate(pose, landmarks, template, residual);
  liftCorners(basis, template, residual, weights);
  // The expression's motion, carried into the head frame by the pose, taken off the landmarks.
  const expressionWeights = weights.map((w, s) => (s < basis.expressions ? w : 0));
  const motion = new Float32Array(FACE_POINTS * 3);
  addWeighted(motion, basis.deltas, expressionWeights);
  const neutral = landmarks.slice();
  for (let i = 0; i < FACE_POINTS; i++) {
    const m = applyMat3(pose.rotation, motion[i * 3], motion[i * 3 + 1], motion[i * 3 + 2]);
    for (let d = 0; d < 3; d++) neutral[i * 3 + d] -= pose.scale * m[d];
  }
  const expression = Object.fromEntries(basis.names.slice(0, basis.expressions).map((n, s) => [n, weights[s]]));
  return { weights, expression, pose, neutral };
}

/** Mouth corners (subject's left, right) and the inner lip centres (upper, lower): face point indices. */
const CORNERS = { mouthSmileLeft: 291, mouthSmileRight: 61 } as const;
const LIP_CENTRE = [13, 14];

/**
 * The smile the ridge left in the neutral face, taken out too: where a corner, with the fitted expression
 * taken off, still stands higher above the inner lips' centre than the template's at rest, its side's
 * mouthSmile grows (up to 1) until it does not. The ridge keeps small motions as the face's own make, and
 * a smile's corners are a small motion: the neutral meshes of smiling photos kept their corners 0.02 to
 * 0.034 mouth widths above the lips' centre, the template's sit 0.015 below it. A face whose corners sit at
 * or below the template's keeps them. `residual` is the landmarks less the template (template space, at
 * the fitted pose) and `weights` the fitted weights, grown in place.
 */
function liftCorners(basis: ExpressionBasis, template: Float32Array, residual: Float64Array, weights: Float64Array): void {
  // Loops and a module function: closures made per call, built into this function's code, died with the job and
  // took the code with them (compiled again every job).
  const shapes: number[] = [], corners: number[] = [];
  for (const [name, corner] of Object.entries(CORNERS)) {
    const shape = basis.names.indexOf(name as ArkitName);
    if (shape < 0 || shape >= basis.expressions) return;
    shapes.push(shape);
    corners.push(corner);
  }
  // The neutral in template space: the landmarks (the template plus the residual) less the expression's motion.
  const neutral = new Float64Array(FACE_POINTS * 3);
  for (let i = 0; i < neutral.length; i++) neutral[i] = template[i] + residual[i];
  for (let s = 0; s < basis.deltas.length && s < basis.expressions; s++) {
    const d = basis.deltas[s];
    for (let i = 0; i < neutral.length; i++) neutral[i] -= weights[s] * d[i];
  }
  // The smiles' effect on each corner's height (rows: corners; columns: shapes), a 2 x 2 system solved by
  // alternating, each side's weight kept within [its fitted weight, 1].
  const rate: number[][] = [], excess: number[] = [];
  for (const c of corners) {
    rate.push([cornerHeight(basis.deltas[shapes[0]], c), cornerHeight(basis.deltas[shapes[1]], c)]);
    excess.push(cornerHeight(neutral, c) - cornerHeight(template, c));
  }
  if (rate[0][0] <= 0 || rate[1][1] <= 0) return;
  const extra = [0, 0];
  for (let sweep = 0; sweep < 10; sweep++) {
    for (let k = 0; k < 2; k++) {
      const other = 1 - k;
      const want = (excess[k] - rate[k][other] * extra[other]) / rate[k][k];
      extra[k] = Math.min(1 - weights[shapes[k]], Math.max(0, want));
    }
  }
  for (let k = 0; k < 2; k++) weights[shapes[k]] += extra[k];
}

/** A corner's height above the inner lips' centre (template space, cm), on points or on a shape's deltas. */
function cornerHeight(p: ArrayLike<number>, corner: number): number {
  return p[corner * 3 + 1] - (p[LIP_CENTRE[0] * 3 + 1] + p[LIP_CENTRE[1] * 3 + 1]) / 2;
}

/**
 * Mouth units at each corner over which the neutral's seal fades out. The visemes' 0.8 left 1.2 to 2.3 mm
 * open at the corners, where the preview showed the teeth and the dark mouth (p01-a read a gap of 0.055);
 * at 0.3 they close to 0.3 to 0.5 mm (p01-a 0.019) and untangling, which follows, keeps the skin unfolded.
 */
const SEAL_CORNERS = 0.3;

/**
 * The neutral head with its lips closed: its own resting gap closed on the fitted geometry (the lips kept
 * in front of the teeth; mouthClose closes jawOpen's gap instead), then sealed along the inner contour as the
 * bilabial visemes seal them (down to LIPS_PRESSED, nearly to the corners).
 * The template's lips part by 5 mm at rest, and a photo's parted lips (over the teeth of a smile) leave an
 * opening the expression does not explain. That closing reads the gap over the bulging lip surface,
 * which is narrower than at the contour: its lips stayed 0.9 to 2.8 mm apart along the contour on p07-a and
 * p08-a, and the preview showed the teeth between them (sealed: 0.1 to 0.2 mm).
 */
export function closeMouth(template: HeadTemplate, fitted: FittedGeometry): Float32Array {
  const frame = expressionFrame(template, fitted);
  const close = zeroDeltas(frame);
  motions.restingLipsTogether(frame, close);
  motions.sealLips(frame, close, SEAL_CORNERS, true);
  const closed = new Float32Array(fitted.head.length);
  for (let i = 0; i < closed.length; i++) closed[i] = fitted.head[i] + close.head[i];
  return closed;
}

/** min |Bw - r|² + sum ridge_s w_s² over 0 <= w <= 1, by coordinate descent from the given w (normal equations). */
function solveBoxRidge(basis: ExpressionBasis, ridges: typeof RIDGE, rhs: Float64Array, w: Float64Array): void {
  const { gram } = basis;
  const k = rhs.length;
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let a = 0; a < k; a++) {
      let g = rhs[a];
      for (let b = 0; b < k; b++) if (b !== a) g -= gram[a * k + b] * w[b];
      const ridge = a < basis.expressions ? ridges.expression : ridges.make;
      w[a] = Math.min(1, Math.max(0, g / (gram[a * k + a] + ridge)));
    }
  }
}

// Module functions and plain loops here, not closures made per call (toTemplate, forEach's): TurboFan inlined them
// by identity and the code died with them, compiled again every job.

/** Into `residual`: the landmarks in template space under the pose, less the template at rest. */
function toTemplate(pose: Similarity, landmarks: Float32Array, template: Float32Array, residual: Float64Array): void {
  const inv = transpose(pose.rotation);
  for (let i = 0; i < FACE_POINTS; i++) {
    const q = applyMat3(inv, landmarks[i * 3] - pose.translation[0], landmarks[i * 3 + 1] - pose.translation[1], landmarks[i * 3 + 2] - pose.translation[2]);
    for (let d = 0; d < 3; d++) residual[i * 3 + d] = q[d] / pose.scale - template[i * 3 + d];
  }
}

function addWeighted(out: Float32Array, deltas: Float32Array[], weights: Float64Array): void {
  for (let s = 0; s < deltas.length; s++) {
    const w = weights[s];
    const d = deltas[s];
    if (w !== 0) for (let i = 0; i < out.length; i++) out[i] += w * d[i];
  }
}

function transpose(m: Similarity['rotation']): Similarity['rotation'] {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}

/** Per face point, how far (cm) the fitted weights of the `shapes` named move it on the template at rest. */
export function expressionMotion(basis: ExpressionBasis, weights: Float64Array, shapes: ReadonlySet<ArkitName>): Float32Array {
  const sum = new Float64Array(FACE_POINTS * 3);
  for (let k = 0; k < basis.expressions; k++) {
    if (!weights[k] || !shapes.has(basis.names[k])) continue;
    for (let i = 0; i < sum.length; i++) sum[i] += weights[k] * basis.deltas[k][i];
  }
  const motion = new Float32Array(FACE_POINTS);
  for (let i = 0; i < FACE_POINTS; i++) motion[i] = Math.hypot(sum[i * 3], sum[i * 3 + 1], sum[i * 3 + 2]);
  return motion;
}

/** The strongest expression shapes, "name:weight" joined by commas, strongest first (weights at or above `min`). */
export function describeExpression(expression: Record<string, number>, count = 4, min = 0.05): string {
  return Object.entries(expression)
    .filter(([, w]) => w >= min)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([n, w]) => `${n}:${w.toFixed(2)}`)
    .join(',');
}
