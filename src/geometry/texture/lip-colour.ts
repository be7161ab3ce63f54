/**
 * Lips without teeth: a neutral avatar's mouth is closed, so the teeth a photo shows between its lips
 * must not reach the lips' texture. Inside the outer lip contour, pixels that look like teeth are replaced
 * by the lip colour measured on the visible lips; in an open mouth, so are dark pixels (the mouth's
 * inside, the shadow under the upper lip), whatever is not lip red (yellow or shaded teeth, the gaps between them)
 * with a rim around the teeth (their blurred edge), the whole opening, as the neutral's closed lips must not show
 * them (the detector read them as parted lips), and the specks all of it encloses. In a closed mouth only the slit
 * between the lips can show teeth. A moustache over an open mouth's upper lip stays too: the closed neutral mouth shows
 * it as the photo does. Dark pixels of a closed mouth stay: they are the seam closed
 * lips show (replacing them too made the renders less like the person). The replaced pixels then take the colour of
 * the lip around them. Works on a copy of the photo, which is then sampled as usual.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { channelMedians, median } from './sample.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';
import { signedPolygonDistance } from '../spatial/polygon-distance.ts';
import { rec601Luma } from '../render/srgb.ts';

type Point = [number, number];

/**
 * A pixel brighter than the lips and keeping less than this share of their saturation, (max - min) / max,
 * is teeth. (Skin, which the detected outer contour often takes in, is about as saturated as lips.)
 */
const TEETH_SATURATION = 0.5;
/**
 * In an open mouth, a pixel keeping less than this share of the lips' redness, (R - G) / (R + G + B), and of the
 * skin's around them is no lip either, however bright: yellow teeth, which are as saturated as pale lips, teeth in the
 * corners' shade, the gaps between them. (On the test photos the teeth's redness is 0.01-0.06, the lips' 0.13-0.4,
 * the skin's 0.05-0.2.)
 */
const TEETH_REDNESS = 0.35;
/** The skin's redness is measured within this many mouth widths around the lips. */
const SKIN_RING = 0.1;
/**
 * How far, in mouth widths, an open mouth's teeth grow into the lips around them: their blurred edge is as red as
 * neither.
 */
const GROW = 0.012;
/**
 * How far, in mouth widths, an open mouth's teeth reach past what the colour tests above take: through their shaded,
 * blurred edge, as red as neither teeth nor lips (less red than half-way between the two, no brighter than the
 * lips), where the detector's inner contour runs across the teeth (p12-a's upper row, under p08-a's upper lip).
 */
const TEETH_REACH = 0.04;
/** A pixel darker than the lips by this factor is the mouth's inside, a shadow or the seam: not lip colour. */
const INSIDE_DARKER = 0.55;
/**
 * The share of the lips' band, from the opening outwards, where an open mouth's dark pixels are its inside or the
 * shadow under the upper lip, which lie against the opening. Nearer the outer contour they may be the shade or beard
 * beyond a lip that the detected contour took in (under p08-a's, p05-a's and p12-a's smiling corners); replaced, they
 * ended in a hard-edged wedge of lip colour at the contour.
 */
const INSIDE_BAND = 2 / 3;
/**
 * Such a part of dark pixels is shade, and kept (the fill blends into it), when it meets dark pixels outside the contour
 * along this share of the mouth's width or more: shade runs on across the contour (p08-a 0.35, p12-a 0.34, p05-a 0.14
 * of the width), while the mouth's dark inside at a corner meets the contour where the corner's crease goes on (p01-a
 * 0.04-0.06, p07-a 0.02-0.03, p08-a's other corner 0.08).
 */
const SHADE_CONTACT = 0.1;
/**
 * A mouth whose inner contour is taller than this share of its width, both measured along the line through its
 * corners, is open.
 */
const OPEN_MOUTH = 0.08;

/** What a photo pixel is to the lips' repair (LipRepair.pixels). */
export const LipPixel = { outside: 0, kept: 1, replaced: 2 } as const;

