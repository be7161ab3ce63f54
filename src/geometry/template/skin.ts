import type { Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { add, centroid, length, lerp, normalize, scale, sub, vertex } from '../mesh/vec.ts';
import { earFrame, loopAround, openingOutline } from './ear.ts';
import { HEAD_CENTRE, NECK_CUT_Y, headRadius } from './head-shape.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

/**
 * The skin from the face oval to the neck cut: a grid of columns and rings on the radial head
 * surface. Columns are straight lines in the stereographic plane seen from HEAD_CENTRE with the
 * pole straight down the neck, so each one runs from the face oval over the head to the cut
 * (the forehead's over the crown and down the back, the chin's down the throat); rings are
 * equal fractions of every column's length. The same plane layout, squeezed between the face's
 * UV island and the border of a UV box, is the UV layout of the skin's first rings (the front
 * island): no overlaps by construction.
 */
export interface SkinOptions {
  /** Columns per edge of the face oval. */
  columnsPerEdge: number;
  /** Rings from the oval (ring 0) to the neck cut (ring `rings`). */
  rings: number;
  /** Centre of the right ear's opening; the left one is its mirror image. */
  earCentre: Vec3;
  /** Size of each ear opening in cells: rings, columns. */
  earCells: [number, number];
  /**
   * Rings spread over each column's UV line, from the face island to the border of the UV box.
   * Rings beyond them take the border's UV: the caller lays them out in an island of their own.
   */
  uvRings: number;
  /** The box (min u, min v, max u, max v) whose border the columns' UV lines reach. */
  uvBox: [number, number, number, number];
}

/** A block of cells left open: rings [k0, k1), columns [c0, c1). */
export interface SkinHole {
  k0: number;
  k1: number;
  c0: number;
  c1: number;
}

export interface SkinGrid {
  /** grid[k][c]: vertex of ring k (1..rings), column c; ring 0 is the oval itself. */
  grid: number[][];
  /** The neck cut, the head's one open loop. */
  cut: number[];
  columns: number;
  /** Openings for the right and the left ear. */
  earHoles: [SkinHole, SkinHole];
}

/** Samples along a column; the rings are interpolated between them. */
const COLUMN_SAMPLES = 128;
/** Passes of a 1-2-1 filter over the ring places across columns. */
const RING_SMOOTHING = 12;
/** Passes of relaxation of the grid on the head shape. */
const RELAX_PASSES = 4;
/** Arc length over which the skin eases from the face's boundary onto the head shape. */
const EASE_LENGTH = 4;

const toPlane = (d: Vec3): [number, number] => [d[0] / (1 + d[1]), d[2] / (1 + d[1])];
function fromPlane(a: number, b: number): Vec3 {
  const r2 = a * a + b * b;
  return [(2 * a) / (1 + r2), (1 - r2) / (1 + r2), (2 * b) / (1 + r2)];
}
const onShape = (d: Vec3, extra: number, near?: number): Vec3 => {
  const r = headRadius(d, near) + extra;
  return [HEAD_CENTRE[0] + d[0] * r, HEAD_CENTRE[1] + d[1] * r, HEAD_CENTRE[2] + d[2] * r];
};

/**
 * A column: samples from the face oval (`start` in the plane, `origin` on the face's border) along
 * `dir` to the neck cut. It leaves the border along the face's own slope (`slope`, a unit vector)
 * and eases onto the head shape, so the face and the skin meet without a crease. `arc` is the
 * cumulative length at each sample.
 */
function sampleColumn(start: [number, number], dir: [number, number], origin: Vec3, slope: Vec3): { points: Vec3[]; arc: number[] } {
  const reach = cutDistance(start, dir);
  const shape: Vec3[] = [];
  const shapeArc = [0];
  for (let s = 0; s <= COLUMN_SAMPLES; s++) {
    const tau = (reach * s) / COLUMN_SAMPLES;
    shape.push(onShape(fromPlane(start[0] + dir[0] * tau, start[1] + dir[1] * tau), 0, s > 0 ? length(sub(shape[s - 1], HEAD_CENTRE)) : undefined));
    if (s > 0) shapeArc.push(shapeArc[s - 1] + length(sub(shape[s], shape[s - 1])));
  }
  const points = shape.map((p, s) => {
    const along = shapeArc[s];
    const w = smoothstep(along / EASE_LENGTH);
    return lerp([origin[0] + slope[0] * along, origin[1] + slope[1] * along, origin[2] + slope[2] * along], p, w);
  });
  const arc = [0];
  for (let s = 1; s < points.length; s++) arc.push(arc[s - 1] + length(sub(points[s], points[s - 1])));
  return { points, arc };
}

/** Fractional sample index at which the cumulative `arc` reaches `target`. */
function sampleAt(arc: number[], target: number): number {
  let s = 0;
  while (s < arc.length - 2 && arc[s + 1] < target) s++;
  return s + Math.min(1, (target - arc[s]) / (arc[s + 1] - arc[s] || 1));
}

/**
 * Evens out the grid where columns crowd (behind the ears, where the forehead's columns come
 * down the back of the head to meet the sides'): each vertex lying on the head shape moves
 * towards the mean of its four grid neighbours and back onto the shape along its ray.
 */
function relax(b: MeshBuilder, grid: number[][]): void {
  const K = grid.length - 1, M = grid[1].length;
  const onShape = (p: Vec3) => Math.abs(length(sub(p, HEAD_CENTRE)) - headRadius(normalize(sub(p, HEAD_CENTRE)))) < 1e-3;
  const movable = grid.map((ring, k) => (k < 2 || k >= K ? ring.map(() => false) : ring.map((v) => onShape(vertex(b.positions, v)))));
  for (let pass = 0; pass < RELAX_PASSES; pass++) {
    const next = new Map<number, Vec3>();
    for (let k = 2; k < K; k++) {
      for (let c = 0; c < M; c++) {
        if (!movable[k][c]) continue;
        const v = grid[k][c];
        const around = [grid[k - 1][c], grid[k + 1][c], grid[k][(c + M - 1) % M], grid[k][(c + 1) % M]];
        const mean = centroid(b.positions, around);
        const moved = lerp(vertex(b.positions, v), mean, 0.5);
        const d = normalize(sub(moved, HEAD_CENTRE));
        const r = headRadius(d, length(sub(moved, HEAD_CENTRE)));
        next.set(v, [HEAD_CENTRE[0] + d[0] * r, HEAD_CENTRE[1] + d[1] * r, HEAD_CENTRE[2] + d[2] * r]);
      }
    }
    for (const [v, p] of next) b.positions.splice(3 * v, 3, p[0], p[1], p[2]);
  }
}

/**
 * The face's slope where it ends, per oval vertex: the direction from the face vertices next to it
 * (inside the oval) out to it.
 */
function faceSlopes(b: MeshBuilder, oval: number[]): Vec3[] {
  const onOval = new Set(oval);
  const inner = new Map<number, Set<number>>(oval.map((v) => [v, new Set<number>()]));
  for (let t = 0; t < b.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = b.indices[t + k];
      if (!onOval.has(a)) continue;
      for (const n of [b.indices[t + ((k + 1) % 3)], b.indices[t + ((k + 2) % 3)]]) if (!onOval.has(n)) inner.get(a)!.add(n);
    }
  }
  return oval.map((v) => normalize(sub(vertex(b.positions, v), centroid(b.positions, [...inner.get(v)!]))));
}

