/**
 * The chosen style's volume fitted to the photo's outline: seen from the photo's camera, rays from the
 * cranium's centre find, per direction, where the head ends, where the head with its hair ends, and where
 * the person's matte ends. The hair's standoff from the scalp is scaled per direction so that its outline
 * meets the matte's: hair that stands further out than the photo's is drawn in, hair that falls short is
 * puffed out. Only directions whose outline is hair or scalp (above the eyes) are measured; the matte lower
 * down holds ears, neck and shoulders. Those take the measured directions' mean scale (filled).
 */
import type { PhotoCamera } from '../../geometry/texture/photo-camera.ts';
import type { FaceFrame } from './face-frame.ts';
import { faceHeight } from './face-frame.ts';
import { coveredCells, hairSilhouette, project, type SilhouetteGrid } from './silhouette.ts';

const SECTORS = 36;
/**
 * Scale limits. Where the head alone reaches the photo's outline, the hair lies nearly flat on it (at 0.3 p12-a's
 * short-crop stood out past the matte all round, its avatar's head already filling it). Outwards, how far a point
 * moves is bounded in cm (VOLUME_REACH); the factor's own bound lets a short style (lift 0.35-0.6 cm) stand as
 * far off as a full short cut does (at 2.5 p05-a's and p04-a's tops fell short of the matte; since the relief over
 * the hair's base layer grows with the square root of the factor only, standoffFactor, 4 left p10-a's and p05-a's
 * tops short of it too: silhouette 0.958 -> 0.933, 0.927 -> 0.914).
 */
const SCALE_MIN = 0.1;
const SCALE_MAX = 6;
/** Outline points below this face height (0 chin, 1 top of the face mesh) are not measured. */
const LOWEST_T = 0.6;
/** Hair standing off the head by less than this (cells) cannot be scaled into a measurable change. */
const LEAST_STANDOFF = 0.75;
/** Measure, scale, and measure again: the outline is not linear in the standoff. */
const ROUNDS = 3;
/** A gap in a mask along a ray no wider than this (cells) does not end it (strands, holes in the matte). */
const GAP = 1.5;
const RAY_STEP = 0.5;
/**
 * Rounds of drawing in hair that stands outside the person, and the share of its standoff a vertex wholly
 * outside keeps per round (0.75^4: at most about a third is left).
 */
const PULL_ROUNDS = 4;
const PULL = 0.75;

export interface OutlineScene {
  camera: PhotoCamera;
  grid: SilhouetteGrid;
  /** The avatar's head depth on the grid (headDepth). */
  head: Float32Array;
  /** The person matte on the grid, within the head region. */
  matte: Uint8Array;
  /** The person matte or the observed hair region on the grid, anywhere on it: where hair may be seen. */
  person: Uint8Array;
  frame: FaceFrame;
  /** The cranium's centre (avatar space). */
  centre: [number, number, number];
}

/** Radius (cells) along the ray from (cx, cy) at `angle` (up positive) where `mask` ends. */
function reach(mask: Uint8Array, grid: SilhouetteGrid, cx: number, cy: number, angle: number): number {
  const dx = Math.cos(angle), dy = -Math.sin(angle);
  const far = Math.hypot(grid.columns, grid.rows);
  let last = 0;
  for (let r = 0; r < far; r += RAY_STEP) {
    const x = Math.floor(cx + r * dx), y = Math.floor(cy + r * dy);
    if (x < 0 || y < 0 || x >= grid.columns || y >= grid.rows) break;
    if (mask[y * grid.columns + x]) last = r;
    else if (r - last > GAP) break;
  }
  return last;
}

/**
 * Per hair vertex, the factor on the style's standoff from the scalp. `placed` gives the hair's avatar-space
 * positions for a set of factors; `indices` are its triangles.
 */
export function fitVolume(scene: OutlineScene, vertices: number, indices: ArrayLike<number>, placed: (factors: Float32Array) => Float32Array): Float32Array {
  const { camera, grid, frame } = scene;
  const [cx, cy] = project(camera, grid, scene.centre);
  const head = coveredCells(scene.head);
  const angles = Array.from({ length: SECTORS }, (_, j) => (2 * Math.PI * j) / SECTORS);
  const headReach = angles.map((a) => reach(head, grid, cx, cy, a));
  const matteReach = angles.map((a) => reach(scene.matte, grid, cx, cy, a));
  // Directions whose matte outline lies above the eyes.
  const measured = angles.map((a, j) => {
    const r = matteReach[j];
    const t = faceHeight(frame, grid.x0 + (cx + r * Math.cos(a)) * grid.step, grid.y0 + (cy - r * Math.sin(a)) * grid.step);
    return t > LOWEST_T;
  });
  const factors = new Float32Array(vertices).fill(1);
  let bearings: Bearings | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const positions = placed(factors);
    const hair = hairSilhouette(camera, grid, scene.head, { positions, indices });
    orInto(hair, head);
    const ratio: (number | undefined)[] = angles.map((a, j) => {
      if (!measured[j]) return undefined;
      const standoff = reach(hair, grid, cx, cy, a) - headReach[j];
      if (standoff < LEAST_STANDOFF) return undefined;
      return Math.max(SCALE_MIN, (matteReach[j] - headReach[j]) / standoff);
    });
    const smooth = smoothCircular(filled(ratio, measured));
    // Each vertex keeps the direction it was first seen in.
    bearings ??= vertexBearings(camera, project(camera, grid, positions), cx, cy, positions, scene.centre);
    scaleBySector(factors, bearings, smooth.map(Math.log));
  }
  pullInside(scene, factors, indices, placed);
  return factors;
}

