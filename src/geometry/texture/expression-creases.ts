/**
 * The creases an expression makes, eased out of the photo before it is baked (issue 19, "A neutral expression"): a
 * smile folds the cheeks beside the nose and the mouth into dark lines, a squint creases the lower lids, raised brows
 * the forehead. Un-warped onto the neutral head they stayed, and the neutral face still looked as if it smiled. Where
 * the fitted expression moved the face, a pixel in a dark line is brought towards its neighbourhood's colour, as far
 * as the expression moved the skin there. Dark spots (freckles, moles) are not lines and stay, and so do the eyes,
 * brows and lips, and a beard or a shadow darker than the skin around it.
 */
import type { RgbImage, Rgb } from './rgb-image.ts';
import { rec601Luma } from '../render/srgb.ts';
import type { ArkitName } from '../expressions/arkit.ts';
import { FEATURE } from './photo-features.ts';

/** The expression shapes that crease the skin; an open jaw, a lowered lip or a blink do not. */
export const CREASING_SHAPES: ReadonlySet<ArkitName> = new Set<ArkitName>([
  'mouthSmileLeft', 'mouthSmileRight', 'mouthFrownLeft', 'mouthFrownRight', 'mouthUpperUpLeft', 'mouthUpperUpRight', 'mouthPucker',
  'eyeSquintLeft', 'eyeSquintRight', 'cheekSquintLeft', 'cheekSquintRight', 'browDownLeft', 'browDownRight', 'browInnerUp',
  'browOuterUpLeft', 'browOuterUpRight',
]);

export interface CreaseEasing {
  /** Face points in image pixels (x, y). */
  points: Float32Array;
  /** Per point, how far (cm) the creasing shapes of the photo's expression moved it. */
  motion: Float32Array;
  pixelsPerCm: number;
  /** Per pixel, non-zero on the eyes, brows and lips, which keep their own lines. */
  features?: Uint8Array;
  /** The photo's skin tone (sRGB, as photographed). */
  skin: Rgb;
}

/**
 * A point moved this far (cm) or more has the creases around it taken out in full; less, in part, as the square of
 * its share of this: the skin takes up a small motion by stretching, and a mild expression barely creases it (taken out
 * linearly from 0.25 cm, the creases of mild smiles went too, and the previews' likeness to their photos fell by 0.004).
 */
const FULL_MOTION = 0.5;
/** A share at or under this eases nothing. */
const NO_SHARE = 0.01;
/** A point's share reaches this far (cm, the Gaussian's sigma). */
const REACH = 0.6;
/** A crease pixel takes the mean colour of about this far around it (cm): a smile's fold is up to 1 cm wide. */
const NEIGHBOURHOOD = 0.6;
/** Scales (cm) at which dark lines are looked for: a fine line, a fold. */
const LINE_SCALES = [0.08, 0.25];
/** A neighbourhood darker than this share of the skin tone is a beard or a shadow, not a crease in skin. */
const LEAST = 0.6;
/** The share mask's cell, px. */
const CELL = 4;

/** The photo with the expression's creases eased (a copy), or the photo itself where the expression moved nothing. */
export function easeExpressionCreases(photo: RgbImage, e: CreaseEasing): RgbImage {
  const reach = REACH * e.pixelsPerCm;
  const box = movedBox(e, reach, photo.width, photo.height);
  if (!box) return photo;
  const out = { width: photo.width, height: photo.height, data: photo.data.slice() };
  const { left, top, w, h } = box;
  const mask = shareMask(e, photo.width, reach, left, top, w, h);
  const luma = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) luma[y * w + x] = rec601Luma(photo.data, ((y + top) * photo.width + x + left) * 3);
  const mean = colourMeans(photo, box, NEIGHBOURHOOD * e.pixelsPerCm);
  const lines = LINE_SCALES.map((s) => lineness(luma, w, h, Math.max(1, s * e.pixelsPerCm)));
  const least = LEAST * rec601Luma(e.skin);
  const features = e.features;
  const rgb = new Float32Array(3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const m = readGrid(mask, x, y);
      if (m <= NO_SHARE) continue;
      const p = (y + top) * photo.width + x + left;
      if (features && features[p]) continue;
      let line = 0;
      for (let k = 0; k < lines.length; k++) line = Math.max(line, readGrid(lines[k], x, y));
      const share = m * line;
      if (share <= NO_SHARE) continue;
      for (let c = 0; c < 3; c++) rgb[c] = readGrid(mean[c], x, y);
      const around = rec601Luma(rgb);
      const i = y * w + x;
      if (around < least || luma[i] >= around) continue;
      for (let c = 0; c < 3; c++) out.data[p * 3 + c] = Math.round(photo.data[p * 3 + c] + share * (rgb[c] - photo.data[p * 3 + c]));
    }
  }
  return out;
}

