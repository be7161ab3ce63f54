/** Sampling of packed RGB images (3 bytes per pixel, row 0 at the top). */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { rec601Luma } from '../render/srgb.ts';

/**
 * Bilinear sample of the first three channels at continuous pixel coordinates (pixel centres at integer + 0.5),
 * clamped to the image; `channels` per pixel (4 for an RGBA texture). Kept under V8's inlining limit (460 bytes of
 * bytecode; it was 471): not inlined, the atlas's bake boxed its coordinates, some 30 MB of garbage per avatar.
 */
export function sampleBilinear(img: RgbImage, x: number, y: number, out: Float32Array, channels = 3): void {
  const { width, height, data } = img;
  const fx = Math.min(width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy);
  const ax = fx - x0, ay = fy - y0;
  // The next pixel's offset across and down, none at the last column or row.
  const dx = x0 < width - 1 ? channels : 0, dy = y0 < height - 1 ? width * channels : 0;
  for (let c = 0, i = (y0 * width + x0) * channels; c < 3; c++, i++) {
    const top = data[i] + (data[i + dx] - data[i]) * ax;
    const bottom = data[i + dy] + (data[i + dy + dx] - data[i + dy]) * ax;
    out[c] = top + (bottom - top) * ay;
  }
}

/** Per-channel median of the pixels in a square of half-size `r` around (x, y). */
export function medianPatch(img: RgbImage, x: number, y: number, r: number): [number, number, number] {
  const ch: number[][] = [[], [], []];
  const cx = Math.round(x);
  const cy = Math.round(y);
  for (let yy = Math.max(0, cy - r); yy <= Math.min(img.height - 1, cy + r); yy++) {
    for (let xx = Math.max(0, cx - r); xx <= Math.min(img.width - 1, cx + r); xx++) {
      const i = (yy * img.width + xx) * 3;
      for (let c = 0; c < 3; c++) ch[c].push(img.data[i + c]);
    }
  }
  return ch.map(median) as [number, number, number];
}

/** lumaGrain looks at no more than this many pixels along each side of its square, spread evenly over it. */
const GRAIN_SIDE = 11;

/**
 * How grainy a square of half-size `r` around (x, y) is: the median of each pixel's luma's distance from its 3x3
 * neighbourhood's mean, over the square's mean luma. Hair and stubble are grainy everywhere; a smooth shadow is not,
 * and one edge (a jaw line, a shadow's border) moves the median little. In a large square every few pixels are looked
 * at (GRAIN_SIDE a side), each against its own 3x3 neighbours: the light's fit asks this of hundreds of samples.
 */
export function lumaGrain(img: RgbImage, x: number, y: number, r: number): number {
  const cx = Math.round(x), cy = Math.round(y);
  const x0 = Math.max(1, cx - r), x1 = Math.min(img.width - 2, cx + r), y0 = Math.max(1, cy - r), y1 = Math.min(img.height - 2, cy + r);
  const step = Math.max(1, Math.ceil((2 * r + 1) / GRAIN_SIDE));
  const luma = (xx: number, yy: number) => rec601Luma(img.data, (yy * img.width + xx) * 3);
  const grain: number[] = [];
  let sum = 0;
  for (let yy = y0; yy <= y1; yy += step) {
    for (let xx = x0; xx <= x1; xx += step) {
      let around = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) around += luma(xx + dx, yy + dy);
      const l = luma(xx, yy);
      grain.push(Math.abs(l - around / 9));
      sum += l;
    }
  }
  return grain.length === 0 || sum <= 0 ? 0 : median(grain) / (sum / grain.length);
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  // A typed array sorts numerically without a comparator call per comparison (patches and lips: thousands of values).
  const s = Float64Array.from(values).sort();
  return s[s.length >> 1];
}

/** Per-channel median (as `median`) of the listed pixels of packed RGB bytes `d`. */
export function channelMedians(d: Uint8Array, pixels: ArrayLike<number>): Rgb {
  const colour: Rgb = [0, 0, 0];
  const values: number[] = new Array(pixels.length);
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < pixels.length; k++) values[k] = d[pixels[k] * 3 + c];
    colour[c] = median(values);
  }
  return colour;
}
