/**
 * The photo on a coarse grid in face-frame terms: per cell its face coordinates, whether it shows the
 * person, its colour, and its distance to the face oval. Hair is classified per cell; the grid's pitch
 * follows the face's size, so the work is the same for a small and a large face.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import type { PersonMatte } from '../face/person-matte.ts';
import { signedPolygonDistance } from '../../geometry/texture/polygon-distance.ts';
import { colourFeature, type ColourFeature } from './colour-model.ts';
import { toFace, type FaceFrame } from './face-frame.ts';

/** The face oval of the landmark model, in order around the face. */
const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
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
  /**
   * Fine texture: the cell's mean absolute difference between a pixel's brightness and its four
   * neighbours', over the brightness. Hair strands make it high; skin, even a bald scalp, keeps it low.
   */
  grain: Float32Array;
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
    grain: cellGrain(photo, step, columns, rows),
  };
  const oval = FACE_OVAL.map((i) => [landmarks[i * 3], landmarks[i * 3 + 1]] as [number, number]);
  for (let gy = 0; gy < rows; gy++) {
    const y = Math.min(photo.height - 1, gy * step + (step >> 1));
    for (let gx = 0; gx < columns; gx++) {
      const x = Math.min(photo.width - 1, gx * step + (step >> 1));
      const c = gy * columns + gx;
      const p = y * photo.width + x;
      const [s, t] = toFace(frame, x, y);
      grid.s[c] = s;
      grid.t[c] = t;
      grid.person[c] = matte.alpha[p] >= 128 ? 1 : 0;
      const r = photo.data[p * 3];
      const g = photo.data[p * 3 + 1];
      const b = photo.data[p * 3 + 2];
      grid.rgb.set([r, g, b], c * 3);
      grid.feature.set(colourFeature(r, g, b), c * 3);
      const near = Math.abs(s) < OVAL_REACH.s && t > OVAL_REACH.tLow && t < OVAL_REACH.tHigh;
      grid.oval[c] = near ? signedPolygonDistance(oval, x, y) / frame.width : -Infinity;
    }
  }
  return grid;
}

function cellGrain(photo: RgbImage, step: number, columns: number, rows: number): Float32Array {
  const { width, height, data } = photo;
  const bright = new Float32Array(width * height);
  for (let p = 0; p < bright.length; p++) bright[p] = data[p * 3] + data[p * 3 + 1] + data[p * 3 + 2];
  const diff = new Float32Array(columns * rows);
  const sum = new Float32Array(columns * rows);
  for (let y = 1; y < height - 1; y++) {
    const row = Math.floor(y / step) * columns;
    for (let x = 1; x < width - 1; x++) {
      const p = y * width + x;
      const c = row + Math.floor(x / step);
      diff[c] += Math.abs(bright[p] - (bright[p - 1] + bright[p + 1] + bright[p - width] + bright[p + width]) / 4);
      sum[c] += bright[p] + 24;
    }
  }
  for (let c = 0; c < diff.length; c++) diff[c] = sum[c] > 0 ? diff[c] / sum[c] : 0;
  return diff;
}

export function featureAt(grid: HairGrid, c: number): ColourFeature {
  return [grid.feature[c * 3], grid.feature[c * 3 + 1], grid.feature[c * 3 + 2]];
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
