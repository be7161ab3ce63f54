/**
 * The chosen style's volume fitted to the photo's outline: seen from the photo's camera, rays from the
 * cranium's centre find, per direction, where the head ends, where the head with its hair ends, and where
 * the person's matte ends. The hair's standoff from the scalp is scaled per direction so that its outline
 * meets the matte's: hair that stands further out than the photo's is drawn in, hair that falls short is
 * puffed out. Only directions whose outline is hair or scalp (above the eyes) are measured; the matte lower
 * down holds ears, neck and shoulders. The others take the nearest measured direction's scale.
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
 * far off as a full short cut does (at 2.5 p05-a's and p04-a's tops fell short of the matte).
 */
const SCALE_MIN = 0.1;
const SCALE_MAX = 4;
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
  let sectorOf: Float32Array | undefined;
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
    const smooth = smoothCircular(fillFromNearest(ratio));
    // Each vertex keeps the direction it was first seen in.
    sectorOf ??= vertexSectors(project(camera, grid, positions), cx, cy);
    scaleBySector(factors, sectorOf, smooth);
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

/** Each vertex's factor times its sector's smoothed scale (interpolated in logs between sectors), within the limits. */
function scaleBySector(factors: Float32Array, sectorOf: Float32Array, smooth: number[]): void {
  for (let v = 0; v < factors.length; v++) {
    const s = sectorOf[v];
    const j = Math.floor(s) % SECTORS;
    const f = s - Math.floor(s);
    const k = Math.exp((1 - f) * Math.log(smooth[j]) + f * Math.log(smooth[(j + 1) % SECTORS]));
    factors[v] = Math.min(SCALE_MAX, Math.max(SCALE_MIN, factors[v] * k));
  }
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

/** Each vertex's direction from the centre, in sectors (0..SECTORS). */
function vertexSectors(p: Float32Array, cx: number, cy: number): Float32Array {
  const out = new Float32Array(p.length / 3);
  for (let v = 0; v < out.length; v++) {
    const a = Math.atan2(-(p[v * 3 + 1] - cy), p[v * 3] - cx);
    out[v] = (((a / (2 * Math.PI)) * SECTORS) % SECTORS + SECTORS) % SECTORS;
  }
  return out;
}

/** Unmeasured sectors take the nearest measured one's value (1 when none was measured). */
function fillFromNearest(values: (number | undefined)[]): number[] {
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
