/**
 * Each shape's head kept from crossing itself round the eyes. The lids' motions are checked for folds as they are made
 * (primitives.ts), but a squint's or a cheek squint's skin, lid back and socket lining can still cut through each other
 * at an eye's corner (2.0: p07-a's and p12-a's eyeSquintLeft, 9 vertices of crossing triangles each). There the
 * crossing triangles, with two rings of neighbours, are taken back towards where the shape starts (untangle.ts), in
 * small steps, so that the shape loses only what crossed.
 */
import type { HeadTemplate } from '../template/types.ts';
import { trianglesTouching, untangle } from '../fit/untangle.ts';
import type { Deltas } from './frame.ts';
import { hypot3 } from '../mesh/vec.ts';

/** Head vertices this far (cm, on the template) past an eyeball's surface are checked: every lid and brow motion's reach near the eye (`lidNear`: 1.3). */
const REACH = 1.5;

/**
 * Takes back, in place, what in each shape's head deltas makes the head at `head` + deltas cross itself near the eyes,
 * where the head at `head` does not.
 */
export function untangleAroundEyes(template: HeadTemplate, shapes: Iterable<Deltas>, head: Float32Array): void {
  const region = aroundEyes(template);
  const { indices } = template.head;
  const shaped = new Float32Array(head.length);
  for (const deltas of shapes) {
    const d = deltas.head;
    const box = movedBox(d, head, region.vertices);
    if (!box) continue;
    for (let i = 0; i < head.length; i++) shaped[i] = head[i] + d[i];
    // A moved triangle lies within its longest edge of the box; what crosses it, within its own box.
    grow(box, longestMovedEdge(region.triangles, indices, shaped, d));
    if (untangle(shaped, head, indices, trianglesMeeting(region.triangles, indices, shaped, box)) === 0) continue;
    for (let i = 0; i < head.length; i++) d[i] = shaped[i] - head[i];
  }
}

/** The box round what the shape moves of `vertices`, from where they start to where it takes them; undefined if it moves none. */
function movedBox(d: Float32Array, head: Float32Array, vertices: Uint32Array): Float64Array | undefined {
  const box = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
  for (const v of vertices) {
    if (!moves(d, v)) continue;
    for (let k = 0; k < 3; k++) {
      const a = head[3 * v + k], b = a + d[3 * v + k];
      box[k] = Math.min(box[k], a, b);
      box[k + 3] = Math.max(box[k + 3], a, b);
    }
  }
  return box[0] === Infinity ? undefined : box;
}

function moves(d: Float32Array, v: number): boolean {
  return d[3 * v] !== 0 || d[3 * v + 1] !== 0 || d[3 * v + 2] !== 0;
}

function grow(box: Float64Array, by: number): void {
  for (let k = 0; k < 3; k++) (box[k] -= by), (box[k + 3] += by);
}

/** The longest edge, at `positions`, of the triangles with a corner the shape moves. */
function longestMovedEdge(triangles: Uint32Array, indices: Uint32Array, positions: Float32Array, d: Float32Array): number {
  let most = 0;
  for (const t of triangles) {
    const a = indices[3 * t], b = indices[3 * t + 1], c = indices[3 * t + 2];
    if (!moves(d, a) && !moves(d, b) && !moves(d, c)) continue;
    most = Math.max(most, distance(positions, a, b), distance(positions, b, c), distance(positions, c, a));
  }
  return most;
}

function distance(p: Float32Array, a: number, b: number): number {
  return hypot3(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
}

/** Those of `triangles` whose box at `positions` meets `box`: the only ones that can cross a triangle inside it. */
function trianglesMeeting(triangles: Uint32Array, indices: Uint32Array, positions: Float32Array, box: Float64Array): Uint32Array {
  const out: number[] = [];
  for (const t of triangles) if (boxMeets(positions, indices[3 * t], indices[3 * t + 1], indices[3 * t + 2], box)) out.push(t);
  return Uint32Array.from(out);
}

function boxMeets(p: Float32Array, a: number, b: number, c: number, box: Float64Array): boolean {
  for (let k = 0; k < 3; k++) {
    if (Math.max(p[3 * a + k], p[3 * b + k], p[3 * c + k]) < box[k] || Math.min(p[3 * a + k], p[3 * b + k], p[3 * c + k]) > box[k + 3]) return false;
  }
  return true;
}

/** The face and socket triangles with a vertex within REACH of an eyeball on the template, and their vertices; once per template. */
function aroundEyes(template: HeadTemplate): { triangles: Uint32Array; vertices: Uint32Array } {
  let out = cache.get(template);
  if (!out) {
    const p = template.head.positions, count = p.length / 3;
    const { regions, eyes } = template;
    const near = [...regions.face, ...regions.eyeSocketLeft, ...regions.eyeSocketRight].filter((v) =>
      [eyes.left, eyes.right].some((e) => Math.hypot(p[3 * v] - e.centre[0], p[3 * v + 1] - e.centre[1], p[3 * v + 2] - e.centre[2]) < e.radius + REACH),
    );
    const triangles = trianglesTouching(template.head.indices, near, count);
    const mark = new Uint8Array(count);
    for (const t of triangles) for (let k = 0; k < 3; k++) mark[template.head.indices[3 * t + k]] = 1;
    out = { triangles, vertices: Uint32Array.from({ length: count }, (_, v) => v).filter((v) => mark[v] === 1) };
    cache.set(template, out);
  }
  return out;
}
const cache = new WeakMap<HeadTemplate, { triangles: Uint32Array; vertices: Uint32Array }>();
