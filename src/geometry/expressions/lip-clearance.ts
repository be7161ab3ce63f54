import { overlappingPairs } from '../mesh/box-grid.ts';
import { inBoxAround } from '../mesh/near-points.ts';
import { smoothstep } from '../mesh/smoothstep.ts';
import { trianglesIntersect } from '../mesh/triangle-tests.ts';
import type { HeadTemplate } from '../template/types.ts';
import { mouthUnitOf, type ExpressionFrame } from './frame.ts';

/**
 * The avatars' closed lips meet (the neutral rests them together), and the mouth shapes move them by different
 * motions: the lower lip with the jaw, the upper one with the skin above it, each with its own falloff. Sheared or
 * pressed together, they cut through each other, or into the mouth bag behind them (`scripts/shape-crossings.ts` on
 * 2.0 before this: `jawForward`, `viseme_PP` and `polly_p` on 14 of the 18 test photos' heads, 178 of their 1,512
 * photo-shapes in all). As pressed lips stop against each other, a finished shape whose lips cross has its motion
 * taken back round the crossing, a step at a time (STEPS), towards where it starts from (`start`, which crosses
 * nothing), until it no longer crosses; `deltas` are the head's, changed in place.
 */
export function keepLipsClear(frame: ExpressionFrame, deltas: Float32Array, start: ArrayLike<number>): void {
  const area = lipArea(frame);
  const { vertices } = area;
  if (!movesAny(deltas, vertices)) return;
  const from = new Float64Array(3 * vertices.length), at = new Float64Array(3 * vertices.length);
  for (let i = 0; i < vertices.length; i++) {
    for (let k = 0; k < 3; k++) {
      from[3 * i + k] = start[3 * vertices[i] + k];
      at[3 * i + k] = from[3 * i + k] + deltas[3 * vertices[i] + k];
    }
  }
  let crossing = crossingVertices(area, at);
  if (crossing.length === 0) return;
  const seeds = new Uint8Array(vertices.length), held = new Float64Array(vertices.length);
  for (const share of STEPS) {
    for (const i of crossing) seeds[i] = 1;
    heldBack(from, seeds, FALLOFF * frame.mouthUnit, share, held);
    for (let i = 0; i < vertices.length; i++) {
      for (let k = 0; k < 3; k++) at[3 * i + k] = from[3 * i + k] + deltas[3 * vertices[i] + k] * (1 - held[i]);
    }
    crossing = crossingVertices(area, at);
    if (crossing.length > 0) continue;
    for (let i = 0; i < vertices.length; i++) for (let k = 0; k < 3; k++) deltas[3 * vertices[i] + k] *= 1 - held[i];
    return;
  }
}

/**
 * Shares of the shape taken back, a step after another while the lips still cross: each from the vertices of every
 * crossing found so far, fading out over FALLOFF from them. On the test photos' 2.0 heads 154 shapes crossed and
 * cleared, after 2.7 steps on average, 9 at most. A shape that still crosses after the last is left as made.
 */
const STEPS = [0.25, 0.5, 0.75, 1, 1, 1, 1, 1, 1, 1];
/** Mouth units over which the share taken back fades out from the crossing vertices. */
const FALLOFF = 0.4;
/**
 * Mouth units from the lips' inner contour (on the template) within which crossings are looked for: rolled in
 * (`mouthRollLower`), the lower lip's outer skin reaches the mouth bag 1.3-1.6 units from the contour.
 */
const AREA = 1.6;
/**
 * Mouth units between two triangles' boxes on an avatar's neutral within which a shape's crossing of them is looked
 * for. Before the lips were kept clear, 99 % of the test photos' shapes' crossing pairs lay within 0.17 units of each
 * other on their neutral, half of them touching (the closed lips). Within 0.25 (37,000 pairs on p01-a's head) every
 * crossing at the lips of the 18 photos' 2.0 heads was found; within 0.2 (27,000) four were left, within 0.1 ten.
 */
const NEAR = 0.25;