// The per-vertex and per-cell loops are module functions: fitVolume and pullInside call `placed`, a closure made per
// job, and an optimized caller that inlined it was thrown away with it every job ("weak objects"); with no loop of
// their own they are not optimized at all, while these loops keep their code from one job to the next.

function orInto(a: Uint8Array, b: Uint8Array): void {
  for (let i = 0; i < a.length; i++) a[i] |= b[i];
}

/**
 * Each vertex's factor times its sector's smoothed scale (`logs`, interpolated between sectors), within the limits: as
 * far as the photo's outline shows the vertex (`across`), the scale of the sector it projects into; the rest of the
 * way, that of the sectors beside the head at its height, as if turned about the vertical to the outline's side.
 */
function scaleBySector(factors: Float32Array, b: Bearings, logs: number[]): void {
  for (let v = 0; v < factors.length; v++) {
    const beside = b.right[v] * sectorLog(logs, b.rightSector[v]) + (1 - b.right[v]) * sectorLog(logs, b.leftSector[v]);
    const k = Math.exp(b.across[v] * sectorLog(logs, b.sector[v]) + (1 - b.across[v]) * beside);
    factors[v] = Math.min(SCALE_MAX, Math.max(SCALE_MIN, factors[v] * k));
  }
}

/** The log scale at a fractional sector, interpolated between its two sectors. */
function sectorLog(logs: number[], s: number): number {
  const j = Math.floor(s) % SECTORS, f = s - Math.floor(s);
  return (1 - f) * logs[j] + f * logs[(j + 1) % SECTORS];
}

/**
 * Hair below the eyes whose vertices the camera sees outside the person (matte or observed hair) is drawn
 * towards its roots: the sectors measure only the outline above the eyes, and hair over the ears or beside the
 * jaw that stands wider than the photo's (p04-a's sides) would stay there. A vertex moves by the share of it and
 * its mesh neighbours that is outside, so a card moves as one instead of folding at the matte's edge. Below the
 * grid (shoulders) nothing is judged.
 */
function pullInside(scene: OutlineScene, factors: Float32Array, indices: ArrayLike<number>, placed: (factors: Float32Array) => Float32Array): void {
  const n = factors.length;
  const degree = degrees(indices, n);
  const outside = new Uint8Array(n);
  const share = new Float32Array(n);
  for (let round = 0; round < PULL_ROUNDS; round++) {
    if (!markOutside(scene, project(scene.camera, scene.grid, placed(factors)), outside)) return;
    pullOutside(factors, indices, degree, outside, share);
  }
}

/** Twice the number of triangles at each vertex: its mesh neighbours, counted once per triangle. */
function degrees(indices: ArrayLike<number>, n: number): Uint16Array {
  const degree = new Uint16Array(n);
  for (let i = 0; i < indices.length; i++) degree[indices[i]] += 2;
  return degree;
}

/** Per vertex of the projected positions `p`, 1 when it lies below the eyes and outside the person; whether any does. */
function markOutside(scene: OutlineScene, p: Float32Array, outside: Uint8Array): boolean {
  const { grid, person, frame } = scene;
  let any = false;
  for (let v = 0; v < outside.length; v++) {
    const x = Math.floor(p[v * 3]), y = Math.floor(p[v * 3 + 1]);
    // Above the eyes the sectors have set the outline already; pulling its edge vertices there only thins it.
    const low = faceHeight(frame, grid.x0 + p[v * 3] * grid.step, grid.y0 + p[v * 3 + 1] * grid.step) < LOWEST_T;
    outside[v] = low && y < grid.rows && (x < 0 || x >= grid.columns || y < 0 || !person[y * grid.columns + x]) ? 1 : 0;
    any ||= outside[v] === 1;
  }
  return any;
}

