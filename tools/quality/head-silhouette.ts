/**
 * The head-silhouette figure of issue 18: the IoU between the photo's person matte and the avatar's
 * alpha (drawn with the photo's camera: evaluate.ts says why), the render brought onto the photo by the
 * similarity that best maps its stable face landmarks (eye corners, nose) onto the photo's, counted inside
 * the head region above the chin.
 * Hair, or the lack of it, is what moves this figure: the face itself is aligned by construction.
 */
import { faceFrame, toFace } from '../../src/pipeline/hair/face-frame.ts';
import { projectPoints, type PhotoCamera } from '../../src/geometry/texture/photo-camera.ts';

/** Head vertices 0..467 are the face mesh in landmark order (template/types.ts). */
const FACE_POINTS = 468;

/**
 * The avatar's own landmarks in the image of `camera` (x y z per point, z 0, as the detector gives them): its
 * head's face vertices, which are the landmarks by construction. Found by the detector on a render instead, they
 * move with what the render shows (a neutral face with open eyes against a photo's squint, the texture): on
 * p12-a that alignment scaled the render by 0.92, and texture-only changes moved its figure by 0.035.
 */
export function avatarLandmarks(camera: PhotoCamera, headPositions: Float32Array): Float32Array {
  const xy = projectPoints(camera, headPositions.subarray(0, FACE_POINTS * 3));
  const out = new Float32Array(FACE_POINTS * 3);
  for (let i = 0; i < FACE_POINTS; i++) out.set([xy[i * 2], xy[i * 2 + 1], 0], i * 3);
  return out;
}

/** Landmarks that a smile, a frown or an open mouth do not move: the eyes' corners and the nose. */
export const STABLE_LANDMARKS = [33, 133, 362, 263, 168, 6, 197, 195, 4, 1];
/**
 * The head region: above the chin line and within this many face widths of the face's middle. A head
 * with its hair is at most about twice as wide as the face; farther out are other people and the shoulders.
 */
const HEAD_HALF_WIDTH = 1.0;

export interface Mask {
  width: number;
  height: number;
  /** One byte per pixel, row 0 at the top; 128 and above counts as inside. */
  alpha: Uint8Array;
}

/** x' = a x - b y + tx, y' = b x + a y + ty: scale, rotation and translation in the image plane. */
export interface Similarity2 {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** Least-squares similarity mapping the points `from` onto the points `to` (closed form, in complex numbers). */
export function fitSimilarity2(from: [number, number][], to: [number, number][]): Similarity2 {
  const n = from.length;
  let fx = 0, fy = 0, tx = 0, ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i][0] / n;
    fy += from[i][1] / n;
    tx += to[i][0] / n;
    ty += to[i][1] / n;
  }
  let dot = 0, cross = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    const [px, py] = [from[i][0] - fx, from[i][1] - fy];
    const [qx, qy] = [to[i][0] - tx, to[i][1] - ty];
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = dot / (norm || 1);
  const b = cross / (norm || 1);
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

export function invertSimilarity2(m: Similarity2): Similarity2 {
  const d = m.a * m.a + m.b * m.b || 1;
  const a = m.a / d;
  const b = -m.b / d;
  return { a, b, tx: -(a * m.tx - b * m.ty), ty: -(b * m.tx + a * m.ty) };
}

/** What each photo pixel is for the figure: outside the region, or in it and in neither, both, or one mask. */
export const SILHOUETTE_LABEL = { outside: 0, neither: 1, both: 2, photoOnly: 3, avatarOnly: 4 } as const;

/**
 * Per photo pixel, `photo` against `avatar` (the avatar mask mapped onto the photo by `avatarToPhoto`), where
 * `region` is true (SILHOUETTE_LABEL). Pixels of the avatar outside its image count as outside it.
 */
export function alignedLabels(photo: Mask, avatar: Mask, avatarToPhoto: Similarity2, region: (x: number, y: number) => boolean): Uint8Array {
  const back = invertSimilarity2(avatarToPhoto);
  const labels = new Uint8Array(photo.width * photo.height);
  for (let y = 0; y < photo.height; y++) {
    for (let x = 0; x < photo.width; x++) {
      if (!region(x, y)) continue;
      const inPhoto = photo.alpha[y * photo.width + x] >= 128;
      const ax = Math.round(back.a * x - back.b * y + back.tx);
      const ay = Math.round(back.b * x + back.a * y + back.ty);
      const inAvatar = ax >= 0 && ay >= 0 && ax < avatar.width && ay < avatar.height && avatar.alpha[ay * avatar.width + ax] >= 128;
      labels[y * photo.width + x] = inPhoto ? (inAvatar ? SILHOUETTE_LABEL.both : SILHOUETTE_LABEL.photoOnly) : inAvatar ? SILHOUETTE_LABEL.avatarOnly : SILHOUETTE_LABEL.neither;
    }
  }
  return labels;
}

/** IoU of the two masks over labelled pixels; NaN when both are empty. */
export function labelsIoU(labels: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (const l of labels) {
    if (l === SILHOUETTE_LABEL.both) both++;
    if (l >= SILHOUETTE_LABEL.both) either++;
  }
  return either ? both / either : NaN;
}

/** IoU of `photo` and `avatar` (mapped by `avatarToPhoto`) over the photo's pixels where `region` is true. */
export function alignedIoU(photo: Mask, avatar: Mask, avatarToPhoto: Similarity2, region: (x: number, y: number) => boolean): number {
  return labelsIoU(alignedLabels(photo, avatar, avatarToPhoto, region));
}

/**
 * The figure's pixels for one photo: its person matte and landmarks, and the preview's alpha and the
 * landmarks found on the preview (478 points, x y z each).
 */
export function headSilhouetteLabels(matte: Mask, photoLandmarks: ArrayLike<number>, preview: Mask, previewLandmarks: ArrayLike<number>): Uint8Array {
  const points = (lm: ArrayLike<number>) => STABLE_LANDMARKS.map((i) => [lm[i * 3], lm[i * 3 + 1]] as [number, number]);
  const frame = faceFrame(photoLandmarks);
  const region = (x: number, y: number) => {
    const [s, t] = toFace(frame, x, y);
    return t > 0 && Math.abs(s) < HEAD_HALF_WIDTH;
  };
  return alignedLabels(matte, preview, fitSimilarity2(points(previewLandmarks), points(photoLandmarks)), region);
}

/** The figure for one photo (arguments as headSilhouetteLabels). */
export function headSilhouetteIoU(matte: Mask, photoLandmarks: ArrayLike<number>, preview: Mask, previewLandmarks: ArrayLike<number>): number {
  return labelsIoU(headSilhouetteLabels(matte, photoLandmarks, preview, previewLandmarks));
}
