/**
 * Face analysis: decode the photo, find the largest face and its 478 landmarks, estimate head pose and
 * scale, and refuse photos the pipeline cannot turn into a good avatar (PipelineError 100xx).
 */
import sharp from 'sharp';
import { PipelineCodes, PipelineError } from '../errors.ts';
import { PHOTO_LIMITS } from '../limits.ts';
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { detectFaces, type DetectedFace } from './landmark-model.ts';
import { eyesAlike } from './face-regions.ts';
import { mirrorImage, mirroredBack, mirrorPartners } from './mirror-reading.ts';
import { quarterTurnsUpright, rollBeforeTurns, turnImage } from './photo-orientation.ts';
import {
  estimatePose,
  irisDiameterPx,
  landmarksInHeadFrame,
  IRIS_DIAMETER_CM,
  FACE_POINTS,
  type HeadPose,
} from './pose.ts';

/** Longest side of the image given to the detector and used for texture sampling. */
export const ANALYSIS_MAX_SIDE = 1280;
/** The quarter turns (clockwise) a photo is read at where the detector finds no face as it stands: sideways first. */
const NO_FACE_TURNS = [1, 3, 2];
/** Plausible range of the face's size relative to the canonical face (guards a misread iris). */
const FACE_SIZE_RATIO = [0.9, 1.12] as const;

export interface FaceAnalysis {
  /** The oriented, shrunk photo the landmarks refer to, turned upright (`turns`). */
  image: RgbImage;
  /**
   * Quarter turns (clockwise, 0-3) the oriented photo was turned to stand its face upright before it was read: `image`
   * and all read on it are the turned photo's (photo-orientation.ts).
   */
  turns: number;
  /** Factor from analysis-image pixels to original-photo pixels. */
  originalScale: number;
  faceCount: number;
  /** x, y, width, height (analysis-image pixels) around the landmarks. */
  faceBox: [number, number, number, number];
  /** 478 landmarks: x, y in analysis-image pixels, z the model's relative depth. */
  landmarks: Float32Array;
  pose: HeadPose;
  /** Centimetres per analysis-image pixel at the face. */
  cmPerPixel: number;
  /** The 478 landmarks in the head frame (cm, Y up, face along +Z). */
  headLandmarks: Float32Array;
  detectionMs: number;
}

/** Decodes any image sharp reads, applying EXIF orientation and shrinking to the analysis size. */
export async function decodePhoto(file: Uint8Array): Promise<{ image: RgbImage; originalScale: number }> {
  try {
    const src = sharp(file, { failOn: 'error' });
    const meta = await src.metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    const { data, info } = await src
      .rotate()
      .resize(ANALYSIS_MAX_SIDE, ANALYSIS_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      image: { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) },
      originalScale: Math.max(meta.width, meta.height) / Math.max(info.width, info.height),
    };
  } catch (e) {
    throw new PipelineError(PipelineCodes.imageUnreadable, `the photo cannot be read as an image (${(e as Error).message})`);
  }
}

/**
 * Face analysis of one photo; `canonical` is the template's 468 face vertices (cm). `upsideDown` reads the photo turned
 * half round (the landmark model reads an upside-down face as upright: see personAboveFace).
 */
export async function analyseFace(file: Uint8Array, canonical: ArrayLike<number>, upsideDown = false): Promise<FaceAnalysis> {
  const decoded = await decodePhoto(file);
  const { originalScale } = decoded;
  const t0 = performance.now();
  let turns = upsideDown ? 2 : 0;
  let image = turnImage(decoded.image, turns);
  let faces = await detectFaces(image.data, image.width, image.height);
  // A photo taken sideways (a phone's orientation lost): the detector finds some such faces and reads their roll, others
  // only with the photo turned; the quarter turns are tried where it finds none as the photo stands.
  for (const more of NO_FACE_TURNS) {
    if (faces.length > 0) break;
    const turned = turnImage(image, more);
    faces = await detectFaces(turned.data, turned.width, turned.height);
    if (faces.length > 0) [image, turns] = [turned, (turns + more) % 4];
  }
  if (faces.length === 0) throw new PipelineError(PipelineCodes.noFace, 'no face was found in the photo');
  let landmarks = await checkedReading(image, landmarksOf(largest(faces)), canonical);
  // A face read lying sideways: the photo turned upright by the nearest quarter turns is read again, where that leaves
  // the face within the roll's limit (else it is refused at its own roll).
  let pose = estimatePose(landmarks, canonical);
  const more = quarterTurnsUpright(pose.roll);
  if (more !== 0 && Math.abs(rollBeforeTurns(pose.roll, -more)) <= PHOTO_LIMITS.maxRollDeg) {
    const turned = turnImage(image, more);
    const again = await detectFaces(turned.data, turned.width, turned.height);
    if (again.length > 0) {
      [image, turns, faces] = [turned, (turns + more) % 4, again];
      landmarks = await checkedReading(image, landmarksOf(largest(faces)), canonical);
      pose = estimatePose(landmarks, canonical);
    }
  }
  const detectionMs = performance.now() - t0;
  const faceBox = landmarkBox(landmarks);

  const eyeDistance = Math.hypot(landmarks[468 * 3] - landmarks[473 * 3], landmarks[468 * 3 + 1] - landmarks[473 * 3 + 1]);
  if (eyeDistance * originalScale < PHOTO_LIMITS.minEyeDistancePx) {
    throw new PipelineError(
      PipelineCodes.faceTooSmall,
      `the face is too small: ${Math.round(eyeDistance * originalScale)} px between the pupils, at least ${PHOTO_LIMITS.minEyeDistancePx} needed`,
    );
  }
  if (!faceInside(landmarks, image)) {
    throw new PipelineError(PipelineCodes.faceCut, 'the face is cut by the border of the photo');
  }
  refuseTurnedHead(pose);

  const [lo, hi] = FACE_SIZE_RATIO;
  const irisScale = irisDiameterPx(landmarks) / IRIS_DIAMETER_CM;
  const sizeRatio = Math.min(hi, Math.max(lo, pose.scale / irisScale));
  const cmPerPixel = sizeRatio / pose.scale;
  const headLandmarks = landmarksInHeadFrame(landmarks, pose, canonical, cmPerPixel);
  return { image, turns, originalScale, faceCount: faces.length, faceBox, landmarks, pose, cmPerPixel, headLandmarks, detectionMs };
}