export interface LipRepair {
  photo: RgbImage;
  /** The lip colour measured (the median of the lip-looking pixels between the contours). */
  colour: Rgb;
  /** Pixels replaced. */
  replaced: number;
  /** Per photo pixel, a LipPixel: inside the outer contour kept or replaced, or outside it. */
  pixels: Uint8Array;
}

/** The photo with the teeth-like pixels inside the outer lip contour replaced (contours: image points, closed loops). */
export function synthesiseLips(photo: RgbImage, outer: Point[], inner: Point[]): LipRepair {
  const xs = outer.map((p) => p[0]), ys = outer.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(photo.width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(photo.height - 1, Math.ceil(Math.max(...ys)));
  const { lip, all, opening } = mouthPixels(photo.width, outer, inner, [x0, y0, x1, y1]);
  const d = photo.data;
  // The lips' own colour: the median of the band between the contours, then again over the pixels that look like lip.
  const bandLuma = median(valuesOf(d, lip, luma)), bandSaturation = median(valuesOf(d, lip, saturation));
  const samples = lipLooking(d, lip, bandLuma, bandSaturation);
  const pixels = new Uint8Array(photo.width * photo.height);
  for (const i of all) pixels[i] = LipPixel.kept;
  if (samples.length === 0) return { photo, colour: [0, 0, 0], replaced: 0, pixels };
  const colour = channelMedians(d, samples);
  const hi = Math.max(...colour);
  const lipLuma = rec601Luma(colour);
  const lipSaturation = (hi - Math.min(...colour)) / (hi + 1);
  const out = new Uint8Array(d);
  const { width, height } = mouthExtent(outer, inner);
  const open = height > OPEN_MOUTH * width;
  // Through a closed mouth's lips, teeth show only in the slit between them: elsewhere pale pixels are the lips' own
  // highlights.
  const reach = (OPEN_MOUTH / 2) * width;
  const inLips = new Set(all);
  const mask = open
    ? openMouthMask(photo, { all, opening, inLips }, { luma: lipLuma, saturation: lipSaturation, colour }, [x0, y0, x1, y1], width, { outer, inner })
    : new Set(slitTeeth(d, all, lipLuma, lipSaturation, inner, photo.width, reach));
  for (const i of mask) {
    out.set(colour, i * 3);
    pixels[i] = LipPixel.replaced;
  }
  fillFromAround(out, photo.width, [...mask], inLips);
  return { photo: { width: photo.width, height: photo.height, data: out }, colour, replaced: mask.size, pixels };
}

/**
 * An open mouth's pixels to replace: the opening, the dark pixels, and the teeth (as the lips' and the skin's colours
 * tell them) grown by GROW mouth widths, with what they enclose. `box` holds the lips, `width` is the mouth's.
 */
function openMouthMask(
  photo: RgbImage,
  px: { all: number[]; opening: number[]; inLips: ReadonlySet<number> },
  lip: { luma: number; saturation: number; colour: Rgb },
  box: number[],
  width: number,
  { outer, inner }: { outer: Point[]; inner: Point[] },
): Set<number> {
  const d = photo.data;
  const hair = moustache(photo, outer, lip.luma, box, width);
  // Teeth are less red than the lips and than the skin, which the detected outer contour often takes in (against
  // red lipstick alone, that skin reads as teeth).
  const red = Math.min(rednessOf(...lip.colour), skinRedness(photo, px.inLips, box, Math.round(SKIN_RING * width)));
  const found = openMouthTeeth(d, px.all, lip.luma, lip.saturation, red);
  const teeth = grown(new Set(found), px.inLips, photo.width, Math.round(GROW * width));
  const mask = new Set([...px.opening, ...darkPixels(d, px, lip.luma, hair, { outer, inner, width }, photo.width), ...teeth]);
  if (found.length > 0) {
    const most = (median(valuesOf(d, found, redness)) + rednessOf(...lip.colour)) / 2;
    grown(mask, px.inLips, photo.width, Math.round(TEETH_REACH * width), { d, most, lipLuma: lip.luma });
  }
  return withEnclosed(mask, px.inLips, photo.width);
}

/**
 * The outer contour's width and the inner contour's height, along and across the line through the outer contour's
 * corners (its leftmost and rightmost points): in the image's own axes a tilted head's closed mouth is as tall as an
 * open one (p11-a's, rolled 4 degrees, read open and lost its pale lower lip as teeth).
 */
function mouthExtent(outer: Point[], inner: Point[]): { width: number; height: number } {
  const { ux, uy, span } = mouthLine(outer);
  let lo = Infinity, hi = -Infinity;
  for (const p of inner) {
    const across = ux * p[1] - uy * p[0];
    lo = Math.min(lo, across);
    hi = Math.max(hi, across);
  }
  return { width: span, height: hi - lo };
}

/*
 * The per-pixel tests below are module functions reading the photo's bytes (`d`: packed RGB) by pixel index, not
 * closures over them: closures made per photo were compiled again on every avatar.
 */

/** The pixels (indices) inside the outer contour within `box` (x0, y0, x1, y1): all, the lips' band, the opening. */
function mouthPixels(width: number, outer: Point[], inner: Point[], box: number[]): { lip: number[]; all: number[]; opening: number[] } {
  const lip: number[] = [], all: number[] = [], opening: number[] = [];
  for (let y = box[1]; y <= box[3]; y++) {
    for (let x = box[0]; x <= box[2]; x++) {
      if (!insidePolygon(outer, x + 0.5, y + 0.5)) continue;
      all.push(y * width + x);
      (insidePolygon(inner, x + 0.5, y + 0.5) ? opening : lip).push(y * width + x);
    }
  }
  return { lip, all, opening };
}

function valuesOf(d: Uint8Array, pixels: number[], of: (d: Uint8Array, i: number) => number): number[] {
  const out: number[] = new Array(pixels.length);
  for (let k = 0; k < pixels.length; k++) out[k] = of(d, pixels[k]);
  return out;
}

function luma(d: Uint8Array, i: number): number {
  return rec601Luma(d, i * 3);
}

function redness(d: Uint8Array, i: number): number {
  return rednessOf(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
}

/** (R - G) / (R + G + B): how much redder than yellow or grey a colour is (its brightness aside). */
function rednessOf(r: number, g: number, b: number): number {
  return (r - g) / (r + g + b + 1);
}

function saturation(d: Uint8Array, i: number): number {
  const hi = Math.max(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
  return (hi - Math.min(d[i * 3], d[i * 3 + 1], d[i * 3 + 2])) / (hi + 1);
}

/** Brighter than lips of luma `l` and keeping less than TEETH_SATURATION of their saturation `s`. */
function looksLikeTeeth(d: Uint8Array, i: number, l: number, s: number): boolean {
  return luma(d, i) > l && saturation(d, i) < TEETH_SATURATION * s;
}

/** The band's pixels that look like lip: not teeth, not much darker. */
function lipLooking(d: Uint8Array, band: number[], bandLuma: number, bandSaturation: number): number[] {
  const out: number[] = [];
  for (const i of band) if (!looksLikeTeeth(d, i, bandLuma, bandSaturation) && luma(d, i) >= INSIDE_DARKER * bandLuma) out.push(i);
  return out;
}

/**
 * An open mouth's teeth: pixels inside the outer contour that look like teeth or keep less than TEETH_REDNESS of
 * `red`, the lips' or the skin's redness, whichever is less.
 */
function openMouthTeeth(d: Uint8Array, all: number[], lipLuma: number, lipSaturation: number, red: number): number[] {
  const out: number[] = [];
  for (const i of all) if (looksLikeTeeth(d, i, lipLuma, lipSaturation) || redness(d, i) < TEETH_REDNESS * red) out.push(i);
  return out;
}

/**
 * An open mouth's inside: pixels inside the outer contour darker than the lips, but for `hair` over them and for the
 * shade beyond the lips (shadeBeyondLips) among those past INSIDE_BAND of the way from the opening (the inner contour)
 * to the outer contour.
 */
function darkPixels(d: Uint8Array, px: { all: number[]; inLips: ReadonlySet<number> }, lipLuma: number, hair: ReadonlySet<number>, mouth: { outer: Point[]; inner: Point[]; width: number }, imageWidth: number): number[] {
  const dark = INSIDE_DARKER * lipLuma;
  const out: number[] = [], rim = new Set<number>();
  for (const i of px.all) {
    if (luma(d, i) >= dark || hair.has(i)) continue;
    const x = (i % imageWidth) + 0.5, y = Math.floor(i / imageWidth) + 0.5;
    const fromOpening = Math.max(0, -signedPolygonDistance(mouth.inner, x, y));
    if (fromOpening <= INSIDE_BAND * (fromOpening + signedPolygonDistance(mouth.outer, x, y))) out.push(i);
    else rim.add(i);
  }
  const shade = shadeBeyondLips(d, rim, px.inLips, dark, imageWidth, SHADE_CONTACT * mouth.width);
  for (const i of rim) if (!shade.has(i)) out.push(i);
  return out;
}

/**
 * The parts (4-connected) of `rim` that meet pixels darker than `dark` outside the lips (`inLips`) at `contact` of their
 * pixels or more: shade running on across the outer contour.
 */
function shadeBeyondLips(d: Uint8Array, rim: ReadonlySet<number>, inLips: ReadonlySet<number>, dark: number, imageWidth: number, contact: number): Set<number> {
  const shade = new Set<number>(), seen = new Set<number>();
  for (const seed of rim) {
    if (seen.has(seed)) continue;
    const part = [seed];
    seen.add(seed);
    let meets = 0;
    for (let k = 0; k < part.length; k++) {
      let touches = false;
      for (const q of [part[k] - 1, part[k] + 1, part[k] - imageWidth, part[k] + imageWidth]) {
        if (!inLips.has(q)) touches ||= luma(d, q) < dark;
        else if (rim.has(q) && !seen.has(q)) {
          seen.add(q);
          part.push(q);
        }
      }
      if (touches) meets++;
    }
    if (meets >= contact) for (const i of part) shade.add(i);
  }
  return shade;
}

/** How far beyond the outer lip contour, in mouth widths, a dark part is hair rather than the mouth's inside. */
const HAIR_REACH = 0.06;
/** The share of the mouth's width, about its middle, where a moustache is looked for: the corners are the mouth's. */
const HAIR_SPAN = 0.8;
/** A dark part above the lips spanning at least this share of the mouth's width is a moustache. */
const HAIR_WIDE = 0.5;

/** The mouth's line through its outer contour's ends: its middle, unit direction and width (image pixels). */
interface MouthLine {
  mx: number;
  my: number;
  ux: number;
  uy: number;
  span: number;
}

function mouthLine(outer: Point[]): MouthLine {
  let left = outer[0], right = outer[0];
  for (const p of outer) {
    if (p[0] < left[0]) left = p;
    if (p[0] > right[0]) right = p;
  }
  const span = Math.hypot(right[0] - left[0], right[1] - left[1]);
  return { mx: (left[0] + right[0]) / 2, my: (left[1] + right[1]) / 2, ux: (right[0] - left[0]) / span, uy: (right[1] - left[1]) / span, span };
}

/** How far along the mouth's line from its middle a pixel lies. */
function alongMouth(line: MouthLine, x: number, y: number): number {
  return (x - line.mx) * line.ux + (y - line.my) * line.uy;
}

/** Above the mouth's line (image y grows down) and within HAIR_SPAN of its width about the middle. */
function overMouthMiddle(line: MouthLine, x: number, y: number): boolean {
  const up = (x - line.mx) * line.uy - (y - line.my) * line.ux;
  return up > 0 && Math.abs(alongMouth(line, x, y)) < (HAIR_SPAN / 2) * line.span;
}

/**
 * A moustache over the upper lip: the parts of dark pixels above the mouth's middle that reach more than HAIR_REACH
 * mouth widths beyond the outer contour and span HAIR_WIDE of the mouth. The closed neutral mouth shows it over the
 * lip as the photo does; replaced as the mouth's inside, it left a lip-coloured slab cut off by the contour (p08-a).
 * The mouth's inside reaches no farther than the lips; at the corners it may meet a beard or a smile's crease, and a
 * dark corner of a skewed mouth outside its detected contour is no wider than the corner (p12-a).
 */
function moustache(photo: RgbImage, outer: Point[], lipLuma: number, box: number[], width: number): Set<number> {
  const w = photo.width, d = photo.data, line = mouthLine(outer);
  const reach = HAIR_REACH * width, margin = Math.ceil(3 * reach), darkBelow = INSIDE_DARKER * lipLuma;
  const x0 = Math.max(1, box[0] - margin), x1 = Math.min(w - 2, box[2] + margin);
  const y0 = Math.max(1, box[1] - margin), y1 = Math.min(photo.height - 2, box[3] + margin);
  const hair = new Set<number>(), seen = new Set<number>();
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const seed = y * w + x;
      if (seen.has(seed) || luma(d, seed) >= darkBelow || !overMouthMiddle(line, x + 0.5, y + 0.5)) continue;
      if (signedPolygonDistance(outer, x + 0.5, y + 0.5) >= -reach) continue;
      // The dark part joined to this seed (4-neighbours, within the box, over the mouth's middle) and its span.
      const part = [seed];
      seen.add(seed);
      let lo = Infinity, hi = -Infinity;
      for (let k = 0; k < part.length; k++) {
        const i = part[k], px = i % w, py = (i - px) / w;
        const a = alongMouth(line, px + 0.5, py + 0.5);
        lo = Math.min(lo, a);
        hi = Math.max(hi, a);
        for (const q of [i - 1, i + 1, i - w, i + w]) {
          const qx = q % w, qy = (q - qx) / w;
          if (qx < x0 || qx > x1 || qy < y0 || qy > y1 || seen.has(q) || luma(d, q) >= darkBelow || !overMouthMiddle(line, qx + 0.5, qy + 0.5)) continue;
          seen.add(q);
          part.push(q);
        }
      }
      if (hi - lo >= HAIR_WIDE * line.span) for (const i of part) hair.add(i);
    }
  }
  return hair;
}

/** A closed mouth's teeth: pixels that look like teeth within `reach` of the inner contour. */
function slitTeeth(d: Uint8Array, all: number[], lipLuma: number, lipSaturation: number, inner: Point[], width: number, reach: number): number[] {
  const out: number[] = [];
  for (const i of all) {
    if (looksLikeTeeth(d, i, lipLuma, lipSaturation) && signedPolygonDistance(inner, (i % width) + 0.5, Math.floor(i / width) + 0.5) > -reach) out.push(i);
  }
  return out;
}

/** An open mouth's teeth's shaded edge, as `grown` goes through it: less red than `most`, no brighter than the lips. */
interface TeethEdge {
  d: Uint8Array;
  most: number;
  lipLuma: number;
}

/** A pixel on the teeth's shaded edge: the lips' own gloss, as little red, is brighter than they are (p13-a's lower lip). */
function edgeOfTeeth(edge: TeethEdge, i: number): boolean {
  return redness(edge.d, i) < edge.most && luma(edge.d, i) <= edge.lipLuma;
}

/** `mask` grown by up to `steps` pixels (4-neighbours) within `inside`; with `through`, only through its edge's pixels. */
function grown(mask: Set<number>, inside: ReadonlySet<number>, width: number, steps: number, through?: TeethEdge): Set<number> {
  let front = [...mask];
  for (let s = 0; s < steps && front.length > 0; s++) {
    const next: number[] = [];
    for (const i of front) {
      for (const q of [i - 1, i + 1, i - width, i + width]) {
        if (inside.has(q) && !mask.has(q) && (!through || edgeOfTeeth(through, q))) {
          mask.add(q);
          next.push(q);
        }
      }
    }
    front = next;
  }
  return mask;
}

/**
 * `mask` with the kept pixels of `inside` that no path of kept pixels joins to its edge: in an open mouth, lip-coloured
 * specks between the teeth (the dark gaps between them as the blur shows them) or gums, not lip.
 */
function withEnclosed(mask: Set<number>, inside: ReadonlySet<number>, width: number): Set<number> {
  const reached = new Set<number>();
  const front: number[] = [];
  for (const i of inside) {
    if (kept(i, inside, mask) && (!inside.has(i - 1) || !inside.has(i + 1) || !inside.has(i - width) || !inside.has(i + width))) {
      reached.add(i);
      front.push(i);
    }
  }
  while (front.length > 0) {
    const i = front.pop()!;
    for (const q of [i - 1, i + 1, i - width, i + width]) {
      if (kept(q, inside, mask) && !reached.has(q)) {
        reached.add(q);
        front.push(q);
      }
    }
  }
  for (const i of inside) if (!mask.has(i) && !reached.has(i)) mask.add(i);
  return mask;
}

/**
 * A pixel withEnclosed keeps: inside, not masked. A module function: as a closure made per call, its code built into
 * withEnclosed's died with it, and that was compiled again every job.
 */
const kept = (q: number, inside: ReadonlySet<number>, mask: Set<number>): boolean => inside.has(q) && !mask.has(q);

/** The median redness of the pixels outside the lips (`inLips`) within `margin` pixels of their box: the skin's. */
function skinRedness(photo: RgbImage, inLips: ReadonlySet<number>, box: number[], margin: number): number {
  const pixels: number[] = [];
  const [x0, y0] = [Math.max(0, box[0] - margin), Math.max(0, box[1] - margin)];
  const [x1, y1] = [Math.min(photo.width - 1, box[2] + margin), Math.min(photo.height - 1, box[3] + margin)];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (!inLips.has(y * photo.width + x)) pixels.push(y * photo.width + x);
  return median(valuesOf(photo.data, pixels, redness));
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
  for (let k = 0; k < pixels.length; k++) {
    slot.set(pixels[k], k);
    for (let c = 0; c < 3; c++) values[k * 3 + c] = rgb[pixels[k] * 3 + c];
  }
  // Each pixel's lip neighbours (up to four, from start[k] on): the slot of a replaced one, or -1 - (its pixel index)
  // for a kept one; in flat arrays, as the passes below read them some 200 times each.
  const start = new Int32Array(pixels.length + 1);
  const near = new Int32Array(pixels.length * 4);
  for (let k = 0; k < pixels.length; k++) {
    let count = start[k];
    for (const q of [pixels[k] - 1, pixels[k] + 1, pixels[k] - width, pixels[k] + width]) if (lips.has(q)) near[count++] = slot.get(q) ?? -1 - q;
    start[k + 1] = count;
  }
  for (let pass = 0; pass < FILL_PASSES; pass++) {
    for (let k = 0; k < pixels.length; k++) {
      const from = start[k], to = start[k + 1];
      if (from === to) continue;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let e = from; e < to; e++) {
          const q = near[e];
          sum += q >= 0 ? values[q * 3 + c] : rgb[(-1 - q) * 3 + c];
        }
        values[k * 3 + c] = sum / (to - from);
      }
    }
  }
  for (let k = 0; k < pixels.length; k++) for (let c = 0; c < 3; c++) rgb[pixels[k] * 3 + c] = Math.round(values[k * 3 + c]);
}