/** Where the straight plane ray from `origin` along `dir` leaves the region above the neck cut. */
function cutDistance(origin: [number, number], dir: [number, number]): number {
  const below = (t: number) => onShape(fromPlane(origin[0] + dir[0] * t, origin[1] + dir[1] * t), 0)[1] < NECK_CUT_Y;
  let lo = 0, hi = 0.25;
  while (!below(hi)) {
    lo = hi;
    hi += 0.25;
  }
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (below(mid)) hi = mid;
    else lo = mid;
  }
  return lo;
}

/**
 * Builds the skin onto `b`, whose vertices `oval` (ordered as a boundary loop) border the face.
 * `faceUvCentre` is the centre of the face's UV island, the pole of the skin's radial UV layout.
 */
export function buildSkin(b: MeshBuilder, oval: number[], faceUvCentre: [number, number], options: SkinOptions): SkinGrid {
  const { columnsPerEdge: m, rings: K } = options;
  const n = oval.length, M = n * m;
  const ovalPoints = oval.map((v) => vertex(b.positions, v));
  const ovalDirs = ovalPoints.map((p) => normalize(sub(p, HEAD_CENTRE)));
  const ovalPlane = ovalDirs.map(toPlane);
  const slopes = faceSlopes(b, oval);
  const centre = toPlane(normalize(sub(centroid(b.positions, oval), HEAD_CENTRE)));
  assertStarShaped(ovalPlane, centre);

  const columns = Array.from({ length: M }, (_, c) => {
    const i = Math.floor(c / m), t = (c % m) / m, j = (i + 1) % n;
    const start: [number, number] = [ovalPlane[i][0] + (ovalPlane[j][0] - ovalPlane[i][0]) * t, ovalPlane[i][1] + (ovalPlane[j][1] - ovalPlane[i][1]) * t];
    const away = [start[0] - centre[0], start[1] - centre[1]];
    const dir: [number, number] = [away[0] / Math.hypot(away[0], away[1]), away[1] / Math.hypot(away[0], away[1])];
    const uvInner = lerpUv(b, oval[i], oval[j], t);
    const origin = lerp(ovalPoints[i], ovalPoints[j], t);
    return { ...sampleColumn(start, dir, origin, normalize(lerp(slopes[i], slopes[j], t))), uvInner, uvOuter: boxHit(faceUvCentre, uvInner, options.uvBox) };
  });
  // Ring k sits at the k/K fraction of each column's length; those places are smoothed across
  // neighbouring columns, whose lengths differ, so that the rings run smoothly.
  let place = columns.map(({ arc }) => Array.from({ length: K + 1 }, (_, k) => sampleAt(arc, (arc[arc.length - 1] * k) / K)));
  for (let pass = 0; pass < RING_SMOOTHING; pass++) {
    place = place.map((row, c) => row.map((x, k) => (k === 0 || k === K ? x : (place[(c + M - 1) % M][k] + 2 * x + place[(c + 1) % M][k]) / 4)));
  }
  const grid: number[][] = Array.from({ length: K + 1 }, () => new Array<number>(M));
  columns.forEach(({ points, uvInner, uvOuter }, c) => {
    for (let k = 1; k <= K; k++) {
      const s = Math.min(Math.floor(place[c][k]), points.length - 2);
      const p = k === K ? points[points.length - 1] : lerp(points[s], points[s + 1], place[c][k] - s);
      const w = Math.min(k / options.uvRings, 1);
      grid[k][c] = b.vertex(k === K ? [p[0], NECK_CUT_Y, p[2]] : p, [uvInner[0] + (uvOuter[0] - uvInner[0]) * w, uvInner[1] + (uvOuter[1] - uvInner[1]) * w]);
    }
  });

  relax(b, grid);
  const earHoles = findEarHoles(b, grid, options);
  earHoles.forEach((hole, side) => roundOpening(b, grid, hole, side === 0 ? -1 : 1));
  b.stitch(oval, grid[1], oval.map((_, i) => i / n), grid[1].map((_, c) => c / M));
  const isHole = (k: number, c: number) => earHoles.some((h) => k >= h.k0 && k < h.k1 && c >= h.c0 && c < h.c1);
  for (let k = 1; k < K; k++) {
    for (let c = 0; c < M; c++) {
      if (isHole(k, c)) continue;
      const a = grid[k][c], a2 = grid[k][(c + 1) % M], o = grid[k + 1][c], o2 = grid[k + 1][(c + 1) % M];
      // Split along the shorter diagonal: where columns crowd, the quads are skewed.
      const d = (x: number, y: number) => length(sub(vertex(b.positions, x), vertex(b.positions, y)));
      if (d(a2, o) <= d(a, o2)) {
        b.triangle(a2, a, o);
        b.triangle(a2, o, o2);
      } else {
        b.triangle(a2, a, o2);
        b.triangle(a, o, o2);
      }
    }
  }
  return { grid, cut: grid[K], columns: M, earHoles };
}

