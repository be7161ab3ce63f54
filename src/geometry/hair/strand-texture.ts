/**
 * The hair texture, drawn procedurally. Every region is a mass of strands along v (root at the top):
 * per-strand tone and brightness in streaks, roots darker than the lengths, and a broken highlight band
 * across the strands as an anisotropic hair highlight would put it. Coverage (alpha) is full in the body
 * of the hair and falls off only where a silhouette needs it: clumps that taper to soft, uneven points at
 * the tips, a frayed edge at a card's sides, a staggered start at a card's root, strand ends at the
 * hairline. Drawn once as shade, tone and alpha; `tintHair` colours it per avatar from the observed
 * base, dark and light colours.
 */
import type { RgbaImage } from '../render/image.ts';
import type { Rgb } from '../texture/rgb-image.ts';
import { ATLAS, HAIR_TEXTURE_SIZE, type AtlasRegion } from './atlas.ts';
import { seededRandom } from '../../util/seeded-random.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';

export interface StrandPattern {
  size: number;
  /** Brightness multiplier per pixel (about 0.5 .. 1.5), 1 on average over the covered texels. */
  shade: Float32Array;
  /** 0 takes the dark colour, 1 the light one. */
  tone: Float32Array;
  alpha: Uint8Array;
}

let pattern: StrandPattern | undefined;

/** The pattern, drawn on first use (a few tens of milliseconds) and kept. */
export function strandPattern(): StrandPattern {
  pattern ??= drawPattern(HAIR_TEXTURE_SIZE);
  return pattern;
}

/** A pixel rectangle of the texture, rows from the top (the roots). */
interface Rect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function rectOf(r: AtlasRegion, size: number): Rect {
  return { x0: Math.floor(r.u0 * size), x1: Math.ceil(r.u1 * size), y0: Math.floor((1 - r.v1) * size), y1: Math.ceil((1 - r.v0) * size) };
}

function drawPattern(size: number): StrandPattern {
  const rnd = seededRandom(42);
  const p: StrandPattern = { size, shade: new Float32Array(size * size).fill(0.7), tone: new Float32Array(size * size).fill(0.4), alpha: new Uint8Array(size * size) };
  const colW = (ATLAS.cardsWidth / ATLAS.cardColumns) * size;
  for (let k = 0; k < ATLAS.cardColumns; k++) {
    // A card: two or three clumps side by side, overlapping, each tapering to its own point.
    const x0 = Math.round(k * colW + 0.004 * size), x1 = Math.round((k + 1) * colW - 0.004 * size);
    clumps(p, { x0, x1, y0: 0, y1: size }, 2 + (k % 2), 0.5, 0.12, true, rnd);
  }
  const sheet = rectOf(ATLAS.sheet, size);
  clumps(p, sheet, 12, ATLAS.sheet.feather, 0.03, false, rnd);
  pad(p, sheet, 4);
  const shell = rectOf(ATLAS.shell, size);
  // No highlight band on the base volume: its rows run up to the crown, where a band would ring the whorl.
  // Calmer in tone too: the volume reads as the mass of the hair, the cards over it carry the strands.
  streaks(p, shell, rnd, 0, 0.1, 0.4, () => 0.93);
  for (let y = shell.y0; y < shell.y1; y++) p.alpha.fill(255, y * size + shell.x0, y * size + shell.x1);
  hairlineTips(p, shell, ATLAS.shell.feather, rnd);
  pad(p, shell, 8);
  // The hair's mean colour is the observed base colour: the strands' shading varies around it, not below it.
  let sum = 0, n = 0;
  for (let i = 0; i < p.alpha.length; i++) if (p.alpha[i] >= 128) [sum, n] = [sum + p.shade[i], n + 1];
  for (let i = 0; i < p.shade.length; i++) p.shade[i] *= n / sum;
  const stubbleRect = rectOf(ATLAS.stubble, size);
  stubble(p, stubbleRect, rnd);
  pad(p, stubbleRect, 8);
  return p;
}