/** A point's share of the easing, from how far (cm) it moved. */
function shareOf(motion: number): number {
  return Math.min(1, (motion / FULL_MOTION) ** 2);
}

/** The image box the moved points' shares reach, or none. */
function movedBox(e: CreaseEasing, reach: number, width: number, height: number) {
  let x0 = width, y0 = height, x1 = 0, y1 = 0;
  for (let i = 0; i < e.motion.length; i++) {
    if (shareOf(e.motion[i]) <= NO_SHARE) continue;
    const x = e.points[i * 2], y = e.points[i * 2 + 1];
    x0 = Math.min(x0, x - 2 * reach);
    x1 = Math.max(x1, x + 2 * reach);
    y0 = Math.min(y0, y - 2 * reach);
    y1 = Math.max(y1, y + 2 * reach);
  }
  const left = Math.max(0, Math.floor(x0)), top = Math.max(0, Math.floor(y0));
  const w = Math.min(width, Math.ceil(x1)) - left, h = Math.min(height, Math.ceil(y1)) - top;
  return w > 0 && h > 0 ? { left, top, w, h } : undefined;
}

/** The points' shares, each spread as a Gaussian, the largest kept, on a grid of CELL px; the lips' points have none. */
function shareMask(e: CreaseEasing, width: number, reach: number, left: number, top: number, w: number, h: number): Grid {
  const cols = Math.ceil(w / CELL), rows = Math.ceil(h / CELL);
  const data = new Float32Array(cols * rows);
  const span = Math.ceil((2 * reach) / CELL);
  for (let i = 0; i < e.motion.length; i++) {
    const s = shareOf(e.motion[i]);
    if (s <= NO_SHARE || onLips(e, i, width)) continue;
    // In the grid's coordinates, where readGrid puts the cells' centres.
    const gx = (e.points[i * 2] - left + 0.5) / CELL - 0.5, gy = (e.points[i * 2 + 1] - top + 0.5) / CELL - 0.5;
    for (let r = Math.max(0, Math.floor(gy) - span); r <= Math.min(rows - 1, Math.ceil(gy) + span); r++) {
      for (let c = Math.max(0, Math.floor(gx) - span); c <= Math.min(cols - 1, Math.ceil(gx) + span); c++) {
        const d2 = ((c - gx) ** 2 + (r - gy) ** 2) * CELL * CELL;
        const v = s * Math.exp(-d2 / (2 * reach * reach));
        if (v > data[r * cols + c]) data[r * cols + c] = v;
      }
    }
  }
  return { data, cols, rows, block: CELL };
}

/** Values on a grid of `block`-pixel blocks, read back bilinearly at the blocks' centres. */
interface Grid {
  data: Float32Array;
  cols: number;
  rows: number;
  block: number;
}

/** A block is about a third of `scale` (px) a side, so that what is smooth at that scale costs little. */
function blockSize(scale: number): number {
  return Math.max(1, Math.floor(scale / 3));
}

/** Per column of the box, the column of blocks it falls in. */
function blockColumns(w: number, block: number): Int32Array {
  const of = new Int32Array(w);
  for (let x = 0; x < w; x++) of[x] = Math.floor(x / block);
  return of;
}

/**
 * The means over blocks of `scale` / 3 px of values read `step` apart along a row and `rowStep` apart down the box,
 * from `start`: a plane of floats, or one channel of the photo's packed bytes.
 */
function blocks(src: ArrayLike<number>, start: number, step: number, rowStep: number, w: number, h: number, scale: number): Grid {
  const block = blockSize(scale);
  const cols = Math.ceil(w / block), rows = Math.ceil(h / block);
  const data = new Float32Array(cols * rows), count = new Float32Array(cols * rows);
  const colOf = blockColumns(w, block);
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / block) * cols, from = start + y * rowStep;
    for (let x = 0; x < w; x++) {
      data[row + colOf[x]] += src[from + x * step];
      count[row + colOf[x]]++;
    }
  }
  for (let k = 0; k < data.length; k++) data[k] /= count[k];
  return { data, cols, rows, block };
}

/** The photo's colour in the box, each channel's mean over about `radius` px. */
function colourMeans(photo: RgbImage, box: { left: number; top: number; w: number; h: number }, radius: number): Grid[] {
  const start = (box.top * photo.width + box.left) * 3;
  return [0, 1, 2].map((c) => smoothed(blocks(photo.data, start + c, 3, photo.width * 3, box.w, box.h, radius), radius));
}