/**
 * The ear openings: the block of cells around the grid vertex nearest the ear's centre, and its
 * mirror image (column c mirrors column M - c, as the oval starts on the symmetry plane).
 */
function findEarHoles(b: MeshBuilder, grid: number[][], options: SkinOptions): [SkinHole, SkinHole] {
  let best = { k: 1, c: 0, d: Infinity };
  grid.forEach((ring, k) =>
    ring.forEach((v, c) => {
      const d = length(sub(vertex(b.positions, v), options.earCentre));
      if (k > 0 && d < best.d) best = { k, c, d };
    }),
  );
  const [rings, columns] = options.earCells;
  const M = grid[1].length;
  const k0 = Math.max(1, best.k - Math.floor(rings / 2));
  const c0 = best.c - Math.floor(columns / 2);
  return [
    { k0, k1: k0 + rings, c0, c1: c0 + columns },
    { k0, k1: k0 + rings, c0: M - c0 - columns, c1: M - c0 },
  ];
}

/** Cells round an ear's opening over which the skin follows its rounding. */
const ROUNDING_REACH = 3;
/** Passes of averaging that spread the rounding over those cells. */
const ROUNDING_PASSES = 200;

/**
 * Rounds an ear's opening to the pinna's outline. A block of cells is a parallelogram leaning forwards at the
 * top (the columns slant down towards the back), while the pinna leans back: the ear's stem rose from the
 * block's top-front corner, 1.5-2 cm in front of the pinna, as a thin fin. Each vertex of the opening goes, along
 * the head, to the opening's outline (ear.ts `openingOutline`) about the opening's centroid, at its angle as the
 * ear's rings are laid out; the skin round it follows by a displacement spread smoothly over ROUNDING_REACH cells
 * (fixed on the opening, nothing at the reach's edge), so that no cell folds. Every moved vertex keeps its height
 * over the head shape.
 */
