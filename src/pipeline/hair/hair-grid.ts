/**
 * The photo on a coarse grid in face-frame terms: per cell its face coordinates, whether it shows the
 * person, its colour, and its distance to the face oval. Hair is classified per cell; the grid's pitch
 * follows the face's size, so the work is the same for a small and a large face.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { PERSON_ALPHA, type PersonMatte } from '../face/person-matte.ts';
import { signedPolygonDistance } from '../../geometry/spatial/polygon-distance.ts';
import { colourFeatureInto, type ColourFeature } from './colour-model.ts';
import type { FaceFrame } from './face-frame.ts';
import { FACE_OVAL } from '../face/face-regions.ts';

/** Grid cells along the face's height: fine enough for a fringe's edge, coarse enough to be quick. */
const CELLS_PER_FACE_HEIGHT = 120;
/**
 * The oval distance is only asked for below the brows and near the jaw (face-frame units); elsewhere
 * it is "far outside", which saves most of the polygon tests.
 */
const OVAL_REACH = { s: 0.75, tLow: -0.2, tHigh: 0.95 };

export interface HairGrid {
  /** Image pixels per cell side. */
  step: number;
  columns: number;
  rows: number;
  s: Float32Array;
  t: Float32Array;
  /** 1 where the person matte is at least half. */
  person: Uint8Array;
  /** Cell colour (the pixel at the cell's centre). */
  rgb: Uint8Array;
  /** Colour features, 3 per cell. */
  feature: Float32Array;
  /** Signed distance to the face oval in face widths: positive inside. */
  oval: Float32Array;
  /** The photo the grid reads (for the fine texture of chosen cells). */
  photo: RgbImage;
}

export function hairGrid(photo: RgbImage, matte: PersonMatte, landmarks: ArrayLike<number>, frame: FaceFrame): HairGrid {
  const step = Math.max(1, Math.round(frame.height / CELLS_PER_FACE_HEIGHT));
  const columns = Math.ceil(photo.width / step);
  const rows = Math.ceil(photo.height / step);
  const n = columns * rows;
  const grid: HairGrid = {
    step,
    columns,
    rows,
    s: new Float32Array(n),
    t: new Float32Array(n),
    person: new Uint8Array(n),
    rgb: new Uint8Array(n * 3),
    feature: new Float32Array(n * 3),
    oval: new Float32Array(n),
    photo,
  };
  const oval = FACE_OVAL.map((i) => [landmarks[i * 3], landmarks[i * 3 + 1]] as [number, number]);
  for (let gy = 0; gy < rows; gy++) {
    const y = Math.min(photo.height - 1, gy * step + (step >> 1));
    for (let gx = 0; gx < columns; gx++) {
      const x = Math.min(photo.width - 1, gx * step + (step >> 1));
      const c = gy * columns + gx;
      const p = y * photo.width + x;
      // toFace, inlined: this runs for every cell.
      const s = ((x - frame.centre[0]) * frame.across[0] + (y - frame.centre[1]) * frame.across[1]) / frame.width;
      const t = ((x - frame.chin[0]) * frame.up[0] + (y - frame.chin[1]) * frame.up[1]) / frame.height;
      grid.s[c] = s;
      grid.t[c] = t;
      grid.person[c] = matte.alpha[p] >= PERSON_ALPHA ? 1 : 0;
      for (let k = 0; k < 3; k++) grid.rgb[c * 3 + k] = photo.data[p * 3 + k];
      colourFeatureInto(grid.feature, c * 3, photo.data[p * 3], photo.data[p * 3 + 1], photo.data[p * 3 + 2]);
      const near = Math.abs(s) < OVAL_REACH.s && t > OVAL_REACH.tLow && t < OVAL_REACH.tHigh;
      grid.oval[c] = near ? signedPolygonDistance(oval, x, y) / frame.width : -Infinity;
    }
  }
  return grid;
}

/**
 * Fine texture of a cell: the mean absolute difference between a pixel's brightness and its four
 * neighbours', over the brightness. Hair strands make it high; skin, even a bald scalp, keeps it low.
 */