/**
 * Eyes whose openings look less alike than this (`eyesAlike`: 0.68-1 on the test photos and their mirror images)
 * mean an eye's contour was put on the skin: the reading is taken again on the mirror image.
 */
const EYES_ALIKE = 0.5;

/**
 * The detector's reading, or where its eyes look unlike (one of them read on the skin) the reading of the photo's
 * mirror image mirrored back, if its eyes look more alike. The detector's own face score stays 1 on such a reading.
 */
async function checkedReading(image: RgbImage, landmarks: Float32Array, canonical: ArrayLike<number>): Promise<Float32Array> {
  const alike = eyesAlike(image, landmarks);
  if (alike >= EYES_ALIKE) return landmarks;
  const again = await detectFaces(mirrorImage(image).data, image.width, image.height);
  if (again.length === 0) return landmarks;
  const other = mirroredBack(landmarksOf(largest(again)), image.width, mirrorPartners(canonical));
  return eyesAlike(image, other) > alike ? other : landmarks;
}

function landmarksOf(face: DetectedFace): Float32Array {
  const landmarks = new Float32Array(face.mesh.length * 3);
  face.mesh.forEach((p, i) => landmarks.set(p, i * 3));
  return landmarks;
}

/** The face with the largest landmark extent (the detector's boxes are padded and less telling). */
function largest(faces: DetectedFace[]): DetectedFace {
  const area = (f: DetectedFace) => {
    const xs = f.mesh.slice(0, FACE_POINTS).map((p) => p[0]);
    const ys = f.mesh.slice(0, FACE_POINTS).map((p) => p[1]);
    return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
  };
  return faces.reduce((a, b) => (area(b) > area(a) ? b : a));
}

function landmarkBox(lm: Float32Array): [number, number, number, number] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < FACE_POINTS; i++) {
    x0 = Math.min(x0, lm[i * 3]);
    x1 = Math.max(x1, lm[i * 3]);
    y0 = Math.min(y0, lm[i * 3 + 1]);
    y1 = Math.max(y1, lm[i * 3 + 1]);
  }
  return [x0, y0, x1 - x0, y1 - y0];
}

/** The detector extrapolates landmarks beyond the border when a face is cut; any such point refuses the photo. */
function faceInside(lm: Float32Array, image: RgbImage): boolean {
  for (let i = 0; i < FACE_POINTS; i++) {
    const x = lm[i * 3];
    const y = lm[i * 3 + 1];
    if (x < 0 || y < 0 || x > image.width - 1 || y > image.height - 1) return false;
  }
  return true;
}

export function refuseTurnedHead(pose: HeadPose): void {
  const over: string[] = [];
  if (Math.abs(pose.yaw) > PHOTO_LIMITS.maxYawDeg) over.push(`turned ${Math.round(pose.yaw)}° (limit ${PHOTO_LIMITS.maxYawDeg}°)`);
  if (Math.abs(pose.pitch) > PHOTO_LIMITS.maxPitchDeg) over.push(`tilted ${Math.round(pose.pitch)}° up/down (limit ${PHOTO_LIMITS.maxPitchDeg}°)`);
  if (Math.abs(pose.roll) > PHOTO_LIMITS.maxRollDeg) over.push(`tilted ${Math.round(pose.roll)}° sideways (limit ${PHOTO_LIMITS.maxRollDeg}°)`);
  if (over.length > 0) throw new PipelineError(PipelineCodes.headTurned, `the head is ${over.join(' and ')}; use a photo facing the camera`);
}
