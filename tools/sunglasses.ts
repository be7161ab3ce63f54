/**
 * Opaque sunglasses drawn over a face photo, for the tests and the sheet of photos with their eyes hidden: the test
 * photos show none. Each lens is an ellipse round its eye (0.85 x 0.6 eye widths), dark at the top and less so at the
 * bottom (a gradient tint), with a darker rim and a pale reflection across it; a bar joins them over the nose.
 */
import type { RgbImage } from '../src/geometry/texture/rgb-image.ts';
import { EYE_CONTOURS, landmarkPoint } from '../src/pipeline/face/face-regions.ts';

const LENS = [0.85, 0.6] as const;
const TOP: readonly number[] = [18, 20, 24];
const BOTTOM: readonly number[] = [48, 46, 46];
const RIM: readonly number[] = [12, 12, 12];
/** The reflection: a band across the lens, this much lighter (levels). */
const GLINT = 45;

/** A copy of `img` with sunglasses over the eyes whose landmarks (x, y in pixels, z) are `lm`. */
export function drawSunglasses(img: RgbImage, lm: ArrayLike<number>): RgbImage {
  const { width, height } = img;
  const data = Uint8Array.from(img.data);
  const eyes = EYE_CONTOURS.map((contour) => {
    const [outer, inner] = [landmarkPoint(lm, contour[0]), landmarkPoint(lm, contour[8])];
    return { x: (outer[0] + inner[0]) / 2, y: (outer[1] + inner[1]) / 2, w: Math.hypot(inner[0] - outer[0], inner[1] - outer[1]) };
  });
  for (const e of eyes) {
    const [rx, ry] = [LENS[0] * e.w, LENS[1] * e.w];
    for (let y = Math.max(0, Math.floor(e.y - ry)); y <= Math.min(height - 1, Math.ceil(e.y + ry)); y++) {
      for (let x = Math.max(0, Math.floor(e.x - rx)); x <= Math.min(width - 1, Math.ceil(e.x + rx)); x++) {
        const [dx, dy] = [(x - e.x) / rx, (y - e.y) / ry];
        const r2 = dx * dx + dy * dy;
        if (r2 > 1) continue;
        const t = (dy + 1) / 2;
        const glint = Math.abs(dx + 0.6 * dy - 0.35) < 0.06 ? GLINT : 0;
        for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.min(255, (r2 > 0.85 ? RIM[k] : TOP[k] + (BOTTOM[k] - TOP[k]) * t) + glint);
      }
    }
  }
  const [a, b] = eyes;
  const middle = (a.y + b.y) / 2;
  for (let y = Math.round(middle - 0.06 * a.w); y <= Math.round(middle + 0.02 * a.w); y++) {
    for (let x = Math.round(Math.min(a.x, b.x)); x <= Math.round(Math.max(a.x, b.x)); x++) data.set(RIM, (y * width + x) * 3);
  }
  return { width, height, data };
}
