/**
 * Lips without teeth: a neutral avatar's mouth is closed, so the teeth a photo shows between its lips
 * must not reach the lips' texture. Inside the outer lip contour, pixels that look like teeth are replaced
 * by the lip colour measured on the visible lips; in an open mouth, so are dark pixels (the mouth's
 * inside, the shadow under the upper lip) and the whole opening, as the neutral's closed lips must not show
 * them (the detector read them as parted lips). In a closed mouth only the slit between the lips can show teeth.
 * Dark pixels of a closed mouth stay: they are the seam closed
 * lips show (replacing them too made the renders less like the person). The replaced pixels then take the colour of
 * the lip around them. Works on a copy of the photo, which is then sampled as usual.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { median } from './sample.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';
import { signedPolygonDistance } from './polygon-distance.ts';

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
  const lipLuma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2];
  const teeth = teethOf(lipLuma, (hi - Math.min(...colour)) / (hi + 1));
  const out = new Uint8Array(d);
  const extent = (p: Point[], c: 0 | 1) => Math.max(...p.map((q) => q[c])) - Math.min(...p.map((q) => q[c]));
  const open = extent(inner, 1) > OPEN_MOUTH * extent(outer, 0);
  // Through a closed mouth's lips, teeth show only in the slit between them: elsewhere pale pixels are the lips' own
  // highlights.
  const reach = (OPEN_MOUTH / 2) * extent(outer, 0);
  const nearSlit = (i: number) => signedPolygonDistance(inner, (i % photo.width) + 0.5, Math.floor(i / photo.width) + 0.5) > -reach;
  const replace = open ? [...all.filter((i) => teeth(i) || luma(i) < INSIDE_DARKER * lipLuma), ...opening] : all.filter((i) => teeth(i) && nearSlit(i));
  const mask = new Set(replace);
  for (const i of mask) out.set(colour, i * 3);
  fillFromAround(out, photo.width, [...mask], new Set(all));
  return { photo: { width: photo.width, height: photo.height, data: out }, colour, replaced: mask.size };
}

/** Passes of the fill: enough to carry colour across an open mouth's opening (some 20-40 pixels at the fit's scale). */
const FILL_PASSES = 200;

/**
 * The replaced pixels take the colour of the lip around them (membrane interpolation: each the mean of its
 * neighbours inside the lips, from the measured lip colour as the start), so the lips keep their shading across the
 * repair instead of a flat patch. Pixels outside the outer contour (skin, a beard) give no colour. `pixels` lie
 * inside `lips`, which lies inside the image and off its border (the lips' contour lies well inside).
 */
function fillFromAround(rgb: Uint8Array, width: number, pixels: number[], lips: ReadonlySet<number>): void {
  const values = new Float32Array(pixels.length * 3);
  const slot = new Map<number, number>();
  pixels.forEach((p, k) => {
    slot.set(p, k);
    for (let c = 0; c < 3; c++) values[k * 3 + c] = rgb[p * 3 + c];
  });
  // Each pixel's lip neighbours (up to four): the slot of a replaced one, or -1 - (its pixel index) for a kept one.
  const around: number[][] = pixels.map((p) =>
    [p - 1, p + 1, p - width, p + width].filter((q) => lips.has(q)).map((q) => slot.get(q) ?? -1 - q),
  );
  for (let pass = 0; pass < FILL_PASSES; pass++) {
    for (let k = 0; k < pixels.length; k++) {
      const near = around[k];
      if (near.length === 0) continue;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (const q of near) sum += q >= 0 ? values[q * 3 + c] : rgb[(-1 - q) * 3 + c];
        values[k * 3 + c] = sum / near.length;
      }
    }
  }
  pixels.forEach((p, k) => {
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.round(values[k * 3 + c]);
  });
}