/** Strands are this much darker at the root than along their lengths. */
const ROOT_SHADE = 0.6;

/** The colour of the hair's roots, for the scalp under it: the base colour as dark as the strands' roots. */
export function hairRootColour(base: Rgb): Rgb {
  return base.map((c) => Math.round(c * ROOT_SHADE)) as Rgb;
}

/**
 * Strand-direction shading over a rectangle: each pixel column is a strand with its own brightness and
 * tone (smoothed over neighbours into streaks and clumps), wandering a little sideways down the rows;
 * roots darker over the top `roots` share of the rows; tone spread by `toneSpread` around the middle; a highlight band a third of the way down, broken strand by strand.
 */
function streaks(p: StrandPattern, r: Rect, rnd: () => number, highlight: number, roots: number, toneSpread: number, clumpShade?: (x: number, along: number) => number): void {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const fine = strandNoise(w + 8, rnd);
  const coarse = Float32Array.from({ length: Math.ceil(w / 6) + 3 }, () => rnd());
  const tone = strandNoise(w + 8, rnd);
  const phase = rnd() * 6.28;
  for (let y = 0; y < h; y++) {
    const along = y / h;
    const wander = 1.5 * Math.sin(phase + along * 5) + 0.4 * Math.sin(phase * 3 + along * 17);
    const rootDark = ROOT_SHADE + (1 - ROOT_SHADE) * smoothstepBetween(0, roots, along);
    for (let x = 0; x < w; x++) {
      const xs = Math.min(w + 7, Math.max(0, x + wander + 3));
      const ci = xs / 6, c0 = Math.floor(ci), cf = ci - c0;
      const cs = coarse[c0] * (1 - cf) + coarse[c0 + 1] * cf;
      const band = 1 + highlight * Math.exp(-(((along - 0.3 - 0.06 * (cs - 0.5)) / 0.07) ** 2)) * (0.6 + 0.5 * cs);
      const i = (r.y0 + y) * p.size + r.x0 + x;
      p.shade[i] = (0.66 + 0.2 * cs + 0.12 * fine(xs)) * rootDark * band * (clumpShade?.(x, along) ?? 1);
      p.tone[i] = 0.5 + toneSpread * (0.3 * tone(xs) + 0.4 * cs - 0.35);
    }
  }
}

/** Samples a pixel of `strandNoise`: enough that reading between them adds no visible smoothing of its own. */
const NOISE_SAMPLES = 4;

/**
 * A random value per strand across `pixels` columns (0..1, about as spread as uniform values), read at any
 * position: drawn finer than a pixel and smoothed over about one, so that a strand's value changes little as
 * it wanders sideways down the rows. Read by whole columns, every strand of a row took its neighbour's value at
 * the same row, and the hair showed seams straight across its strands.
 */
function strandNoise(pixels: number, rnd: () => number): (x: number) => number {
  const n = pixels * NOISE_SAMPLES;
  const raw = Float32Array.from({ length: n + 2 * NOISE_SAMPLES }, () => rnd());
  const smooth = new Float32Array(n);
  // A triangle kernel one pixel wide on each side.
  let wsum = 0;
  for (let k = -NOISE_SAMPLES + 1; k < NOISE_SAMPLES; k++) wsum += NOISE_SAMPLES - Math.abs(k);
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = -NOISE_SAMPLES + 1; k < NOISE_SAMPLES; k++) s += raw[j + NOISE_SAMPLES + k] * (NOISE_SAMPLES - Math.abs(k));
    smooth[j] = s / wsum;
  }
  // Back to the spread of uniform values (smoothing narrowed it), clamped to 0..1.
  let mean = 0, sq = 0;
  for (const v of smooth) mean += v / n;
  for (const v of smooth) sq += (v - mean) ** 2 / n;
  const gain = Math.sqrt(1 / 12 / sq);
  for (let j = 0; j < n; j++) smooth[j] = Math.min(1, Math.max(0, 0.5 + (smooth[j] - mean) * gain));
  return (x) => {
    const s = Math.min(n - 1, Math.max(0, x * NOISE_SAMPLES)), j = Math.min(n - 2, Math.floor(s)), f = s - j;
    return smooth[j] * (1 - f) + smooth[j + 1] * f;
  };
}