/** One round of drawing in: each vertex by the share of it and its mesh neighbours that is outside. */
function pullOutside(factors: Float32Array, indices: ArrayLike<number>, degree: Uint16Array, outside: Uint8Array, share: Float32Array): void {
  share.set(outside);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    share[a] += outside[b] + outside[c];
    share[b] += outside[a] + outside[c];
    share[c] += outside[a] + outside[b];
  }
  for (let v = 0; v < factors.length; v++) {
    const s = share[v] / (1 + degree[v]);
    if (s > 0) factors[v] = Math.max(SCALE_MIN, factors[v] * (1 - (1 - PULL) * s));
  }
}

/**
 * Where each hair vertex lies as the photo's outline can tell it. A frontal photo's outline is made by the hair beside
 * and over the head as the camera sees it; the hair at the back of the head (or over the face) makes none, and took the
 * scale of the sector it projects into: a quiff's height puffed the back of a short cut out (p10-a's hedgehog from
 * the side). Hair at the back is taken to stand off as the hair beside the head does at its height.
 */
interface Bearings {
  /** The sector of the vertex's projected direction from the centre (0..SECTORS). */
  sector: Float32Array;
  /** The squared share of its direction from the cranium's centre that lies across the line of sight (1 beside or over the head, 0 on the line). */
  across: Float32Array;
  /** The sectors at its elevation on the image's right and left, and how much of the way round it is to the right. */
  rightSector: Float32Array;
  leftSector: Float32Array;
  right: Float32Array;
}

/** Each vertex's bearings (`projected`: its positions projected onto the grid; `cx`, `cy`: the centre's). */
function vertexBearings(camera: PhotoCamera, projected: Float32Array, cx: number, cy: number, positions: Float32Array, centre: readonly [number, number, number]): Bearings {
  const n = positions.length / 3, r = camera.rotation;
  const b: Bearings = { sector: new Float32Array(n), across: new Float32Array(n), rightSector: new Float32Array(n), leftSector: new Float32Array(n), right: new Float32Array(n) };
  for (let v = 0; v < n; v++) {
    b.sector[v] = toSector(Math.atan2(-(projected[v * 3 + 1] - cy), projected[v * 3] - cx));
    const dx = positions[v * 3] - centre[0], dy = positions[v * 3 + 1] - centre[1], dz = positions[v * 3 + 2] - centre[2];
    // In the camera's axes: x to the image's right, y up, z along the line of sight.
    const x = r[0] * dx + r[1] * dy + r[2] * dz, y = r[3] * dx + r[4] * dy + r[5] * dz, z = r[6] * dx + r[7] * dy + r[8] * dz;
    const length = Math.hypot(x, y, z), level = Math.hypot(x, z);
    b.across[v] = length > 0 ? 1 - (z / length) ** 2 : 1;
    const elevation = Math.atan2(y, level);
    b.rightSector[v] = toSector(elevation);
    b.leftSector[v] = toSector(Math.PI - elevation);
    b.right[v] = level > 0 ? (1 + x / level) / 2 : 0.5;
  }
  return b;
}

/** An angle (0 to the image's right, up positive) in sectors (0..SECTORS). */
function toSector(angle: number): number {
  return ((((angle / (2 * Math.PI)) * SECTORS) % SECTORS) + SECTORS) % SECTORS;
}

/**
 * Every sector's scale: a measured one whose hair lay too flat to scale takes its nearest neighbours' (`fromNearest`);
 * one below the eyes, where the outline is not measured, the geometric mean of the measured ones (1 when none was).
 * The nearest there is the lowest sector at a temple, which on a turned head (or one whose turn is misread) meets
 * the side of the head the avatar does not show from the photo's camera: p04-a's near temple scaled 5-6, and hair
 * hanging from it behind the ear stood out as a wing down to the jaw.
 */
function filled(values: (number | undefined)[], measured: boolean[]): number[] {
  const logs = values.filter((v) => v !== undefined).map(Math.log);
  const mean = logs.length ? Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length) : 1;
  return fromNearest(values).map((v, j) => (measured[j] ? v : mean));
}

/** Sectors without a value take the nearest valued one's (1 when none has one). */
function fromNearest(values: (number | undefined)[]): number[] {
  const n = values.length;
  return values.map((v, j) => {
    if (v !== undefined) return v;
    for (let d = 1; d <= n / 2; d++) {
      const a = values[(j + d) % n], b = values[(j - d + n) % n];
      if (a !== undefined && b !== undefined) return Math.sqrt(a * b);
      if (a !== undefined) return a;
      if (b !== undefined) return b;
    }
    return 1;
  });
}

/** A 1-2-1 average of neighbouring sectors, in logs (a scale and its inverse weigh the same). */
function smoothCircular(values: number[]): number[] {
  const n = values.length;
  const l = values.map(Math.log);
  return l.map((v, j) => Math.exp((l[(j - 1 + n) % n] + 2 * v + l[(j + 1) % n]) / 4));
}
