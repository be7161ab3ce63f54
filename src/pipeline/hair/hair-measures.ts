/**
 * Measures of a hair region in face-frame terms: colour, length class, fringe, parting, volume.
 * Lengths are read against the face's own proportions (face-frame heights from the chin), not pixels.
 */
import type { Rgb } from '../../geometry/texture/rgb-image.ts';
import { isPersonAt, type PersonMatte } from '../face/person-matte.ts';
import type { HairLength, HairParting } from './observation.ts';
import { featuresOf, type HairGrid } from './hair-grid.ts';
import { fromFace, toFace, type FaceFrame } from './face-frame.ts';
import { GATE, colourClusters, distance2, fitColourModel } from './colour-model.ts';
import { luminance } from '../../geometry/render/srgb.ts';

/** Luminance slices (fractions of the hair cells sorted by brightness) giving the dark and light ends. */
const DARK_SLICE = [0.05, 0.2];
const LIGHT_SLICE = [0.8, 0.95];


/**
 * A hair region's colours come in up to this many clusters: the hair itself, and what the region took in
 * besides (a headband, a clip, a patch of background at the matte's edge).
 */
const COLOUR_CLUSTERS = 2;

/**
 * Base colour (per-channel median) and the mean colours of a dark and a light slice, of the region's main
 * colour: its largest colour cluster and every cell that cluster's model explains (the same hair in light
 * and shade), not a headband or an accessory beside it. Only cells whose four neighbours are hair count,
 * so the matte's soft edge and the background do not tint the colour.
 */
export function hairColour(grid: HairGrid, hair: Uint8Array): { base: Rgb; dark: Rgb; light: Rgb } | undefined {
  const { columns } = grid;
  let cells: number[] = [];
  const all: number[] = [];
  for (let c = 0; c < hair.length; c++) {
    if (!hair[c]) continue;
    all.push(c);
    if (hair[c - 1] && hair[c + 1] && hair[c - columns] && hair[c + columns]) cells.push(c);
  }
  if (cells.length < 8) cells = all;
  if (cells.length === 0) return undefined;
  const features = featuresOf(grid, cells);
  const main = fitColourModel(picked(features, colourClusters(features, COLOUR_CLUSTERS)[0]));
  if (main) {
    const explained: number[] = [];
    for (const c of cells) if (distance2(main, grid.feature, c * 3) < GATE) explained.push(c);
    if (explained.length > 0) cells = explained;
  }
  const bright = new Float32Array(hair.length);
  for (const c of cells) bright[c] = luminance(grid.rgb, c * 3);
  cells.sort((a, b) => bright[a] - bright[b]);
  return {
    base: [channelMedian(grid, cells, 0), channelMedian(grid, cells, 1), channelMedian(grid, cells, 2)],
    dark: sliceMean(grid, cells, DARK_SLICE[0], DARK_SLICE[1]),
    light: sliceMean(grid, cells, LIGHT_SLICE[0], LIGHT_SLICE[1]),
  };
}

// The measures' helpers are module functions, not closures made per call: each measure runs once per job, and a
// closure it inlined died with the job and took the measure's optimized code with it (compiled again every job).

function picked<T>(items: T[], indices: number[]): T[] {
  const out: T[] = [];
  for (const i of indices) out.push(items[i]);
  return out;
}

/** The mean colour of the cells (sorted by brightness) from share lo to share hi of them. */
function sliceMean(grid: HairGrid, cells: number[], lo: number, hi: number): Rgb {
  const from = Math.floor(lo * cells.length);
  const to = Math.max(from + 1, Math.floor(hi * cells.length));
  const sum = [0, 0, 0];
  for (let i = from; i < to; i++) for (let k = 0; k < 3; k++) sum[k] += grid.rgb[cells[i] * 3 + k];
  return [Math.round(sum[0] / (to - from)), Math.round(sum[1] / (to - from)), Math.round(sum[2] / (to - from))];
}

