/**
 * The side-to-side light a low-order light on the normals leaves in a face lit from one side: the nose's cast
 * shadow on the far cheek, the redder, subsurface-lit skin there, a light closer than infinity. A face's skin is
 * about the same colour on both sides, so what differs between mirrored points, smoothly, is light. The samples
 * are gathered on a grid across the face (head frame, x across its symmetry plane), each cell's colour is compared
 * with its mirror cell's, and half the difference (log, per channel), smoothed, is each side's share: dividing it
 * out gives both sides the colour of their mean. A feature on one side only (a mole, a strand of hair) is a
 * cell's outlier or a small part of it, and the smoothing spreads what is left over a few cells.
 */
import { luminance } from '../render/srgb.ts';

/** Grid cells across and up the face's box. */
const CELLS = 12;
/** Gaussian smoothing of the side light over the grid (cells). */
const SMOOTHING = 1;
/** A sample whose log-luminance is this far from its cell's median is left out of the cell's colour (hair, a brow's edge). */
const CELL_OUTLIER = 0.35;
/**
 * The side light's log share is bounded in luminance (4x between the sides; 2.5x left p11-a's far cheek darker,
 * its balance 0.78): deeper is a shadow no light estimate brightens reliably. Its colour, each channel's share
 * over the luminance's, is kept: bounding the channels one by one brightened the shadow's blue and green less
 * than its red, which left the far cheek orange and the near one grey, split down the nose.
 */
const MAX_LOG_SHARE = Math.log(4) / 2;

/**
 * Shifts a light's log colour (three channels from `at`) by the same amount in every channel, so that its
 * log-luminance is within [low, high]: a bound on how much it brightens or darkens that keeps its colour.
 */
export function boundLogLight(logs: Float32Array, at: number, low: number, high: number): void {
  // The luminance weights' mean of a log colour is (nearly) its log-luminance.
  const lum = luminance(logs, at);
  const shift = Math.min(high, Math.max(low, lum)) - lum;
  for (let c = 0; c < 3; c++) logs[at + c] += shift;
}
/** Beyond the face's box (ears, neck) the side light fades out over this many half-widths. */
const FADE = 0.3;

export interface FaceFrame {
  /** The face's middle (x: its symmetry plane) and half extents, head frame (cm). */
  centre: [number, number];
  half: [number, number];
}