/**
 * `n` clumps across a rectangle, overlapping so that their bodies leave no gap. A strand's length falls
 * off with its distance from its clump's centre, so a clump ends in a point over the bottom `taper` of the
 * rectangle; strands end one by one with a short soft fade, (`fray`) the outermost strands at the rectangle's
 * sides are frayed (a card's edge; a sheet's region repeats side by side instead), and (`rootFade`) the strands start staggered over the top.
 */
function clumps(p: StrandPattern, r: Rect, n: number, taper: number, rootFade: number, fray: boolean, rnd: () => number): void {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const centre = Array.from({ length: n }, (_, j) => (j + 0.5 + (rnd() - 0.5) * 0.3) / n);
  const half = Array.from({ length: n }, () => (0.62 + 0.15 * rnd()) / n);
  const tip = Array.from({ length: n }, () => 0.9 + 0.1 * rnd());
  // Which clump each pixel column's strand belongs to, its distance from that clump's centre (0..1) and its own length jitter.
  const owner = new Int32Array(w), dist = new Float32Array(w), end = new Float32Array(w), start = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const s = (x + 0.5) / w;
    let best = 0, bd = Infinity;
    for (let j = 0; j < n; j++) {
      const d = Math.abs(s - centre[j]) / half[j];
      if (d < bd) [best, bd] = [j, d];
    }
    owner[x] = best;
    dist[x] = Math.min(1, bd);
    const d = dist[x];
    end[x] = tip[best] * (1 - taper * d * d) - 0.05 * taper * rnd() ** 2;
    start[x] = rootFade * rnd();
    // Frayed sides: the outermost strands of the rectangle are shorter and some missing.
    const edge = Math.min(s, 1 - s) * n;
    if (fray && edge < 0.12 && rnd() < 0.5) end[x] *= 0.5 + 0.5 * rnd();
    if (fray && edge < 0.03) end[x] = 0;
  }
  streaks(p, r, rnd, 0.12, rootFade + 0.1, 1, (x, along) => 0.8 + 0.2 * (1 - dist[x] ** 2) - 0.12 * smoothstepBetween(0.5, 1, along) * dist[x]);
  const fadeLen = 0.025;
  for (let y = 0; y < h; y++) {
    const along = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const a = Math.min(1, Math.max(0, (end[x] - along) / fadeLen)) * smoothstepBetween(start[x], start[x] + 0.02 + rootFade * 0.3, along);
      p.alpha[(r.y0 + y) * p.size + r.x0 + x] = Math.round(255 * a);
    }
  }
}

/**
 * Copies a region's border texels `g` pixels out into the gap around it, so that filtering and mip levels
 * at a region's edge (a shell's seam at the front, its pole, a sheet's repeats) read the region, not the
 * transparent gap.
 */
function pad(p: StrandPattern, r: Rect, g: number): void {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  for (let y = Math.max(0, r.y0 - g); y < Math.min(p.size, r.y1 + g); y++) {
    for (let x = Math.max(0, r.x0 - g); x < Math.min(p.size, r.x1 + g); x++) {
      if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) continue;
      const i = y * p.size + x, from = clamp(y, r.y0, r.y1 - 1) * p.size + clamp(x, r.x0, r.x1 - 1);
      p.alpha[i] = p.alpha[from];
      p.shade[i] = p.shade[from];
      p.tone[i] = p.tone[from];
    }
  }
}

