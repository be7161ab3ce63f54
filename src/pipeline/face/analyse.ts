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
import { exposeImage, exposureGain, faceBrightEnd } from './exposure.ts';
import { boxAsUploaded, levelImage, levelledPoint, quarterTurnsUpright, turnImage, type PhotoOrientation } from './photo-orientation.ts';
import { faceSpot, type FaceSpot } from './subject-matte.ts';
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
/**
 * Roll (degrees) beyond which the photo is levelled and read again. The landmark model reads a tilted face less well:
 * p12-a, rolled 10 degrees, read askew (landmark error 0.122 on its render, 0.037 levelled), and test photos turned
 * 20-40 degrees lost likeness their levelled readings keep. Below it levelling changes little for its cost (a second
 * reading and the resampling).
 */
const LEVEL_FROM_DEG = 10;
/** The nose tip's landmark: where a face is, for finding it again in the levelled photo. */
const NOSE_TIP = 1;
/** Plausible range of the face's size relative to the canonical face (guards a misread iris). */
const FACE_SIZE_RATIO = [0.9, 1.12] as const;

export interface FaceAnalysis {
  /** The oriented, shrunk photo the landmarks refer to, turned and levelled to stand the face upright (`orientation`), and brightened (`exposure`). */
  image: RgbImage;
  /** How `image` was turned and levelled from the photo as uploaded: all read on it is the turned photo's (photo-orientation.ts). */
  orientation: PhotoOrientation;
  /** The gain (linear light) `image` was brightened by, the face being under-exposed; 1 for none (exposure.ts). */
  exposure: number;
  /** Factor from analysis-image pixels to original-photo pixels. */
  originalScale: number;
  faceCount: number;
  /** The other faces found in `image`, beside the one read (subject-matte.ts). */
  otherFaces: FaceSpot[];
  /** x, y, width, height around the face's landmarks, in pixels of the photo as uploaded at the analysis size (times `originalScale` for its own). */
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
  // A face read lying sideways: the photo turned upright by the nearest quarter turns is read again.
  let pose = estimatePose(landmarks, canonical);
  const more = quarterTurnsUpright(pose.roll);
  if (more !== 0) {
    const turned = turnImage(image, more);
    const again = await readAgain(turned, canonical, largest);
    if (again) {
      [image, turns] = [turned, (turns + more) % 4];
      ({ faces, landmarks, pose } = again);
    }
  }
  // A tilted head (or camera): the photo levelled by the face's roll and read again.
  const turnedSize: [number, number] = [image.width, image.height];
  let level = 0;
  if (Math.abs(pose.roll) > LEVEL_FROM_DEG) {
    const levelled = levelImage(image, pose.roll);
    // The same person: of several faces, the one where the levelling took the face read first.
    const [x, y] = levelledPoint(landmarks[NOSE_TIP * 3], landmarks[NOSE_TIP * 3 + 1], pose.roll, turnedSize, [levelled.width, levelled.height]);
    const again = await readAgain(levelled, canonical, (found) => nearest(found, x, y));
    if (again) {
      [image, level] = [levelled, pose.roll];
      ({ faces, landmarks, pose } = again);
    }
  }
  const detectionMs = performance.now() - t0;
  const orientation: PhotoOrientation = { turns, level, turnedSize };
  const faceBox = boxAsUploaded(orientation, landmarks, FACE_POINTS, [image.width, image.height]);

  const eyeDistance = Math.hypot(landmarks[468 * 3] - landmarks[473 * 3], landmarks[468 * 3 + 1] - landmarks[473 * 3 + 1]);
  if (eyeDistance * originalScale < PHOTO_LIMITS.minEyeDistancePx) {
    throw new PipelineError(
      PipelineCodes.faceTooSmall,
      `the face is too small: ${Math.round(eyeDistance * originalScale)} px between the pupils, at least ${PHOTO_LIMITS.minEyeDistancePx} needed`,
    );
  }
  // Inside the photo as uploaded: a levelled photo's corners only continue its border.
  const [x0, y0, w, h] = faceBox;
  if (x0 < 0 || y0 < 0 || x0 + w > decoded.image.width - 1 || y0 + h > decoded.image.height - 1) {
    throw new PipelineError(PipelineCodes.faceCut, 'the face is cut by the border of the photo');
  }
  refuseTurnedHead(pose);

  const [lo, hi] = FACE_SIZE_RATIO;
  const irisScale = irisDiameterPx(landmarks) / IRIS_DIAMETER_CM;
  const sizeRatio = Math.min(hi, Math.max(lo, pose.scale / irisScale));
  const cmPerPixel = sizeRatio / pose.scale;
  const headLandmarks = landmarksInHeadFrame(landmarks, pose, canonical, cmPerPixel);
  // Everything after is taken from the photo brightened where the face was under-exposed.
  const exposure = exposureGain(faceBrightEnd(image, landmarks));
  if (exposure > 1) image = exposeImage(image, exposure);
  const read = nearest(faces, landmarks[NOSE_TIP * 3], landmarks[NOSE_TIP * 3 + 1]);
  const otherFaces = faces.filter((f) => f !== read).map((f) => faceSpot(landmarksOf(f)));
  return { image, orientation, exposure, originalScale, faceCount: faces.length, otherFaces, faceBox, landmarks, pose, cmPerPixel, headLandmarks, detectionMs };
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

/** The photo read again as `image`: the faces found, the landmarks of the one `pick` takes (checked) and its pose; none where no face is found. */
async function readAgain(
  image: RgbImage,
  canonical: ArrayLike<number>,
  pick: (faces: DetectedFace[]) => DetectedFace,
): Promise<{ faces: DetectedFace[]; landmarks: Float32Array; pose: HeadPose } | undefined> {
  const faces = await detectFaces(image.data, image.width, image.height);
  if (faces.length === 0) return undefined;
  const landmarks = await checkedReading(image, landmarksOf(pick(faces)), canonical);
  return { faces, landmarks, pose: estimatePose(landmarks, canonical) };
}

function landmarksOf(face: DetectedFace): Float32Array {
  const landmarks = new Float32Array(face.mesh.length * 3);
  face.mesh.forEach((p, i) => landmarks.set(p, i * 3));
  return landmarks;
}

/** The face whose nose tip lies nearest (x, y). */
function nearest(faces: DetectedFace[], x: number, y: number): DetectedFace {
  const distance = (f: DetectedFace) => Math.hypot(f.mesh[NOSE_TIP][0] - x, f.mesh[NOSE_TIP][1] - y);
  return faces.reduce((a, b) => (distance(b) < distance(a) ? b : a));
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

export function refuseTurnedHead(pose: HeadPose): void {
  const over: string[] = [];
  if (Math.abs(pose.yaw) > PHOTO_LIMITS.maxYawDeg) over.push(`turned ${Math.round(pose.yaw)}° (limit ${PHOTO_LIMITS.maxYawDeg}°)`);
  if (Math.abs(pose.pitch) > PHOTO_LIMITS.maxPitchDeg) over.push(`tilted ${Math.round(pose.pitch)}° up/down (limit ${PHOTO_LIMITS.maxPitchDeg}°)`);
  if (over.length > 0) throw new PipelineError(PipelineCodes.headTurned, `the head is ${over.join(' and ')}; use a photo facing the camera`);
}