function roundOpening(b: MeshBuilder, grid: number[][], hole: SkinHole, side: 1 | -1): void {
  const M = grid[1].length, K = grid.length - 1;
  const col = (c: number) => ((c % M) + M) % M;
  const loop: number[] = [];
  for (let c = hole.c0; c < hole.c1; c++) loop.push(grid[hole.k0][col(c)]);
  for (let k = hole.k0; k < hole.k1; k++) loop.push(grid[k][col(hole.c1)]);
  for (let c = hole.c1; c > hole.c0; c--) loop.push(grid[hole.k1][col(c)]);
  for (let k = hole.k1; k > hole.k0; k--) loop.push(grid[k][col(hole.c0)]);
  const { flat, angles } = loopAround(b.positions, loop, side);
  const outline = angles.map(openingOutline);
  const fixed = new Map<number, [number, number]>(loop.map((v, i) => [v, [outline[i][0] - flat[i][0], outline[i][1] - flat[i][1]]]));
  // The displacement (along back and up) of the skin round the opening: each vertex's the mean of its four
  // neighbours', pass after pass, the opening's fixed and the reach's edge still.
  const k0 = Math.max(2, hole.k0 - ROUNDING_REACH), k1 = Math.min(K - 1, hole.k1 + ROUNDING_REACH);
  const free: [number, number][] = [];
  for (let k = k0 + 1; k < k1; k++) {
    for (let c = hole.c0 - ROUNDING_REACH + 1; c < hole.c1 + ROUNDING_REACH; c++) {
      if (!(k >= hole.k0 && k <= hole.k1 && c >= hole.c0 && c <= hole.c1)) free.push([k, col(c)]);
    }
  }
  const moved = new Map(fixed);
  const at = (k: number, c: number) => moved.get(grid[k][col(c)]) ?? [0, 0];
  for (let pass = 0; pass < ROUNDING_PASSES; pass++) {
    const next = free.map(([k, c]): [number, number] => {
      const around = [at(k - 1, c), at(k + 1, c), at(k, c - 1), at(k, c + 1)];
      return [around.reduce((s, d) => s + d[0], 0) / 4, around.reduce((s, d) => s + d[1], 0) / 4];
    });
    free.forEach(([k, c], i) => moved.set(grid[k][c], next[i]));
  }
  const { back, up } = earFrame(side);
  for (const [v, [db, du]] of moved) {
    const p = vertex(b.positions, v), near = length(sub(p, HEAD_CENTRE));
    const height = near - headRadius(normalize(sub(p, HEAD_CENTRE)), near);
    const d = normalize(sub(add(p, add(scale(back, db), scale(up, du))), HEAD_CENTRE));
    const r = headRadius(d, near) + height;
    b.positions.splice(3 * v, 3, HEAD_CENTRE[0] + d[0] * r, HEAD_CENTRE[1] + d[1] * r, HEAD_CENTRE[2] + d[2] * r);
  }
}

function lerpUv(b: MeshBuilder, v0: number, v1: number, t: number): [number, number] {
  return [b.uvs[2 * v0] + (b.uvs[2 * v1] - b.uvs[2 * v0]) * t, b.uvs[2 * v0 + 1] + (b.uvs[2 * v1 + 1] - b.uvs[2 * v0 + 1]) * t];
}

/** Where the ray from `centre` through `p` meets the border of `box` (min u, min v, max u, max v). */
function boxHit(centre: [number, number], p: [number, number], box: [number, number, number, number]): [number, number] {
  const dx = p[0] - centre[0], dy = p[1] - centre[1];
  let t = Infinity;
  if (dx > 0) t = Math.min(t, (box[2] - centre[0]) / dx);
  if (dx < 0) t = Math.min(t, (box[0] - centre[0]) / dx);
  if (dy > 0) t = Math.min(t, (box[3] - centre[1]) / dy);
  if (dy < 0) t = Math.min(t, (box[1] - centre[1]) / dy);
  return [centre[0] + dx * t, centre[1] + dy * t];
}

/** The columns only fan out without crossing if the oval winds once, monotonically, around the centre. */
function assertStarShaped(points: [number, number][], centre: [number, number]): void {
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i], b = points[(i + 1) % points.length];
    const step = Math.atan2((a[0] - centre[0]) * (b[1] - centre[1]) - (a[1] - centre[1]) * (b[0] - centre[0]), (a[0] - centre[0]) * (b[0] - centre[0]) + (a[1] - centre[1]) * (b[1] - centre[1]));
    if (Math.sign(step) !== Math.sign(total || step)) throw new Error(`face oval not star-shaped around its centre at ${i}`);
    total += step;
  }
  if (Math.abs(Math.abs(total) - 2 * Math.PI) > 1e-6) throw new Error('face oval does not wind once around its centre');
}
