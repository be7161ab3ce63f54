/**
 * Lips without teeth: a neutral avatar's mouth is closed, so the teeth a photo shows between its lips
 * must not reach the lips' texture. Inside the outer lip contour, pixels that look like teeth are replaced
 * by the lip colour measured on the visible lips; in an open mouth, so are dark pixels (the mouth's
 * inside, the shadow under the upper lip) and the whole opening, as the neutral's closed lips must not show
 * them (the detector read them as parted lips). Dark pixels of a closed mouth stay: they are the seam closed
 * lips show (replacing them too made the renders less like the person). A replaced pixel's neighbours on the
 * lips go too (a tooth's edge blends into the lip over a pixel), and the lips lose their gloss above a knee:
 * the detector took a glossy lower lip for the inside of an open mouth. Works on a copy of the photo, which is
 * then sampled as usual.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { median } from './sample.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS } from '../render/srgb.ts';

type Point = [number, number];

/**
 * A pixel brighter than the lips and keeping less than this share of their saturation, (max - min) / max,
 * is teeth. (Skin, which the detected outer contour often takes in, is about as saturated as lips.)
 */
const TEETH_SATURATION = 0.5;
/** A pixel darker than the lips by this factor is the mouth's inside, a shadow or the seam: not lip colour. */
const INSIDE_DARKER = 0.55;
/** A mouth whose inner contour is taller than this share of its width is open. */
const OPEN_MOUTH = 0.08;
/**
 * Lip pixels brighter than this share of the lip colour's luma carry a specular highlight above it, taken
 * down to it (as the skin's highlights are compressed above 1.15x the skin tone in the albedo).
 */
const GLOSS_KNEE = 1.15;

export interface LipRepair {
  photo: RgbImage;
  /** The lip colour measured (the median of the lip-looking pixels between the contours). */
  colour: Rgb;
  /** Pixels replaced. */
  replaced: number;
}

/** The photo with the teeth-like pixels inside the outer lip contour replaced (contours: image points, closed loops). */
export function synthesiseLips(photo: RgbImage, outer: Point[], inner: Point[]): LipRepair {
  const xs = outer.map((p) => p[0]), ys = outer.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(photo.width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(photo.height - 1, Math.ceil(Math.max(...ys)));
  const lip: number[] = [], all: number[] = [], opening: number[] = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!insidePolygon(outer, x + 0.5, y + 0.5)) continue;
      all.push(y * photo.width + x);
      (insidePolygon(inner, x + 0.5, y + 0.5) ? opening : lip).push(y * photo.width + x);
    }
  }
  const d = photo.data;
  const luma = (i: number) => 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  const saturation = (i: number) => {
    const hi = Math.max(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
    return (hi - Math.min(d[i * 3], d[i * 3 + 1], d[i * 3 + 2])) / (hi + 1);
  };
  const teethOf = (l: number, s: number) => (i: number) => luma(i) > l && saturation(i) < TEETH_SATURATION * s;
  // The lips' own colour: the median of the band between the contours, then again over the pixels that look like lip.
  const bandLuma = median(lip.map(luma)), bandTeeth = teethOf(bandLuma, median(lip.map(saturation)));
  const samples = lip.filter((i) => !bandTeeth(i) && luma(i) >= INSIDE_DARKER * bandLuma);
  if (samples.length === 0) return { photo, colour: [0, 0, 0], replaced: 0 };
  const colour = [0, 1, 2].map((c) => median(samples.map((i) => d[i * 3 + c]))) as Rgb;
  const hi = Math.max(...colour);
  const teeth = teethOf(0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2], (hi - Math.min(...colour)) / (hi + 1));
  const extent = (p: Point[], c: 0 | 1) => Math.max(...p.map((q) => q[c])) - Math.min(...p.map((q) => q[c]));
  const open = extent(inner, 1) > OPEN_MOUTH * extent(outer, 0);
  const lipLuma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2];
  const replace = open ? [...all.filter((i) => teeth(i) || luma(i) < INSIDE_DARKER * lipLuma), ...opening] : all.filter(teeth);
  const inLips = new Uint8Array(photo.width * photo.height);
  for (const i of lip) inLips[i] = 1;
  const mask = new Uint8Array(photo.width * photo.height);
  for (const i of replace) mask[i] = 1;
  // A tooth's edge blends into the lip over a pixel: that pixel goes too.
  for (const i of replace) {
    const x = i % photo.width, y = (i - x) / photo.width;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const j = (y + dy) * photo.width + x + dx;
      if (x + dx >= 0 && x + dx < photo.width && y + dy >= 0 && y + dy < photo.height && inLips[j]) mask[j] = 1;
    }
  }
  const out = new Uint8Array(d);
  for (const i of lip) if (!mask[i] && luma(i) > GLOSS_KNEE * lipLuma) removeGloss(out, i, colour, GLOSS_KNEE * lipLuma);
  let replaced = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    out.set(colour, i * 3);
    replaced++;
  }
  return { photo: { width: photo.width, height: photo.height, data: out }, colour, replaced };
}

/**
 * Takes the white of a specular highlight out of the lip pixel `i` (in place): in linear light the pixel is
 * fitted as the lip colour times a shade plus white (least squares), and a positive white is subtracted.
 * Gloss is light on the lips, not their colour, and the detector reads a glossy lower lip as an opening.
 */
function removeGloss(data: Uint8Array, i: number, lipColour: Rgb, knee: number): void {
  const l = lipColour.map((c) => srgbToLinear[Math.round(c)]);
  const p = [0, 1, 2].map((c) => srgbToLinear[data[i * 3 + c]]);
  // Normal equations of min |p - a l - s (1,1,1)|² in (a, s).
  const ll = l[0] * l[0] + l[1] * l[1] + l[2] * l[2], l1 = l[0] + l[1] + l[2];
  const lp = l[0] * p[0] + l[1] * p[1] + l[2] * p[2], p1 = p[0] + p[1] + p[2];
  const det = ll * 3 - l1 * l1;
  if (det <= 1e-9) return;
  const white = (ll * p1 - l1 * lp) / det;
  // No more white than brings the pixel down to the knee (an sRGB luma, taken to linear light).
  const excess = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2] - srgbToLinear[Math.round(Math.min(255, knee))];
  const w = Math.min(white, excess);
  if (w <= 0) return;
  for (let c = 0; c < 3; c++) data[i * 3 + c] = linearToSrgb[Math.round(Math.max(0, p[c] - w) * (LINEAR_STEPS - 1))];
}
