/**
 * The line closed lips show where they meet, drawn into the albedo along the lips' inner rim. The neutral
 * avatar's lips are sealed along that rim, but its texels come from the photo at the inner lip contour, which
 * on a smiling or parted mouth is the teeth's edge or the lips' wet gloss (made lip-coloured by
 * synthesiseLips): a pale band where a closed mouth shows a dark line, and a landmark detector read the
 * lower lip's top below it (a gap of 0.03 to 0.05 mouth widths on the preview).
 */
import type { Rgb } from './rgb-image.ts';

/**
 * Drawn only where the photo's mouth is open this far (inner contour height over mouth width): its teeth or the
 * mouth's inside show, and no lips meet in the photo. Drawn on every photo, the line changed how the detector read
 * the expression shapes at the corners of the closed smiles of p03-a and p06-a (0.100 and 0.097 open; those with
 * teeth showing 0.16-0.33).
 */
export const SEAM_OPENING = 0.15;
/** The line's half-width each side of the rim, in mouth widths (in 2.0's atlas about 1.5 texels, 1.3 px of the preview). */
const HALF_WIDTH = 0.007;
/**
 * Mouth widths from each corner over which the line fades in: the corners keep the photo's texture, where the
 * shapes that move them are read (the gap is read at the centre and half way to the corners).
 */
const CORNER_FADE = 0.15;
/** Its colour: this share of the lip colour (a closed mouth's seam is a shadow of the lips). */
export const SEAM_SHADE = 0.45;

/**
 * Darkens, in place, the texels of `rgba` (size² RGBA, row 0 at the top, v up) within HALF_WIDTH of the
 * rim's UV polyline (`rim`: vertex ids of the closed inner lip contour, in order) to SEAM_SHADE of `lip` (the
 * lip colour, as the albedo has it), with a one-texel ramp at the line's edge; texels already darker stay.
 */
export function drawLipSeam(rgba: Uint8Array, size: number, uvs: ArrayLike<number>, rim: readonly number[], lip: Rgb): void {
  const seam = lip.map((c) => c * SEAM_SHADE);
  const pts = rim.map((v) => [uvs[v * 2] * size, (1 - uvs[v * 2 + 1]) * size] as const);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const width = Math.max(...xs) - Math.min(...xs);
  const half = Math.max(0.5, HALF_WIDTH * width);
  const reach = half + 1;
  const [left, right] = [Math.min(...xs), Math.max(...xs)];
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - reach)), x1 = Math.min(size - 1, Math.ceil(Math.max(...xs) + reach));
  const y0 = Math.max(0, Math.floor(Math.min(...ys) - reach)), y1 = Math.min(size - 1, Math.ceil(Math.max(...ys) + reach));
  const seamLuma = luma(seam[0], seam[1], seam[2]);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d = distanceToLoop(pts, x + 0.5, y + 0.5);
      const inside = Math.min(x + 0.5 - left, right - x - 0.5) / width;
      const cover = Math.min(1, Math.max(0, reach - d)) * Math.min(1, Math.max(0, inside / CORNER_FADE));
      if (cover === 0) continue;
      const o = (y * size + x) * 4;
      if (luma(rgba[o], rgba[o + 1], rgba[o + 2]) <= seamLuma) continue;
      for (let c = 0; c < 3; c++) rgba[o + c] = Math.round(rgba[o + c] + cover * (seam[c] - rgba[o + c]));
    }
  }
}

function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function distanceToLoop(pts: readonly (readonly [number, number])[], x: number, y: number): number {
  let best = Infinity;
  for (let k = 0; k < pts.length; k++) {
    const [ax, ay] = pts[k], [bx, by] = pts[(k + 1) % pts.length];
    const ex = bx - ax, ey = by - ay;
    const len2 = ex * ex + ey * ey;
    const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * ex + (y - ay) * ey) / len2)) : 0;
    best = Math.min(best, Math.hypot(x - ax - t * ex, y - ay - t * ey));
  }
  return best;
}
