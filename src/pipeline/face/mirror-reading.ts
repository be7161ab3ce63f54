/**
 * The landmarks read on the photo's mirror image, mirrored back: a second reading of the same face. The detector does
 * not read a mirror image as the same photo mirrored, and where its first reading put an eye's contour on the skin,
 * the second has held on the test photos (p12-a: its mirror image's reading is a wreck, its own is not). The canonical
 * face is symmetric, so each landmark has a partner on the other side (the midline's are their own).
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X } from './pose.ts';

/** The landmarks: the face's 468, then each iris's centre and four points around it. */
const LANDMARKS = 478;
const IRIS_POINTS = 5;

const partners = new WeakMap<ArrayLike<number>, Int32Array>();

/** Per landmark, its mirror partner's index, from the canonical face (`canonical`: 468 points, x across the face). */
export function mirrorPartners(canonical: ArrayLike<number>): Int32Array {
  let out = partners.get(canonical);
  if (out) return out;
  out = new Int32Array(LANDMARKS);
  for (let i = 0; i < FACE_POINTS; i++) {
    let nearest = Infinity;
    for (let j = 0; j < FACE_POINTS; j++) {
      const d = (canonical[i * 3] + canonical[j * 3]) ** 2 + (canonical[i * 3 + 1] - canonical[j * 3 + 1]) ** 2 + (canonical[i * 3 + 2] - canonical[j * 3 + 2]) ** 2;
      if (d < nearest) {
        nearest = d;
        out[i] = j;
      }
    }
  }
  // Each iris's points go round it in the order that, mirrored, is the other iris's.
  for (let k = 0; k < IRIS_POINTS; k++) {
    out[IRIS_PLUS_X + k] = IRIS_MINUS_X + k;
    out[IRIS_MINUS_X + k] = IRIS_PLUS_X + k;
  }
  partners.set(canonical, out);
  return out;
}

/** The image mirrored left to right. */
export function mirrorImage(image: RgbImage): RgbImage {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width * 3;
    for (let x = 0; x < width; x++) {
      const from = row + x * 3, to = row + (width - 1 - x) * 3;
      out[to] = data[from];
      out[to + 1] = data[from + 1];
      out[to + 2] = data[from + 2];
    }
  }
  return { width, height, data: out };
}

/** Landmarks read on the mirror image of an image `width` pixels wide (x, y, z each), as landmarks of the image itself. */
export function mirroredBack(mirrored: ArrayLike<number>, width: number, partner: Int32Array): Float32Array {
  const out = new Float32Array(LANDMARKS * 3);
  for (let i = 0; i < LANDMARKS; i++) {
    const p = partner[i] * 3;
    out[i * 3] = width - 1 - mirrored[p];
    out[i * 3 + 1] = mirrored[p + 1];
    out[i * 3 + 2] = mirrored[p + 2];
  }
  return out;
}
