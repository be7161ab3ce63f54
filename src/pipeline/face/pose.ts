/**
 * Head pose and scale from 2D landmarks: a weak-perspective fit of the canonical face.
 * image_xy = scale * (R X)_xy + t, with X in centimetres in the head frame (Y up, face along +Z)
 * and image y flipped (pixels grow downwards). The landmark model's z is relative depth in an
 * unknown unit, so its scale is re-estimated against the canonical depth while the rotation is fitted.
 */
import { fitSimilarity, applyMat3, transposeMat3, type Mat3 } from '../../geometry/fit/similarity.ts';

/** Adult iris diameter (cm); fixes the image scale independently of the face's proportions. */
export const IRIS_DIAMETER_CM = 1.17;
export const FACE_POINTS = 468;
/** Iris centres as human orders them (measured): 468 is the eye on the head's +x side (the subject's left), 473 the -x side; each followed by 4 rim points. */
export const IRIS_PLUS_X = 468;
export const IRIS_MINUS_X = 473;

export interface HeadPose {
  /** Head frame to camera frame (camera: x right, y up, z towards the viewer). */
  rotation: Mat3;
  /** Pixels per centimetre at the head. */
  scale: number;
  /** Image position (pixels, y down) of the head-frame origin. */
  translation: [number, number];
  /** Degrees: yaw > 0 turns the face towards the image's right, pitch > 0 tilts it up, roll in the image plane. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Landmark depth units per image pixel, as estimated. */
  depthPerPixel: number;
}

/** Mean iris diameter in pixels, from the four rim points of each iris. */
export function irisDiameterPx(lm: ArrayLike<number>): number {
  const d = (a: number, b: number) => Math.hypot(lm[a * 3] - lm[b * 3], lm[a * 3 + 1] - lm[b * 3 + 1]);
  let sum = 0;
  for (const c of [IRIS_PLUS_X, IRIS_MINUS_X]) sum += d(c + 1, c + 3) + d(c + 2, c + 4);
  return sum / 4;
}

/**
 * Fits the canonical face (468 xyz, cm) to the detected landmarks (xyz per point: pixels, pixels, model depth).
 */
export function estimatePose(landmarks: ArrayLike<number>, canonical: ArrayLike<number>): HeadPose {
  const cam = new Float64Array(FACE_POINTS * 3);
  let depthPerPixel = 0.3;
  let fit = fitSimilarity(canonical, toCamera(landmarks, cam, depthPerPixel));
  for (let iter = 0; iter < 4; iter++) {
    depthPerPixel *= depthCorrection(canonical, landmarks, fit, depthPerPixel);
    fit = fitSimilarity(canonical, toCamera(landmarks, cam, depthPerPixel));
  }
  const r = fit.rotation;
  return {
    rotation: r,
    scale: fit.scale,
    translation: [fit.translation[0], -fit.translation[1]],
    yaw: (Math.atan2(r[2], r[8]) * 180) / Math.PI,
    pitch: (Math.asin(Math.max(-1, Math.min(1, -r[5]))) * 180) / Math.PI,
    roll: (Math.atan2(r[3], r[4]) * 180) / Math.PI,
    depthPerPixel,
  };
}

/** Landmarks in camera axes (y up, z towards the viewer), depth converted to pixels. */
function toCamera(lm: ArrayLike<number>, out: Float64Array, depthPerPixel: number): Float64Array {
  for (let i = 0; i < FACE_POINTS; i++) {
    out[i * 3] = lm[i * 3];
    out[i * 3 + 1] = -lm[i * 3 + 1];
    out[i * 3 + 2] = -lm[i * 3 + 2] / depthPerPixel;
  }
  return out;
}

/** Ratio by which the landmark depth spread exceeds the canonical one, measured along the camera axis. */
function depthCorrection(
  canonical: ArrayLike<number>,
  lm: ArrayLike<number>,
  fit: ReturnType<typeof fitSimilarity>,
  depthPerPixel: number,
): number {
  const r = fit.rotation;
  let cov = 0;
  let varc = 0;
  let mc = 0;
  let ml = 0;
  const zc = new Float64Array(FACE_POINTS);
  for (let i = 0; i < FACE_POINTS; i++) {
    zc[i] = fit.scale * applyMat3(r, canonical[i * 3], canonical[i * 3 + 1], canonical[i * 3 + 2])[2];
    mc += zc[i];
    ml += -lm[i * 3 + 2] / depthPerPixel;
  }
  mc /= FACE_POINTS;
  ml /= FACE_POINTS;
  for (let i = 0; i < FACE_POINTS; i++) {
    const a = zc[i] - mc;
    cov += a * (-lm[i * 3 + 2] / depthPerPixel - ml);
    varc += a * a;
  }
  return cov > 0 ? cov / varc : 1;
}

/**
 * The landmarks expressed in the head frame in centimetres: image x/y mapped back through the pose,
 * depth taken from the model (rescaled) blended with the canonical depth, because the model's depth is coarse.
 * `cmPerPixel` sets the size (from the iris); the canonical depth is scaled with the face.
 */
/**
 * Landmark i's depth from the model, in pixels towards the camera. A module function: a closure made per call died
 * with its code built into landmarksInHeadFrame's, which was compiled again every job.
 */
const modelDepth = (landmarks: ArrayLike<number>, i: number, depthPerPixel: number): number => -landmarks[i * 3 + 2] / depthPerPixel;

export function landmarksInHeadFrame(
  landmarks: ArrayLike<number>,
  pose: HeadPose,
  canonical: ArrayLike<number>,
  cmPerPixel: number,
  modelDepthWeight = 0.5,
): Float32Array {
  const n = landmarks.length / 3;
  const out = new Float32Array(n * 3);
  const rt = transposeMat3(pose.rotation);
  const zCanon = new Float64Array(FACE_POINTS);
  let offset = 0;
  for (let i = 0; i < FACE_POINTS; i++) {
    zCanon[i] = pose.scale * applyMat3(pose.rotation, canonical[i * 3], canonical[i * 3 + 1], canonical[i * 3 + 2])[2];
    offset += zCanon[i] - modelDepth(landmarks, i, pose.depthPerPixel);
  }
  offset /= FACE_POINTS;
  for (let i = 0; i < n; i++) {
    const x = landmarks[i * 3] - pose.translation[0];
    const y = -(landmarks[i * 3 + 1] - pose.translation[1]);
    const zm = modelDepth(landmarks, i, pose.depthPerPixel) + offset;
    const z = i < FACE_POINTS ? modelDepthWeight * zm + (1 - modelDepthWeight) * zCanon[i] : zm;
    const p = applyMat3(rt, x, y, z);
    out[i * 3] = p[0] * cmPerPixel;
    out[i * 3 + 1] = p[1] * cmPerPixel;
    out[i * 3 + 2] = p[2] * cmPerPixel;
  }
  return out;
}
