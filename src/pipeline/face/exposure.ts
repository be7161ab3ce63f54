/**
 * An under-exposed photo brightened before anything is taken from it. A face's brightest pixels (the skin's specular
 * highlights, the eyes' white, the teeth) come near the top of the range in any photo exposed for the face, whatever
 * the skin's own colour: on the 19 test photos the 99th percentile of the face's brightest channel is 213-255, on
 * dark skin (p08-a) 255. A face whose bright end lies lower was under-exposed, and without this its avatar took the
 * photo's darkness as the skin's (p03-a at 45 % of its pixel values: skin L* 41 instead of 85).
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { linearToSrgb, LINEAR_STEPS, srgbToLinear } from '../../geometry/render/srgb.ts';
import { FACE_OVAL, polygonRuns } from './face-regions.ts';

/** The face's bright end (see above) below which the photo is brightened: under the test photos' lowest, 213. */
export const UNDER_EXPOSED = 200;
/** The share of the face's pixels at or below its bright end. */
const BRIGHT_END = 0.99;

/** The face's bright end: the BRIGHT_END percentile of each pixel's brightest channel inside the face oval. */
export function faceBrightEnd(image: RgbImage, landmarks: ArrayLike<number>): number {
  const oval = FACE_OVAL.map((i) => [landmarks[i * 3], landmarks[i * 3 + 1]] as [number, number]);
  const runs = polygonRuns(image.width, image.height, oval);
  const counts = new Uint32Array(256);
  let total = 0;
  for (let r = 0; r < runs.length; r += 3) {
    for (let o = (runs[r] * image.width + runs[r + 1]) * 3, end = (runs[r] * image.width + runs[r + 2]) * 3; o <= end; o += 3) {
      counts[Math.max(image.data[o], image.data[o + 1], image.data[o + 2])]++;
      total++;
    }
  }
  for (let v = 0, seen = 0; v < 256; v++) {
    seen += counts[v];
    if (seen > BRIGHT_END * total) return v;
  }
  return 255;
}

/**
 * The exposure gain (linear light) that brings a face's bright end up to UNDER_EXPOSED, 1 for a face exposed at least
 * that well.
 */
export function exposureGain(brightEnd: number): number {
  return brightEnd >= UNDER_EXPOSED ? 1 : srgbToLinear[UNDER_EXPOSED] / Math.max(srgbToLinear[1], srgbToLinear[Math.round(brightEnd)]);
}

/** The image with every channel's linear light times `gain` (clipped at white). */
export function exposeImage(image: RgbImage, gain: number): RgbImage {
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++) table[v] = linearToSrgb[Math.min(LINEAR_STEPS - 1, Math.round(srgbToLinear[v] * gain * (LINEAR_STEPS - 1)))];
  return { width: image.width, height: image.height, data: image.data.map((v) => table[v]) };
}
