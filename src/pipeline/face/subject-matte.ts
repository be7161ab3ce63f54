/**
 * The person matte holds everyone in the photo. The subject's part of it is what lies nearer their face than any other
 * face the detector found, each distance over that face's size: a multiplicatively weighted Voronoi partition, in
 * which a small face further back claims a disc round itself and two faces side by side split the space between them
 * in proportion to their sizes. Without it the hair's volume was fitted to the outline of the people beside the
 * subject (the couple's man stood for the woman's head and shoulders), the hair region could grow from the subject's
 * scalp into them, and their skin counted as the subject's at the face's border. A person whose face the detector
 * does not find keeps counting (the selfie's man behind the subject's shoulder, whose face is read as his hair).
 */
import type { PersonMatte } from './person-matte.ts';
import { FACE_POINTS } from './pose.ts';

/** A face in the photo: the middle of its landmarks' box and the box's larger side, in the analysed image's pixels. */
export interface FaceSpot {
  centre: [number, number];
  size: number;
}

/** The spot of a face's landmarks (x, y, z packed; the face mesh's points, not the irises). */
export function faceSpot(landmarks: ArrayLike<number>): FaceSpot {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < FACE_POINTS; i++) {
    const x = landmarks[i * 3], y = landmarks[i * 3 + 1];
    [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
  }
  return { centre: [(x0 + x1) / 2, (y0 + y1) / 2], size: Math.max(x1 - x0, y1 - y0, 1e-6) };
}

/**
 * Another face whose middle lies within this share of the subject's size from the subject's is the same face read
 * twice (two faces cannot overlap so), and claims nothing.
 */
const SAME_FACE = 0.5;

/** The matte with every pixel another face claims (see above) taken out; the same matte when there is no other face. */
export function subjectMatte(matte: PersonMatte, subject: FaceSpot, found: readonly FaceSpot[]): PersonMatte {
  const others = found.filter((f) => Math.hypot(f.centre[0] - subject.centre[0], f.centre[1] - subject.centre[1]) > SAME_FACE * subject.size);
  if (others.length === 0) return matte;
  const { width, height } = matte;
  const alpha = matte.alpha.slice();
  // Squared distances over squared sizes: the same order, without a square root per pixel and face.
  const spots = [subject, ...others];
  const cx = Float64Array.from(spots, (f) => f.centre[0]);
  const cy = Float64Array.from(spots, (f) => f.centre[1]);
  const w = Float64Array.from(spots, (f) => 1 / (f.size * f.size));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (alpha[i] === 0) continue;
      const own = ((x - cx[0]) ** 2 + (y - cy[0]) ** 2) * w[0];
      for (let k = 1; k < spots.length; k++) {
        if (((x - cx[k]) ** 2 + (y - cy[k]) ** 2) * w[k] < own) {
          alpha[i] = 0;
          break;
        }
      }
    }
  }
  return { width, height, alpha };
}
