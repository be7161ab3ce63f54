/**
 * How open and how smiling a mouth is, from the 478 landmarks detected on an image (x right, y down):
 * the inner-lip gap and the mouth corners' lift, each over the mouth's width, in the face's own axes
 * (across = along the line through the irises, pointing to the image's right; up = across turned a quarter). A closed relaxed mouth is below 0.03 on both.
 */
import { IRIS_MINUS_X, IRIS_PLUS_X } from '../../src/pipeline/face/pose.ts';
import { cameraFrame, projectPoint, type Camera } from '../../src/geometry/render/camera.ts';

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

/** The eyes' outer corners: the face's across axis where there are no irises (a head mesh's face vertices). */
const EYE_CORNERS = [33, 263] as const;

/** `axis`: two landmarks whose line is the face's across direction (default the irises). */
export function mouthShape(lm: Float32Array, axis: readonly [number, number] = [IRIS_MINUS_X, IRIS_PLUS_X]): MouthShape {
  const dx = lm[axis[1] * 3] - lm[axis[0] * 3], dy = lm[axis[1] * 3 + 1] - lm[axis[0] * 3 + 1];
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

/**
 * The same measure on a head mesh's own face vertices (the 468 landmarks by construction, packed xyz) seen by
 * `camera` at `size` px: the mouth the geometry has. Beside the detector's reading of a render it tells whether a
 * gap or a lift comes from the mesh or from the texture the detector sees on it.
 */
export function meshMouthShape(positions: ArrayLike<number>, camera: Camera, size: number): MouthShape {
  const frame = cameraFrame(camera, size, size);
  const lm = new Float32Array(468 * 3);
  for (let i = 0; i < 468; i++) {
    const p = projectPoint(frame, [positions[i * 3], positions[i * 3 + 1], positions[i * 3 + 2]]);
    lm[i * 3] = p.x;
    lm[i * 3 + 1] = p.y;
  }
  return mouthShape(lm, EYE_CORNERS);
}
