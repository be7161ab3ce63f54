/**
 * The eyes' openings on a photo, split at its irises: for measures that compare the avatar's eyes with the photo's
 * (scripts/identity-variants.ts, scripts/eye-readings.ts).
 */
import { EYE_CONTOURS, fillPolygon, landmarkPoint } from '../../src/pipeline/face/face-regions.ts';
import { irisDiameterPx, IRIS_MINUS_X, IRIS_PLUS_X } from '../../src/pipeline/face/pose.ts';

/** The iris disc is this much larger than the landmarks' iris radius: the photo's rim is blurred into the white. */
export const IRIS_GROW = 1.1;

/**
 * Per pixel of a `width` x `height` image the landmarks `lm` were read on, 1 inside the eyes' openings (the lid
 * contours) and, of those, inside the iris discs (`part` 'irises') or outside them ('whites').
 */
export function eyePartMask(width: number, height: number, lm: ArrayLike<number>, part: 'irises' | 'whites'): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const loop of EYE_CONTOURS) fillPolygon(mask, width, height, loop.map((i) => landmarkPoint(lm, i)));
  const r = (IRIS_GROW * irisDiameterPx(lm)) / 2;
  const inIris = (x: number, y: number) => [IRIS_PLUS_X, IRIS_MINUS_X].some((c) => Math.hypot(x + 0.5 - lm[c * 3], y + 0.5 - lm[c * 3 + 1]) <= r);
  for (let i = 0; i < mask.length; i++) if (mask[i] && inIris(i % width, Math.floor(i / width)) !== (part === 'irises')) mask[i] = 0;
  return mask;
}
