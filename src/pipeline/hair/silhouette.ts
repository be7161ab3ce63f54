/**
 * What of a hair mesh the photo's camera would see in front of the head: a small depth-buffered
 * rasteriser on a coarse grid over the photo (coverage only, no shading), for comparing hairstyles
 * with the photo's hair region.
 */
import type { PhotoCamera } from '../../geometry/texture/photo-camera.ts';

export interface SilhouetteGrid {
  /** Photo pixel of the grid's top-left corner. */
  x0: number;
  y0: number;
  /** Photo pixels per grid cell. */
  step: number;
  columns: number;
  rows: number;
}

/** A grid over the photo's box from (x0, y0), `width` x `height` pixels, `cells` across its longer side. */
export function silhouetteGrid(width: number, height: number, cells: number, x0 = 0, y0 = 0): SilhouetteGrid {
  const step = Math.max(1, Math.max(width, height) / cells);
  return { x0, y0, step, columns: Math.ceil(width / step), rows: Math.ceil(height / step) };
}

/** Grid positions (x, y) and depth towards the camera of packed xyz points. */
export function project(cam: PhotoCamera, grid: SilhouetteGrid, positions: ArrayLike<number>): Float32Array {
  const r = cam.rotation, s = cam.pixelsPerCm;
  const out = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i], y = positions[i + 1], z = positions[i + 2];
    out[i] = (cam.translation[0] + s * (r[0] * x + r[1] * y + r[2] * z) - grid.x0) / grid.step;
    out[i + 1] = (cam.translation[1] - s * (r[3] * x + r[4] * y + r[5] * z) - grid.y0) / grid.step;
    out[i + 2] = r[6] * x + r[7] * y + r[8] * z;
  }
  return out;
}

/** Fills triangles into `depth` (nearest wins: larger is nearer); `mark` set where the triangle won. */
function raster(p: Float32Array, indices: ArrayLike<number>, grid: SilhouetteGrid, depth: Float32Array, mark?: Uint8Array): void {
  const { columns, rows } = grid;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const x0 = Math.max(0, Math.floor(Math.min(p[a], p[b], p[c]))), x1 = Math.min(columns - 1, Math.ceil(Math.max(p[a], p[b], p[c])));
    const y0 = Math.max(0, Math.floor(Math.min(p[a + 1], p[b + 1], p[c + 1]))), y1 = Math.min(rows - 1, Math.ceil(Math.max(p[a + 1], p[b + 1], p[c + 1])));
    const area = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[c] - p[a]) * (p[b + 1] - p[a + 1]);
    if (area === 0 || !(area === area)) continue;
    // Barycentric weights are linear in x: evaluated at the row's first cell, then stepped along it.
    const inv = 1 / area;
    const dA = (p[b + 1] - p[c + 1]) * inv, dB = (p[c + 1] - p[a + 1]) * inv;
    const px0 = x0 + 0.5;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      let wa = ((p[b] - px0) * (p[c + 1] - py) - (p[c] - px0) * (p[b + 1] - py)) * inv;
      let wb = ((p[c] - px0) * (p[a + 1] - py) - (p[a] - px0) * (p[c + 1] - py)) * inv;
      for (let x = x0, i = y * columns + x0; x <= x1; x++, i++, wa += dA, wb += dB) {
        const wc = 1 - wa - wb;
        if (wa < 0 || wb < 0 || wc < 0) continue;
        const z = wa * p[a + 2] + wb * p[b + 2] + wc * p[c + 2];
        if (z <= depth[i]) continue;
        depth[i] = z;
        if (mark) mark[i] = 1;
      }
    }
  }
}

/** Depth of the head as the camera sees it (-Infinity where it is not). */
export function headDepth(cam: PhotoCamera, grid: SilhouetteGrid, head: { positions: ArrayLike<number>; indices: ArrayLike<number> }): Float32Array {
  const depth = new Float32Array(grid.columns * grid.rows).fill(-Infinity);
  raster(project(cam, grid, head.positions), head.indices, grid, depth);
  return depth;
}

/** Cells where the hair is seen in front of the head (or where no head is). */
export function hairSilhouette(cam: PhotoCamera, grid: SilhouetteGrid, head: Float32Array, hair: { positions: ArrayLike<number>; indices: ArrayLike<number> }): Uint8Array {
  const depth = new Float32Array(head);
  const mark = new Uint8Array(depth.length);
  raster(project(cam, grid, hair.positions), hair.indices, grid, depth, mark);
  return mark;
}

/** A mask over the photo (one byte a pixel, above 127 inside) on the grid: a cell is inside when most of its pixels are. */
export function maskOnGrid(mask: { width: number; height: number; alpha: Uint8Array }, grid: SilhouetteGrid): Uint8Array {
  const out = new Uint8Array(grid.columns * grid.rows);
  const count = new Uint32Array(out.length), total = new Uint32Array(out.length);
  const ys = Math.max(0, Math.floor(grid.y0)), ye = Math.min(mask.height, Math.ceil(grid.y0 + grid.rows * grid.step));
  const xs = Math.max(0, Math.floor(grid.x0)), xe = Math.min(mask.width, Math.ceil(grid.x0 + grid.columns * grid.step));
  // Each grid column's pixels, the same for every row: a run from first[gx] to first[gx + 1] (columns grow with x).
  const first = new Int32Array(grid.columns + 1).fill(-1);
  for (let x = xe - 1; x >= xs; x--) {
    const gx = Math.floor((x - grid.x0) / grid.step);
    if (gx < 0 || gx >= grid.columns) continue;
    first[gx] = x;
    if (first[grid.columns] < 0) first[grid.columns] = x + 1;
  }
  // A column without pixels is an empty run.
  if (first[grid.columns] < 0) first[grid.columns] = xs;
  for (let gx = grid.columns - 1; gx >= 0; gx--) if (first[gx] < 0) first[gx] = first[gx + 1];
  const alpha = mask.alpha;
  for (let y = ys; y < ye; y++) {
    const gy = Math.floor((y - grid.y0) / grid.step);
    if (gy < 0 || gy >= grid.rows) continue;
    const row = y * mask.width;
    for (let gx = 0, c = gy * grid.columns; gx < grid.columns; gx++, c++) {
      const a = first[gx], b = first[gx + 1];
      let inside = 0;
      for (let x = a; x < b; x++) if (alpha[row + x] > 127) inside++;
      total[c] += b - a;
      count[c] += inside;
    }
  }
  for (let c = 0; c < out.length; c++) out[c] = count[c] * 2 > total[c] ? 1 : 0;
  return out;
}

/*
 * Cell-wise operations on masks of one grid, as plain loops: a typed array's map or from with a callback cost
 * some 80 ns a cell, the loop a few.
 */

/** 1 where both masks are set. */
export function andCells(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i] & b[i];
  return out;
}

/** 1 where either mask is set. */
export function orCells(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i] | b[i];
  return out;
}

/** 1 where a depth buffer (headDepth) holds a surface. */
export function coveredCells(depth: Float32Array): Uint8Array {
  const out = new Uint8Array(depth.length);
  for (let i = 0; i < out.length; i++) out[i] = depth[i] > -Infinity ? 1 : 0;
  return out;
}

/** Intersection over union of two masks over the cells where `region` is set. */
export function iou(a: Uint8Array, b: Uint8Array, region: Uint8Array): number {
  let inter = 0, union = 0;
  for (let i = 0; i < region.length; i++) {
    if (!region[i]) continue;
    inter += a[i] & b[i];
    union += a[i] | b[i];
  }
  return union === 0 ? 1 : inter / union;
}