/** The frame of the face's outline (its vertices' head-frame positions, packed xyz). */
export function faceFrame(positions: ArrayLike<number>, outline: readonly number[]): FaceFrame {
  const xs = outline.map((v) => positions[v * 3]);
  const ys = outline.map((v) => positions[v * 3 + 1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { centre: [(x0 + x1) / 2, (y0 + y1) / 2], half: [Math.max(1e-3, (x1 - x0) / 2), Math.max(1e-3, (y1 - y0) / 2)] };
}

export interface SideLight {
  frame: FaceFrame;
  /** Per grid cell (row-major, row 0 at the face's bottom) and channel: the light's log share, odd across the face. */
  grid: Float32Array;
}

/** Grid coordinates (0..CELLS, cell centres at half-integers) of a head-frame point. */
function gridAt(frame: FaceFrame, x: number, y: number): [number, number] {
  return [((x - frame.centre[0]) / frame.half[0] + 1) * (CELLS / 2), ((y - frame.centre[1]) / frame.half[1] + 1) * (CELLS / 2)];
}

/**
 * The side light from samples at head-frame points (`points`, packed xy) with linear RGB colours (`colours`,
 * packed, already divided by whatever light was estimated before).
 */
export function fitSideLight(points: Float32Array, colours: Float32Array, frame: FaceFrame): SideLight {
  const count = points.length / 2;
  const cells = CELLS * CELLS;
  const members: number[][] = Array.from({ length: cells }, () => []);
  const logs = new Float32Array(count * 3);
  const lum = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const [gx, gy] = gridAt(frame, points[i * 2], points[i * 2 + 1]);
    if (gx < 0 || gy < 0 || gx >= CELLS || gy >= CELLS) continue;
    for (let c = 0; c < 3; c++) logs[i * 3 + c] = Math.log(Math.max(1e-4, colours[i * 3 + c]));
    lum[i] = Math.log(Math.max(1e-4, luminance(colours, i * 3)));
    members[Math.floor(gy) * CELLS + Math.floor(gx)].push(i);
  }
  // Each cell's colour: the mean log colour of its samples near the cell's median luminance.
  const mean = new Float32Array(cells * 3);
  const weight = new Float32Array(cells);
  // A plain loop, not forEach with a closure made per call: inlined, the closure died with the job and took
  // fitSideLight's optimized code with it (compiled again every job).
  for (let cell = 0; cell < cells; cell++) {
    const ids = members[cell];
    if (ids.length === 0) continue;
    const lums: number[] = [];
    for (const i of ids) lums.push(lum[i]);
    const mid = lums.sort((a, b) => a - b)[ids.length >> 1];
    let k = 0;
    for (const i of ids) {
      if (Math.abs(lum[i] - mid) > CELL_OUTLIER) continue;
      for (let c = 0; c < 3; c++) mean[cell * 3 + c] += logs[i * 3 + c];
      k++;
    }
    for (let c = 0; c < 3; c++) mean[cell * 3 + c] /= k;
    weight[cell] = k;
  }
  // Half the difference to the mirror cell, where both sides show skin, weighed by the side with fewer samples.
  const odd = new Float32Array(cells * 3);
  const oddWeight = new Float32Array(cells);
  for (let row = 0; row < CELLS; row++) {
    for (let col = 0; col < CELLS; col++) {
      const cell = row * CELLS + col;
      const mirror = row * CELLS + (CELLS - 1 - col);
      const w = Math.min(weight[cell], weight[mirror]);
      if (w === 0) continue;
      oddWeight[cell] = w;
      for (let c = 0; c < 3; c++) odd[cell * 3 + c] = (mean[cell * 3 + c] - mean[mirror * 3 + c]) / 2;
    }
  }
  return { frame, grid: smoothed(odd, oddWeight) };
}

/**
 * Normalised Gaussian smoothing over the grid (cells without a value take their neighbours'); symmetric in the
 * kernel and in which cells have a value, so the result stays odd across the face.
 */
function smoothed(values: Float32Array, weights: Float32Array): Float32Array {
  const out = new Float32Array(values.length);
  const reach = Math.ceil(3 * SMOOTHING);
  for (let row = 0; row < CELLS; row++) {
    for (let col = 0; col < CELLS; col++) {
      let ws = 0;
      const acc = [0, 0, 0];
      for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          const r = row + dy, c = col + dx;
          if (r < 0 || c < 0 || r >= CELLS || c >= CELLS || weights[r * CELLS + c] === 0) continue;
          const w = weights[r * CELLS + c] * Math.exp(-(dx * dx + dy * dy) / (2 * SMOOTHING * SMOOTHING));
          ws += w;
          for (let k = 0; k < 3; k++) acc[k] += w * values[(r * CELLS + c) * 3 + k];
        }
      }
      if (ws === 0) continue;
      const at = (row * CELLS + col) * 3;
      for (let k = 0; k < 3; k++) out[at + k] = acc[k] / ws;
      boundLogLight(out, at, -MAX_LOG_SHARE, MAX_LOG_SHARE);
    }
  }
  return out;
}

/** The side light's log share per channel at a head-frame point, into `out` (0 on the symmetry plane and far from the face). */
export function sideLightAt(light: SideLight, x: number, y: number, out: Float32Array): Float32Array {
  // Per vertex of the head: grid coordinates inline, no arrays or closures.
  const { frame, grid } = light;
  const u = (x - frame.centre[0]) / frame.half[0], v = (y - frame.centre[1]) / frame.half[1];
  // Distance outside the box in half-widths: the share fades out there.
  const fade = Math.max(0, 1 - Math.max(0, Math.abs(u) - 1, Math.abs(v) - 1) / FADE);
  if (fade === 0) {
    out.fill(0);
    return out;
  }
  const fx = Math.min(CELLS - 1, Math.max(0, (u + 1) * (CELLS / 2) - 0.5)), fy = Math.min(CELLS - 1, Math.max(0, (v + 1) * (CELLS / 2) - 0.5));
  const x0 = Math.min(CELLS - 2, Math.floor(fx)), y0 = Math.min(CELLS - 2, Math.floor(fy));
  const ax = fx - x0, ay = fy - y0;
  const o00 = (y0 * CELLS + x0) * 3, o10 = o00 + 3, o01 = o00 + CELLS * 3, o11 = o01 + 3;
  for (let c = 0; c < 3; c++) {
    const top = grid[o00 + c] * (1 - ax) + grid[o10 + c] * ax;
    const bottom = grid[o01 + c] * (1 - ax) + grid[o11 + c] * ax;
    out[c] = fade * (top * (1 - ay) + bottom * ay);
  }
  return out;
}