function movesAny(deltas: Float32Array, vertices: Uint32Array): boolean {
  for (const v of vertices) if (deltas[3 * v] !== 0 || deltas[3 * v + 1] !== 0 || deltas[3 * v + 2] !== 0) return true;
  return false;
}

/** Per vertex of the area, `share` of the shape taken back: whole at the seeds, fading out over `reach` (cm) from them. */
function heldBack(from: Float64Array, seeds: Uint8Array, reach: number, share: number, out: Float64Array): void {
  const seedList: number[] = [];
  for (let i = 0; i < seeds.length; i++) if (seeds[i]) seedList.push(i);
  for (let i = 0; i < out.length; i++) {
    let nearest = Infinity;
    for (const s of seedList) {
      const dx = from[3 * i] - from[3 * s], dy = from[3 * i + 1] - from[3 * s + 1], dz = from[3 * i + 2] - from[3 * s + 2];
      nearest = Math.min(nearest, dx * dx + dy * dy + dz * dz);
    }
    out[i] = share * (1 - smoothstep(Math.sqrt(nearest) / reach));
  }
}

/** The template's head round the lips (LipArea's triangles and vertices), found once per template. */
interface LipTopology {
  /** Head vertices: the triangles' corners. */
  vertices: Uint32Array;
  /** The triangles with a corner within AREA of the lips' inner contour, their corners in the area's own numbering. */
  triangles: Uint32Array;
}

/** The head round the lips on one avatar, with the pairs of its triangles a shape's crossing is looked for between. */
interface LipArea extends LipTopology {
  /** The pairs: per triangle t, its later partners `pairs[start[t]..start[t + 1]]`, sharing no corner with it. */
  start: Uint32Array;
  pairs: Uint32Array;
  /** The triangles' boxes, written again for each shape looked at. */
  boxes: Float64Array;
}

const topologies = new WeakMap<HeadTemplate, LipTopology>();
const areas = new WeakMap<ExpressionFrame, LipArea>();

function lipTopology(template: HeadTemplate, rim: readonly number[]): LipTopology {
  let topology = topologies.get(template);
  if (topology) return topology;
  const p = template.head.positions, { indices } = template.head;
  const reach = AREA * mouthUnitOf(p);
  const near = inBoxAround(p, Float32Array.from(rim.flatMap((v) => [p[3 * v], p[3 * v + 1], p[3 * v + 2]])), reach);
  for (let v = 0; v < near.length; v++) if (near[v]) near[v] = rim.some((r) => Math.hypot(p[3 * v] - p[3 * r], p[3 * v + 1] - p[3 * r + 1], p[3 * v + 2] - p[3 * r + 2]) < reach) ? 1 : 0;
  const local = new Int32Array(near.length).fill(-1), vertices: number[] = [], triangles: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    if (!near[indices[t]] && !near[indices[t + 1]] && !near[indices[t + 2]]) continue;
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k];
      if (local[v] < 0) local[v] = vertices.push(v) - 1;
      triangles.push(local[v]);
    }
  }
  topology = { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
  topologies.set(template, topology);
  return topology;
}

function lipArea(frame: ExpressionFrame): LipArea {
  let area = areas.get(frame);
  if (area) return area;
  const { vertices, triangles } = lipTopology(frame.template, frame.lipRim);
  const p = frame.fitted.head, at = new Float64Array(3 * vertices.length);
  for (let i = 0; i < vertices.length; i++) for (let k = 0; k < 3; k++) at[3 * i + k] = p[3 * vertices[i] + k];
  const count = triangles.length / 3, margin = (NEAR * frame.mouthUnit) / 2;
  const boxes = boxesOf(at, triangles, new Float64Array(6 * count));
  for (let b = 0; b < boxes.length; b++) boxes[b] += b % 6 < 3 ? -margin : margin;
  found.triangles = triangles;
  found.partners = Array.from({ length: count }, () => []);
  overlappingPairs(boxes, 3, 8 * margin, keepPair);
  const start = new Uint32Array(count + 1);
  for (let t = 0; t < count; t++) start[t + 1] = start[t] + found.partners[t].length;
  area = { vertices, triangles, start, pairs: Uint32Array.from(found.partners.flat()), boxes };
  found.partners = [];
  areas.set(frame, area);
  return area;
}

