/**
 * Regions of the photo named by the 478 landmarks: the eyes, brows and lips (features that are not skin)
 * as a pixel mask, the visible white of the eyes, the irises and the teeth. Pure computations on the landmarks and
 * the image.
 */
import type { RgbImage, Rgb } from '../../geometry/texture/rgb-image.ts';
import { channelMedians } from '../../geometry/texture/sample.ts';
import { sampleIrisColour } from '../../geometry/texture/bake-parts.ts';
import { IRIS_MINUS_X, IRIS_PLUS_X, irisDiameterPx } from './pose.ts';
import { rec601Luma } from '../../geometry/render/srgb.ts';
import { FEATURE, type Feature } from '../../geometry/texture/photo-features.ts';

/** The face's outline, in order around the face from the forehead's middle. */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
/** Eye contours (eyelid margins) as closed loops: the subject's right eye (image left), then the left. */
export const EYE_CONTOURS = [
  [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
];
export const BROWS = [
  [70, 63, 105, 66, 107, 55, 65, 52, 53, 46],
  [300, 293, 334, 296, 336, 285, 295, 282, 283, 276],
];
/** The lips' outer contour, in order. */
export const LIPS = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];
/** Iris centres in the order of EYE_CONTOURS (the subject's right eye is on the head's -x side). */
const IRIS_CENTRES = [IRIS_MINUS_X, IRIS_PLUS_X];

/** Each region's polygon is scaled about its centroid by this much: lashes, lid creases and lip borders go with it. */
const GROW = { eye: 1.6, brow: 1.35, lips: 1.15 };

export type Point = [number, number];

export function landmarkPoint(lm: ArrayLike<number>, i: number): Point {
  return [lm[i * 3], lm[i * 3 + 1]];
}

/**
 * Per pixel, the feature (FEATURE) on the eyes, brows and lips (with a margin) and 0 elsewhere. Where a grown brow
 * meets a grown eye on the upper lid, the eye's value is kept.
 */
export function featureMask(lm: ArrayLike<number>, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  const regions: [number[], number, Feature][] = [
    ...BROWS.map((c): [number[], number, Feature] => [c, GROW.brow, FEATURE.brow]),
    ...EYE_CONTOURS.map((c): [number[], number, Feature] => [c, GROW.eye, FEATURE.eye]),
    [LIPS, GROW.lips, FEATURE.lips],
  ];
  for (const [ids, grow, value] of regions) fillPolygon(mask, width, height, scaleAboutCentroid(ids.map((i) => landmarkPoint(lm, i)), grow), value);
  return mask;
}

export function scaleAboutCentroid(poly: Point[], k: number): Point[] {
  const cx = poly.reduce((s, p) => s + p[0], 0) / poly.length;
  const cy = poly.reduce((s, p) => s + p[1], 0) / poly.length;
  return poly.map(([x, y]) => [cx + (x - cx) * k, cy + (y - cy) * k]);
}

/**
 * The runs of pixels whose centres lie inside the polygon (even-odd rule), clipped to the image: [y, first x, last x]
 * per run, rows top down and runs left to right within a row.
 */
export function polygonRuns(width: number, height: number, poly: Point[]): number[] {
  const runs: number[] = [];
  const ys = poly.map((p) => p[1]);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    const xs: number[] = [];
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i];
      const [xj, yj] = poly[j];
      if (yi > cy !== yj > cy) xs.push(xi + ((cy - yi) * (xj - xi)) / (yj - yi));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k] - 0.5)), to = Math.min(width - 1, Math.floor(xs[k + 1] - 0.5));
      if (from <= to) runs.push(y, from, to);
    }
  }
  return runs;
}

/** Sets to `value` the pixels whose centres lie inside the polygon (even-odd rule). */
export function fillPolygon(mask: Uint8Array, width: number, height: number, poly: Point[], value = 1): void {
  const runs = polygonRuns(width, height, poly);
  for (let r = 0; r < runs.length; r += 3) mask.fill(value, runs[r] * width + runs[r + 1], runs[r] * width + runs[r + 2] + 1);
}

/**
 * The white of the eyes: the brighter third of the pixels inside the eyelid margins (lashes, lid shadow, the caruncle
 * and a dark iris are darker), per-channel median. Undefined when too few show. A light iris's paler part is in that
 * third: the white balance was calibrated on this measure, and against the white alone (the irises left out) the
 * pink of veins and lid rims read as a warm light on the light-eyed photos and put the pair p10's skin 6.6 -> 13.0
 * ΔE apart (PIPELINE.md, "The eighteenth session").
 */
