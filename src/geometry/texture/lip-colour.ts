/**
 * Lips without teeth: a neutral avatar's mouth is closed, so whatever the photo shows between its lips
 * (teeth, the dark inside of the mouth) must not reach the lips' texture. Inside the outer lip contour,
 * pixels that do not look like lip are replaced by the lip colour measured on the visible lips; pixels
 * inside the inner contour (the opening) always are. Works on a copy of the photo, which is then sampled
 * as usual.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { median } from './sample.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';

type Point = [number, number];

/**
 * A pixel brighter than the lips and keeping less than this share of their saturation, (max - min) / max,
 * is teeth. (Skin, which the detected outer contour often takes in, is about as saturated as lips.)
 */
const TEETH_SATURATION = 0.5;
/** A pixel darker than the lips by this factor is the mouth's inside. */
const INSIDE_DARKER = 0.55;

export interface LipRepair {
  photo: RgbImage;
  /** The lip colour measured (the median of the lip-looking pixels between the contours). */
  colour: Rgb;
  /** Pixels replaced. */
  replaced: number;
}

/** The photo with the non-lip pixels between and inside the lip contours (image points, closed loops) replaced. */
export function synthesiseLips(photo: RgbImage, outer: Point[], inner: Point[]): LipRepair {
  const xs = outer.map((p) => p[0]), ys = outer.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(photo.width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(photo.height - 1, Math.ceil(Math.max(...ys)));
  const lip: number[] = [], opening: number[] = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!insidePolygon(outer, x + 0.5, y + 0.5)) continue;
      (insidePolygon(inner, x + 0.5, y + 0.5) ? opening : lip).push(y * photo.width + x);
    }
  }
  const d = photo.data;
  const luma = (i: number) => 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  const saturation = (i: number) => {
    const hi = Math.max(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
    return (hi - Math.min(d[i * 3], d[i * 3 + 1], d[i * 3 + 2])) / (hi + 1);
  };
  const notLipOf = (l: number, s: number) => (i: number) => (luma(i) > l && saturation(i) < TEETH_SATURATION * s) || luma(i) < INSIDE_DARKER * l;
  // The lips' own colour: the median of the band, then again over the pixels that look like it.
  const band = notLipOf(median(lip.map(luma)), median(lip.map(saturation)));
  const samples = lip.filter((i) => !band(i));
  if (samples.length === 0) return { photo, colour: [0, 0, 0], replaced: 0 };
  const colour = [0, 1, 2].map((c) => median(samples.map((i) => d[i * 3 + c]))) as Rgb;
  const hi = Math.max(...colour);
  const notLip = notLipOf(0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2], (hi - Math.min(...colour)) / (hi + 1));
  const out = new Uint8Array(d);
  let replaced = 0;
  for (const i of [...opening, ...lip.filter(notLip)]) {
    out.set(colour, i * 3);
    replaced++;
  }
  return { photo: { width: photo.width, height: photo.height, data: out }, colour, replaced };
}