/**
 * Over the bottom `feather` band of a region (a hairline) coverage ends strand by strand at random heights, each strand
 * a texel wide with its tip fading over 0.3 of the band. On 2.0's shell the band lies on 3-10 mm of the head (median
 * 5) and two texels across on 1.3 mm: strands two texels wide, cut off within a millimetre, stood along the forehead in steps.
 */
function hairlineTips(p: StrandPattern, r: Rect, feather: number, rnd: () => number): void {
  const band = Math.max(1, Math.round(feather * p.size));
  for (let x = r.x0; x < r.x1; x++) {
    const tip = 0.15 + 0.8 * rnd();
    for (let y = r.y1 - band; y < r.y1; y++) {
      const up = (r.y1 - y) / band;
      const keep = Math.min(1, Math.max(0, (up - tip) / 0.3 + 0.5));
      p.alpha[y * p.size + x] = Math.round(p.alpha[y * p.size + x] * keep);
    }
  }
}

/**
 * Stubble: a faint, even shadow of hair (coverage under the MASK cutoff of the writers, so a viewer that
 * cuts out draws the clean scalp, while the service's preview blends it over the skin), varying only
 * slowly: single hairs at this texture's scale would be grains of a few millimetres, which read as sand.
 */
function stubble(p: StrandPattern, r: Rect, rnd: () => number): void {
  const phase = rnd() * 6.28;
  for (let y = r.y0; y < r.y1; y++) for (let x = r.x0; x < r.x1; x++) {
    const i = y * p.size + x;
    p.alpha[i] = Math.round(30 + 8 * Math.sin(phase + x * 0.05) * Math.sin(y * 0.035));
    p.shade[i] = 0.4;
    p.tone[i] = 0.1;
  }
  hairlineTips(p, r, ATLAS.stubble.feather, rnd);
}

/**
 * Math.round clamped to a byte: from 0.5 on, c + 0.5 is exact or rounds within its integer, so truncation rounds alike.
 * At module level, one function for every call of tintHair: a closure made per call deoptimised its loop ("wrong
 * call target"), which then ran in the slower tiers, boxing a number per channel.
 */
const byte = (c: number) => (c >= 0.5 ? (c < 254.5 ? (c + 0.5) | 0 : 255) : 0);

/** The hair texture in the observed colours: sRGB, alpha the coverage. */
export function tintHair(colour: { base: Rgb; dark: Rgb; light: Rgb }): RgbaImage {
  const p = strandPattern();
  const rgba = new Uint8Array(p.size * p.size * 4);
  tintTexels(p, colour, rgba);
  return { width: p.size, height: p.size, rgba };
}

/**
 * A million texels on every avatar: the channels unrolled, the colours' differences taken once. A function of its
 * own, with nothing after the loop: in tintHair the loop's OSR code deoptimised at the cold code after it on every call.
 */
function tintTexels(p: StrandPattern, colour: { base: Rgb; dark: Rgb; light: Rgb }, rgba: Uint8Array): void {
  const { tone, shade, alpha } = p;
  const { base, dark, light } = colour;
  const [d0, d1, d2] = dark, [b0, b1, b2] = base;
  const [toBase0, toBase1, toBase2] = [b0 - d0, b1 - d1, b2 - d2];
  const [toLight0, toLight1, toLight2] = [light[0] - b0, light[1] - b1, light[2] - b2];
  for (let i = 0, o = 0; o < rgba.length; i++, o += 4) {
    const t = tone[i], s = shade[i];
    if (t < 0.5) {
      const f = t * 2;
      rgba[o] = byte((d0 + toBase0 * f) * s);
      rgba[o + 1] = byte((d1 + toBase1 * f) * s);
      rgba[o + 2] = byte((d2 + toBase2 * f) * s);
    } else {
      const f = t * 2 - 1;
      rgba[o] = byte((b0 + toLight0 * f) * s);
      rgba[o + 1] = byte((b1 + toLight1 * f) * s);
      rgba[o + 2] = byte((b2 + toLight2 * f) * s);
    }
    rgba[o + 3] = alpha[i];
  }
}
