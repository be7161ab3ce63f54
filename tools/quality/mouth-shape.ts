/**
 * How open and how smiling a mouth is, from the 478 landmarks detected on an image (x right, y down):
 * the inner-lip gap and the mouth corners' lift, each over the mouth's width, in the face's own axes
 * (across = along the line through the irises, pointing to the image's right; up = across turned a quarter). A closed relaxed mouth is below 0.03 on both.
 */
import { IRIS_MINUS_X, IRIS_PLUS_X } from '../../src/pipeline/face/pose.ts';

/** Facing inner-lip landmarks [upper, lower]: the centre and half way to each corner. */
const INNER_LIP_PAIRS = [[82, 87], [13, 14], [312, 317]];
const CORNERS = [61, 291];
const LIP_CENTRE = [13, 14];

export interface MouthShape {
  /** Widest inner-lip gap over the mouth width (0 when the lips touch). */
  gap: number;
  /** Height of the corners' midpoint above the inner lips' centre, over the mouth width (negative: down). */
  lift: number;
}

export function mouthShape(lm: Float32Array): MouthShape {
  const dx = lm[IRIS_PLUS_X * 3] - lm[IRIS_MINUS_X * 3], dy = lm[IRIS_PLUS_X * 3 + 1] - lm[IRIS_MINUS_X * 3 + 1];
  const ax = Math.sign(dx) * dx, ay = Math.sign(dx) * dy;
  const n = Math.hypot(ax, ay);
  // `up` is the face's upward direction in the image (y grows downwards).
  const across = (i: number) => (lm[i * 3] * ax + lm[i * 3 + 1] * ay) / n;
  const up = (i: number) => (lm[i * 3] * ay - lm[i * 3 + 1] * ax) / n;
  const width = Math.abs(across(CORNERS[1]) - across(CORNERS[0]));
  const gap = Math.max(0, ...INNER_LIP_PAIRS.map(([a, b]) => up(a) - up(b)));
  const corners = (up(CORNERS[0]) + up(CORNERS[1])) / 2;
  const centre = (up(LIP_CENTRE[0]) + up(LIP_CENTRE[1])) / 2;
  return { gap: gap / width, lift: (corners - centre) / width };
}