/** The upper median of channel k over the cells. */
function channelMedian(grid: HairGrid, cells: number[], k: number): number {
  const v = new Uint8Array(cells.length);
  for (let i = 0; i < cells.length; i++) v[i] = grid.rgb[cells[i] * 3 + k];
  v.sort();
  return v[v.length >> 1];
}

/** Height bands (face-frame t) for the tip of the longest hair. */
const BIN = 0.05;
/** A band counts as hair when hair fills at least this share of one face width across it. */
const TIP_SHARE = 0.08;
/**
 * Length classes by the lowest hair band (face heights above the chin): above the nose tip the ears are
 * free (short); hair ending above the jaw's corner covers the ears; the chin's length reaches halfway
 * down the neck; shoulders sit about one face height below the chin.
 */
const LENGTH_BOUNDS: [number, HairLength][] = [
  [0.45, 'short'],
  [0.05, 'ear'],
  [-0.5, 'chin'],
  [-1.0, 'shoulder'],
];

/** The lowest face-frame height that hair fills noticeably; undefined without hair. */
export function hairTip(grid: HairGrid, hair: Uint8Array, frame: FaceFrame): number | undefined {
  const counts = new Map<number, number>();
  for (let c = 0; c < hair.length; c++) {
    if (!hair[c]) continue;
    const b = Math.floor(grid.t[c] / BIN);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  const cellsPerBand = ((BIN * frame.height) / grid.step) * (frame.width / grid.step);
  let lowest: number | undefined;
  for (const [b, n] of counts) if (n >= TIP_SHARE * cellsPerBand) lowest = lowest === undefined ? b : Math.min(lowest, b);
  return lowest === undefined ? undefined : lowest * BIN;
}

export function lengthClass(tip: number): HairLength {
  for (const [bound, length] of LENGTH_BOUNDS) if (tip > bound) return length;
  return 'long';
}

/** The mean height of the length classes with two bounds (ear, chin, shoulder): one class's step, in face heights. */
const CLASS_SPAN = (LENGTH_BOUNDS[0][0] - LENGTH_BOUNDS[LENGTH_BOUNDS.length - 1][0]) / (LENGTH_BOUNDS.length - 1);

/**
 * How far, in classes, a hair tip (face heights above the chin) lies outside a length class's band: 0 inside it,
 * a fraction just outside it. A tip at a class's bound is as near the next class as its own (p09-a's bob ends at
 * the jaw, 0.05 above the ear/chin bound). Undefined for classes without a band (shaved, none).
 */
export function lengthGap(tip: number, length: HairLength): number | undefined {
  const i = LENGTH_BOUNDS.findIndex(([, l]) => l === length);
  const top = i > 0 ? LENGTH_BOUNDS[i - 1][0] : i === 0 ? Infinity : length === 'long' ? LENGTH_BOUNDS[LENGTH_BOUNDS.length - 1][0] : undefined;
  if (top === undefined) return undefined;
  const bottom = i >= 0 ? LENGTH_BOUNDS[i][0] : -Infinity;
  return (Math.max(0, tip - top) + Math.max(0, bottom - tip)) / CLASS_SPAN;
}

/** The forehead of a bare face: between the brows' outer ends, from above the brows to the average hairline. */
export interface Forehead {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/** Share of each half of the forehead (image-left half, image-right half) and of all of it that hair covers. */
export function foreheadCover(grid: HairGrid, hair: Uint8Array, f: Forehead): { all: number; imageLeft: number; imageRight: number } {
  const n = [0, 0];
  const h = [0, 0];
  const mid = (f.left + f.right) / 2;
  for (let c = 0; c < hair.length; c++) {
    const s = grid.s[c];
    const t = grid.t[c];
    if (s < f.left || s > f.right || t < f.bottom || t > f.top) continue;
    const side = s < mid ? 0 : 1;
    n[side]++;
    h[side] += hair[c];
  }
  return { all: share(h[0] + h[1], n[0] + n[1]), imageLeft: share(h[0], n[0]), imageRight: share(h[1], n[1]) };
}

function share(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/** Column width (face widths) of the hairline profile, and how far from the middle a parting is looked for. */
const PARTING_COLUMN = 0.04;
const PARTING_HALF_WIDTH = 0.3;
/** The profile is read up to this height (face-frame t); a column with no hair below it counts as this high. */
const PROFILE_TOP = 1.6;
/** A parting's notch rises this much (face heights) above the hairline on both sides of it... */
const NOTCH_DEPTH = 0.08;
/** ...within this distance (face widths). */
const NOTCH_REACH = 0.3;
/** Columns within this height of the notch's top belong to it (a flat top is centred). */
const NOTCH_FLAT = 0.01;
/** Within this distance of the middle (face widths), a parting is central. */
const CENTRE_PARTING = 0.1;
/** Halves of the forehead covered this differently show hair swept away from a side parting. */
const SWEEP_CONTRAST = 0.25;

/**
 * The parting. Hair falling to both sides of a parting frames the forehead in an arch or a notch: the
 * bare forehead reaches up to it, higher than on either side. The profile is the lowest hair above the
 * brows, column by column; its deepest notch is the parting (a flat hairline, combed back, has none). Without a notch, hair covering one half of
 * the forehead more than the other was swept from a parting on the barer side. Sides are the person's
 * own: their left is the image's right.
 */
export function findParting(grid: HairGrid, hair: Uint8Array, fromHeight: number, cover: { imageLeft: number; imageRight: number }): HairParting {
  const bins = Math.round((2 * PARTING_HALF_WIDTH) / PARTING_COLUMN);
  const profile = new Array<number>(bins).fill(PROFILE_TOP);
  for (let c = 0; c < hair.length; c++) {
    const t = grid.t[c];
    if (!hair[c] || t < fromHeight || t > PROFILE_TOP) continue;
    const b = Math.floor((grid.s[c] + PARTING_HALF_WIDTH) / PARTING_COLUMN);
    if (b >= 0 && b < bins) profile[b] = Math.min(profile[b], t);
  }
  const reach = Math.round(NOTCH_REACH / PARTING_COLUMN);
  let best = -1;
  let bestDepth = NOTCH_DEPTH;
  for (let i = 0; i < bins; i++) {
    if (profile[i] >= PROFILE_TOP) continue; // no hair in the column: not a parting, an open forehead
    const left = Math.min(...profile.slice(Math.max(0, i - reach), i));
    const right = Math.min(...profile.slice(i + 1, i + 1 + reach));
    const depth = profile[i] - Math.max(left, right);
    if (depth >= bestDepth) {
      best = i;
      bestDepth = depth;
    }
  }
  if (best >= 0) {
    let from = best;
    let to = best;
    while (from > 0 && profile[from - 1] >= profile[best] - NOTCH_FLAT) from--;
    while (to < bins - 1 && profile[to + 1] >= profile[best] - NOTCH_FLAT) to++;
    return sideOf(((from + to) / 2 + 0.5) * PARTING_COLUMN - PARTING_HALF_WIDTH);
  }
  if (Math.abs(cover.imageLeft - cover.imageRight) >= SWEEP_CONTRAST) return cover.imageLeft < cover.imageRight ? 'right' : 'left';
  return 'none';
}

function sideOf(s: number): HairParting {
  return Math.abs(s) < CENTRE_PARTING ? 'centre' : s > 0 ? 'left' : 'right';
}

/**
 * Width of the person's silhouette at temple height (walking out from the face's middle along the
 * matte) over the width between the temples' landmarks.
 */
export function silhouetteVolume(matte: PersonMatte, frame: FaceFrame, temples: [[number, number], [number, number]]): number {
  const [a, b] = temples.map(([x, y]) => toFace(frame, x, y));
  const t = (a[1] + b[1]) / 2;
  const inside = (s: number) => isPersonAt(matte, ...fromFace(frame, s, t));
  const ds = 1 / frame.width;
  let left = 0;
  while (left > -3 && inside(left - ds)) left -= ds;
  let right = 0;
  while (right < 3 && inside(right + ds)) right += ds;
  return (right - left) / Math.max(1e-6, Math.abs(b[0] - a[0]));
}