export function cellGrain(grid: HairGrid, c: number): number {
  const { width, height, data } = grid.photo;
  const x0 = Math.max(1, (c % grid.columns) * grid.step);
  const y0 = Math.max(1, Math.floor(c / grid.columns) * grid.step);
  let diff = 0;
  let sum = 0;
  for (let y = y0; y < Math.min(height - 1, y0 + grid.step); y++) {
    for (let x = x0; x < Math.min(width - 1, x0 + grid.step); x++) {
      const p = y * width + x;
      const b = brightness(data, p);
      diff += Math.abs(b - (brightness(data, p - 1) + brightness(data, p + 1) + brightness(data, p - width) + brightness(data, p + width)) / 4);
      sum += b + 24;
    }
  }
  return sum > 0 ? diff / sum : 0;
}

/** Sum of a pixel's three channels (a function of the module, not a closure per call: cellGrain runs per cell). */
function brightness(data: Uint8Array, p: number): number {
  return data[p * 3] + data[p * 3 + 1] + data[p * 3 + 2];
}

/**
 * Per cell, the distance (in cells, chamfer 1 and 1.4) to the nearest cell outside the person matte; cells
 * outside it are 0. The matte's edge is where it is least sure (a network cell of 1/256 of the photo, soft
 * at hair), so colour decides there.
 */
export function matteEdgeDistance(grid: HairGrid): Float32Array {
  const { columns, rows } = grid;
  const d = new Float32Array(grid.person.length);
  for (let c = 0; c < d.length; c++) if (grid.person[c]) d[c] = Infinity;
  // A cell outside the matte stays 0 (no neighbour offers less), so only the person's cells are relaxed.
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const c = y * columns + x;
      if (d[c] === 0) continue;
      if (x > 0) relax(d, c, c - 1, 1);
      if (y > 0) {
        relax(d, c, c - columns, 1);
        if (x > 0) relax(d, c, c - columns - 1, Math.SQRT2);
        if (x < columns - 1) relax(d, c, c - columns + 1, Math.SQRT2);
      }
    }
  }
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = columns - 1; x >= 0; x--) {
      const c = y * columns + x;
      if (d[c] === 0) continue;
      if (x < columns - 1) relax(d, c, c + 1, 1);
      if (y < rows - 1) {
        relax(d, c, c + columns, 1);
        if (x < columns - 1) relax(d, c, c + columns + 1, Math.SQRT2);
        if (x > 0) relax(d, c, c + columns - 1, Math.SQRT2);
      }
    }
  }
  return d;
}

// A module function, not a closure over `d`: the closure, inlined by identity, died with each call and took
// matteEdgeDistance's optimized code with it (compiled again every job).
function relax(d: Float32Array, c: number, n: number, w: number): void {
  if (d[n] + w < d[c]) d[c] = d[n] + w;
}

/** Cells of the grid's outer ring, `depth` cells deep, outside the person matte: the photo's own background. */
export function borderCells(grid: HairGrid, depth: number): number[] {
  const { columns, rows } = grid;
  const out: number[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const c = y * columns + x;
      const onBorder = x < depth || y < depth || x >= columns - depth || y >= rows - depth;
      if (onBorder && !grid.person[c]) out.push(c);
    }
  }
  return out;
}

/** Colour features of cells, evenly thinned to at most `most` (a colour model needs no more). */
export function featuresOf(grid: HairGrid, cells: number[], most = 3000): ColourFeature[] {
  const stride = Math.max(1, cells.length / most);
  const out: ColourFeature[] = [];
  for (let i = 0; i < cells.length; i += stride) {
    const o = cells[Math.floor(i)] * 3;
    out.push([grid.feature[o], grid.feature[o + 1], grid.feature[o + 2]]);
  }
  return out;
}

/** Cells within `radius` pixels of an image point. */
export function cellsAround(grid: HairGrid, x: number, y: number, radius: number): number[] {
  const out: number[] = [];
  const r = Math.max(1, Math.round(radius / grid.step));
  const cx = Math.floor(x / grid.step);
  const cy = Math.floor(y / grid.step);
  for (let gy = Math.max(0, cy - r); gy <= Math.min(grid.rows - 1, cy + r); gy++) {
    for (let gx = Math.max(0, cx - r); gx <= Math.min(grid.columns - 1, cx + r); gx++) {
      if ((gx - cx) ** 2 + (gy - cy) ** 2 <= r * r) out.push(gy * grid.columns + gx);
    }
  }
  return out;
}