export function measureSclera(image: RgbImage, lm: ArrayLike<number>): { colour: Rgb; pixels: number } | undefined {
  return brightThird(image, EYE_CONTOURS.flatMap((contour) => pixelsInside(image.width, image.height, contour.map((i) => landmarkPoint(lm, i)))));
}

/** The irises' colour (sampleIrisColour over both eyes' rings, centred and sized by the iris landmarks, inside the eyelid contours). */
export function measureIris(image: RgbImage, lm: ArrayLike<number>): Rgb {
  const r = irisDiameterPx(lm) / 2;
  return sampleIrisColour(image, IRIS_CENTRES.map((c, e) => ({ x: lm[c * 3], y: lm[c * 3 + 1], r, opening: EYE_CONTOURS[e].map((i) => landmarkPoint(lm, i)) })));
}

/**
 * The teeth where the mouth is open: pixels inside the inner lip contour (photo pixels), of those the brighter third (the mouth's
 * shadow, tongue and gums are darker), per-channel median. Undefined when too few show; a bright third that is still
 * lips or tongue is for the caller to judge by its colour.
 */
export function measureTeeth(image: RgbImage, innerLips: Point[]): { colour: Rgb; pixels: number } | undefined {
  return brightThird(image, pixelsInside(image.width, image.height, innerLips));
}

/**
 * How alike the two eyes' openings look: the lesser of their luminance spreads (standard deviation inside each eyelid
 * contour) over the greater. An eye's opening holds the iris, the white and the lash line, a spread of 20-75 on the
 * test photos; skin the contour was put on by mistake is smooth (p12-a's mirror image: one eye's contour on the cheek,
 * 21 against the other's 69). 0 when a contour holds no pixel.
 */
export function eyesAlike(image: RgbImage, lm: ArrayLike<number>): number {
  const spreads = EYE_CONTOURS.map((contour) => lumaSpread(image.data, pixelsInside(image.width, image.height, contour.map((i) => landmarkPoint(lm, i)))));
  const most = Math.max(...spreads);
  return most > 0 ? Math.min(...spreads) / most : 0;
}

/** The standard deviation of the pixels' Rec. 601 luma; 0 for none. */
function lumaSpread(d: Uint8Array, pixels: number[]): number {
  if (pixels.length === 0) return 0;
  let sum = 0, squares = 0;
  for (const i of pixels) {
    const l = rec601Luma(d, i * 3);
    sum += l;
    squares += l * l;
  }
  const mean = sum / pixels.length;
  return Math.sqrt(Math.max(0, squares / pixels.length - mean * mean));
}

/** The indices (y * width + x) of the pixels whose centres lie inside the polygon. */
function pixelsInside(width: number, height: number, poly: Point[]): number[] {
  const runs = polygonRuns(width, height, poly);
  const pixels: number[] = [];
  for (let k = 0; k < runs.length; k += 3) for (let x = runs[k + 1]; x <= runs[k + 2]; x++) pixels.push(runs[k] * width + x);
  return pixels;
}

/** The per-channel median of the brighter third of the pixels, and its count; undefined under 30 pixels. */
function brightThird(image: RgbImage, pixels: number[]): { colour: Rgb; pixels: number } | undefined {
  if (pixels.length < 30) return undefined;
  const d = image.data;
  const bright = brightestFirst(d, pixels).subarray(0, Math.floor(pixels.length / 3));
  const colour = channelMedians(d, bright);
  return { colour, pixels: bright.length };
}

/**
 * The pixels by the sum of their channels, brightest first, equal sums in their order (a stable counting sort, without
 * a comparator: closures made per photo and called per comparison were compiled again on every avatar).
 */
function brightestFirst(d: Uint8Array, pixels: number[]): Int32Array {
  const SUMS = 3 * 255 + 1;
  const start = new Int32Array(SUMS + 1);
  for (const p of pixels) start[3 * 255 - (d[p * 3] + d[p * 3 + 1] + d[p * 3 + 2]) + 1]++;
  for (let k = 0; k < SUMS; k++) start[k + 1] += start[k];
  const sorted = new Int32Array(pixels.length);
  for (const p of pixels) sorted[start[3 * 255 - (d[p * 3] + d[p * 3 + 1] + d[p * 3 + 2])]++] = p;
  return sorted;
}
