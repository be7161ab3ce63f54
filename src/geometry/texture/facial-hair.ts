/**
 * Whether a photo pixel shows hair on the face (a beard, stubble, a strand over the forehead) rather than skin: as far
 * as it is both much darker than the skin tone (its luminance over the skin's: not at DARK[0], wholly at DARK[1]) and
 * grainy (lumaGrain: not at GRAIN[0], wholly at GRAIN[1]; a shadow is smooth, clean skin 0-0.04 on the test photos,
 * beards 0.04-0.24).
 */
import { lumaGrain } from './sample.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';
import type { RgbImage } from './rgb-image.ts';

const DARK = [0.7, 0.5] as const;
/** Half-size (cm) of the square whose grain is read. */
const PATCH = 0.3;
const GRAIN = [0.04, 0.08] as const;

/** 0..1: how much the square of half-size `r` round (x, y), `ratio` as dark as the skin tone there, reads as hair. */
export function hairLikeness(photo: RgbImage, x: number, y: number, r: number, ratio: number): number {
  const dark = smoothstepBetween(DARK[0], DARK[1], ratio);
  return dark > 0 ? dark * smoothstepBetween(GRAIN[0], GRAIN[1], lumaGrain(photo, x, y, r)) : 0;
}

/** The half-size in pixels of the square hairLikeness reads, for a photo of `pixelsPerCm`. */
export function hairPatchRadius(pixelsPerCm: number): number {
  return Math.max(2, Math.round(pixelsPerCm * PATCH));
}