/** The pairs lipArea is finding. Its visitor is a module function over this, not a closure made per avatar: its optimised code would die with it. */
const found: { triangles: Uint32Array; partners: number[][] } = { triangles: new Uint32Array(0), partners: [] };

function keepPair(i: number, j: number): void {
  const t = found.triangles;
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) if (t[3 * i + a] === t[3 * j + b]) return;
  found.partners[Math.min(i, j)].push(Math.max(i, j));
}

/** The area's vertices (its own numbering, with repeats) on the pairs of its triangles that cut through each other at `at`. */
function crossingVertices(area: LipArea, at: Float64Array): number[] {
  const { triangles, start, pairs } = area;
  const boxes = boxesOf(at, triangles, area.boxes);
  const out: number[] = [];
  const first = [0, 0, 0], second = [0, 0, 0];
  for (let t = 0; t + 1 < start.length; t++) {
    const i = 6 * t;
    const x0 = boxes[i], y0 = boxes[i + 1], z0 = boxes[i + 2], x1 = boxes[i + 3], y1 = boxes[i + 4], z1 = boxes[i + 5];
    for (let e = start[t]; e < start[t + 1]; e++) {
      const j = 6 * pairs[e];
      // Without branches: neighbours' boxes overlap along some axes and not others, past the branch predictor's guess.
      if ((+(x0 <= boxes[j + 3]) & +(boxes[j] <= x1) & +(y0 <= boxes[j + 4]) & +(boxes[j + 1] <= y1) & +(z0 <= boxes[j + 5]) & +(boxes[j + 2] <= z1)) === 0) continue;
      const a = 3 * t, b = 3 * pairs[e];
      if (oneSide(at, triangles, a, b) || oneSide(at, triangles, b, a)) continue;
      for (let k = 0; k < 3; k++) {
        first[k] = 3 * triangles[a + k];
        second[k] = 3 * triangles[b + k];
      }
      if (trianglesIntersect(at, first, second, TOUCH_EPS)) for (let k = 0; k < 3; k++) out.push(triangles[a + k], triangles[b + k]);
    }
  }
  return out;
}

/** Each triangle's box at `at` (min xyz, then max xyz), into `out`. */
function boxesOf(at: Float64Array, triangles: Uint32Array, out: Float64Array): Float64Array {
  for (let t = 0, b = 0; t < triangles.length; t += 3, b += 6) {
    const p = 3 * triangles[t], q = 3 * triangles[t + 1], r = 3 * triangles[t + 2];
    for (let k = 0; k < 3; k++) {
      const x = at[p + k], y = at[q + k], z = at[r + k];
      out[b + k] = Math.min(x, y, z);
      out[b + 3 + k] = Math.max(x, y, z);
    }
  }
  return out;
}

/**
 * Do the corners of triangle `a` (at `triangles[a..a+2]`) all lie strictly on one side of triangle `b`'s plane? Then
 * the two do not cross: most pairs whose boxes meet are the closed lips lying against each other.
 */
function oneSide(at: Float64Array, triangles: Uint32Array, a: number, b: number): boolean {
  const o = 3 * triangles[b], p = 3 * triangles[b + 1], q = 3 * triangles[b + 2];
  const ux = at[p] - at[o], uy = at[p + 1] - at[o + 1], uz = at[p + 2] - at[o + 2];
  const vx = at[q] - at[o], vy = at[q + 1] - at[o + 1], vz = at[q + 2] - at[o + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  let above = 0, below = 0;
  for (let k = 0; k < 3; k++) {
    const c = 3 * triangles[a + k];
    const side = (at[c] - at[o]) * nx + (at[c + 1] - at[o + 1]) * ny + (at[c + 2] - at[o + 2]) * nz;
    if (side > 0) above++;
    else if (side < 0) below++;
  }
  return above === 3 || below === 3;
}

/** Tolerance of the crossing test, as `countIntersectionsBetween`'s (mesh/checks.ts), so both find the same pairs. */
const TOUCH_EPS = 1e-6;