function readGrid(g: Grid, x: number, y: number): number {
  if (g.block === 1) return g.data[y * g.cols + x];
  const gx = Math.min(g.cols - 1, Math.max(0, (x + 0.5) / g.block - 0.5)), gy = Math.min(g.rows - 1, Math.max(0, (y + 0.5) / g.block - 0.5));
  const c = Math.min(g.cols - 2, Math.floor(gx)), r = Math.min(g.rows - 2, Math.floor(gy));
  if (c < 0 || r < 0) return g.data[Math.round(gy) * g.cols + Math.round(gx)];
  const fx = gx - c, fy = gy - r, d = g.data, k = g.cols;
  return (d[r * k + c] * (1 - fx) + d[r * k + c + 1] * fx) * (1 - fy) + (d[(r + 1) * k + c] * (1 - fx) + d[(r + 1) * k + c + 1] * fx) * fy;
}

/** The blocks' values, each the mean over about `radius` px around it. */
function smoothed(g: Grid, radius: number): Grid {
  return { ...g, data: boxBlur(g.data, g.cols, g.rows, Math.max(1, Math.round(radius / g.block))) };
}

/**
 * Per pixel, 0..1, how much it lies in a dark line of about `scale` px rather than a dark spot: of the luminance's
 * curvatures (the Hessian's eigenvalues), a valley's across the line is large and its along the line small; a
 * freckle's are alike.
 */
function lineness(luma: Float32Array, w: number, h: number, scale: number): Grid {
  const g = smoothed(blocks(luma, 0, 1, w, w, h, scale), scale);
  const L = g.data, cols = g.cols;
  const d = Math.max(1, Math.round(scale / g.block));
  const valley = new Float32Array(L.length);
  for (let y = d; y < g.rows - d; y++) {
    for (let x = d; x < cols - d; x++) {
      const i = y * cols + x;
      const xx = L[i + d] - 2 * L[i] + L[i - d];
      const yy = L[i + d * cols] - 2 * L[i] + L[i - d * cols];
      const xy = (L[i + d * cols + d] - L[i - d * cols + d] - L[i + d * cols - d] + L[i - d * cols - d]) / 4;
      const half = (xx + yy) / 2, diff = (xx - yy) / 2, root = Math.sqrt(diff * diff + xy * xy);
      const across = half + root, along = half - root;
      // Under a twentieth of a level's curvature: flat skin's noise.
      if (across <= 0.05) continue;
      valley[i] = 1 - Math.max(0, along) / across;
    }
  }
  return { ...g, data: valley };
}

/** Three box passes each way: close to a Gaussian. */
function boxBlur(src: Float32Array, w: number, h: number, radius: number): Float32Array {
  const a = src.slice(), b = new Float32Array(src.length);
  for (let pass = 0; pass < 3; pass++) {
    rowPass(a, b, w, h, radius);
    columnPass(b, a, w, h, radius);
  }
  return a;
}

/** A box mean along each row, `r` each way (fewer at the ends). */
function rowPass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  for (let y = 0, base = 0; y < h; y++, base += w) {
    let sum = 0, n = 0;
    for (let i = 0; i <= Math.min(r, w - 1); i++, n++) sum += src[base + i];
    for (let x = 0; x < w; x++) {
      dst[base + x] = sum / n;
      if (x + r + 1 < w) {
        sum += src[base + x + r + 1];
        n++;
      }
      if (x - r >= 0) {
        sum -= src[base + x - r];
        n--;
      }
    }
  }
}

/** A box mean down each column, kept as running sums over whole rows (rows are contiguous, columns are not). */
function columnPass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  const sum = new Float64Array(w);
  let n = 0;
  for (let y = 0; y <= Math.min(r, h - 1); y++, n++) for (let x = 0; x < w; x++) sum[x] += src[y * w + x];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) dst[y * w + x] = sum[x] / n;
    if (y + r + 1 < h) {
      for (let x = 0, o = (y + r + 1) * w; x < w; x++) sum[x] += src[o + x];
      n++;
    }
    if (y - r >= 0) {
      for (let x = 0, o = (y - r) * w; x < w; x++) sum[x] -= src[o + x];
      n--;
    }
  }
}

/** Whether a face point lies on the lips: they move far in a smile or a pucker, the skin beside them less. */
function onLips(e: CreaseEasing, i: number, width: number): boolean {
  if (!e.features) return false;
  const x = Math.round(e.points[i * 2]), y = Math.round(e.points[i * 2 + 1]);
  return x >= 0 && x < width && y >= 0 && e.features[y * width + x] === FEATURE.lips;
}
