import type { Skin, Vec3 } from '../../model/avatar.ts';
import { forEachSelfIntersection } from '../mesh/checks.ts';
import { withinReach } from '../mesh/near-points.ts';
import { gatherVec3 } from '../mesh/gather.ts';
import { neighbourLists, type NeighbourLists } from '../mesh/adjacency.ts';

/**
 * The template's skin gives each head vertex its jaw weight by where it lies on the template: the lower lip 1, the
 * upper 0, the corners a half. A fitted face can bring skin of one weight against skin of another: p12-a's lower lip
 * stands ahead of the upper at the corners, so with the jaw bone turned open its corner swept down through the upper
 * rim behind it (8 pairs of crossing triangles on 2.0 from 17 degrees, 4 on 1.6). Where the jaw bone, turned open to
 * each of TURNS, folds the skin round the mouth (the area), each crossing pair's corners take SHARE of the way to the
 * pair's mean jaw weight and their neighbours SPREAD of that change, in rounds, until nothing crosses: two triangles
 * of one weight turn as one. The head bone takes what the jaw gives up, and the jaw what the head does. The skin is
 * returned as it was where nothing crosses (the template's arrays, shared by every avatar), else as a copy.
 * The jaw turns about the x axis through `pivot`: the rig's bones keep identity rest rotations (template/rig.ts).
 */
export function clearJawSkin(positions: ArrayLike<number>, skin: Skin, jaw: { bone: number; head: number; pivot: Vec3 }, area: JawArea): Skin {
  const n = area.vertices.length;
  const weight = new Float64Array(n), total = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = area.vertices[i];
    for (let k = 0; k < 4; k++) {
      const joint = skin.joints[4 * v + k], w = skin.weights[4 * v + k];
      if (joint === jaw.bone) weight[i] += w;
      if (joint === jaw.bone || joint === jaw.head) total[i] += w;
    }
  }
  const at = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) at[3 * i + k] = positions[3 * area.vertices[i] + k];
  const posed = new Float64Array(3 * n);
  let pairs = crossingPairs(area, at, weight, jaw.pivot, posed);
  if (pairs.length === 0) return skin;
  const { neighbours } = area;
  const start = weight.slice(), best = { weight: weight.slice(), pairs: pairs.length };
  const sum = new Float64Array(n), count = new Uint16Array(n), delta = new Float64Array(n), spread = new Float64Array(n);
  for (let round = 0; round < ROUNDS && pairs.length > 0; round++) {
    sum.fill(0);
    count.fill(0);
    for (let p = 0; p < pairs.length; p += 2) {
      let mean = 0;
      for (let q = p; q < p + 2; q++) for (let k = 0; k < 3; k++) mean += weight[area.triangles[3 * pairs[q] + k]] / 6;
      for (let q = p; q < p + 2; q++) for (let k = 0; k < 3; k++) (sum[area.triangles[3 * pairs[q] + k]] += mean), count[area.triangles[3 * pairs[q] + k]]++;
    }
    for (let i = 0; i < n; i++) delta[i] = count[i] > 0 ? SHARE * (sum[i] / count[i] - weight[i]) : 0;
    // A crossing corner's neighbours follow part of its change: alone, it made a step to them that crossed next round.
    spread.fill(0);
    for (let i = 0; i < n; i++) {
      if (count[i] > 0) continue;
      let moved = 0, from = 0;
      for (let e = neighbours.start[i]; e < neighbours.start[i + 1]; e++) if (count[neighbours.list[e]] > 0) (moved += delta[neighbours.list[e]]), from++;
      if (from > 0) spread[i] = (SPREAD * moved) / from;
    }
    for (let i = 0; i < n; i++) weight[i] = Math.max(0, Math.min(total[i], weight[i] + delta[i] + spread[i]));
    pairs = crossingPairs(area, at, weight, jaw.pivot, posed);
    if (pairs.length < best.pairs) (best.weight = weight.slice()), (best.pairs = pairs.length);
  }
  // Where rounds did not clear it, the weights that crossed least.
  weight.set(best.weight);
  if (weight.every((w, i) => w === start[i])) return skin;
  const out = { joints: skin.joints.slice(), weights: skin.weights.slice() };
  for (let i = 0; i < n; i++) if (weight[i] !== start[i]) setJaw(out, area.vertices[i], jaw, weight[i], total[i]);
  return out;
}

/** Jaw bone turns (radians) the skin is looked at under: half open and open as far as `jawOpen` opens it. */
const TURNS = [10, 20].map((deg) => (deg * Math.PI) / 180);
const SHARE = 0.25;
const SPREAD = 0.5;
const ROUNDS = 40;

/** The head's triangles round the mouth, where the jaw's weight changes across skin that lies close together. */
export interface JawArea {
  /** Head vertices of the area, in the area's own numbering. */
  vertices: Uint32Array;
  /** The triangles with a corner within reach of the lips' inner contour, their corners in the area's numbering. */
  triangles: Uint32Array;
  neighbours: NeighbourLists;
  /** The grid's cell for the crossing test: twice the area's mean edge. */
  cellSize: number;
}

/** The head's triangles with a corner within `reach` of the lips' inner contour (the template's, once). */
export function jawArea(positions: ArrayLike<number>, indices: ArrayLike<number>, lipsInner: readonly number[], reach: number): JawArea {
  const near = withinReach(positions, gatherVec3(positions, lipsInner), reach);
  const local = new Int32Array(near.length).fill(-1), vertices: number[] = [], triangles: number[] = [];
  let edges = 0;
  for (let t = 0; t < indices.length; t += 3) {
    if (!near[indices[t]] && !near[indices[t + 1]] && !near[indices[t + 2]]) continue;
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k], w = indices[t + ((k + 1) % 3)];
      if (local[v] < 0) local[v] = vertices.push(v) - 1;
      triangles.push(local[v]);
      edges += Math.hypot(positions[3 * v] - positions[3 * w], positions[3 * v + 1] - positions[3 * w + 1], positions[3 * v + 2] - positions[3 * w + 2]);
    }
  }
  return { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles), neighbours: neighbourLists(vertices.length, triangles), cellSize: (2 * edges) / triangles.length };
}

/** The area's pairs of triangles that cross with the jaw turned open to any of TURNS, flat (i, j, i, j, ...). */
function crossingPairs(area: JawArea, at: Float64Array, weight: Float64Array, pivot: Vec3, posed: Float64Array): number[] {
  const pairs: number[] = [];
  for (const angle of TURNS) {
    turnOpen(at, weight, pivot, angle, posed);
    forEachSelfIntersection(posed, area.triangles, area.cellSize, (i, j) => pairs.push(i, j));
  }
  return pairs;
}

/** Each point `at` turned open by `angle` about the pivot's left-right axis, as far as its jaw weight takes it. */
function turnOpen(at: Float64Array, weight: Float64Array, pivot: Vec3, angle: number, out: Float64Array): void {
  const c = Math.cos(angle), s = Math.sin(angle);
  for (let i = 0; i < weight.length; i++) {
    const x = at[3 * i], y = at[3 * i + 1] - pivot[1], z = at[3 * i + 2] - pivot[2], w = weight[i];
    out[3 * i] = x;
    out[3 * i + 1] = pivot[1] + y + w * (c * y - s * z - y);
    out[3 * i + 2] = pivot[2] + z + w * (s * y + c * z - z);
  }
}

/**
 * Sets vertex `v`'s jaw weight, the head taking the rest of their `total`. A bone that had no slot takes a free one
 * (weight 0); one left at 0 gives its slot back as the template's packing leaves free slots (joint 0, weight 0).
 */
function setJaw(skin: Skin, v: number, jaw: { bone: number; head: number }, weight: number, total: number): void {
  const before = skin.weights.slice(4 * v, 4 * v + 4), joints = skin.joints.slice(4 * v, 4 * v + 4);
  if (setWeight(skin, v, jaw.bone, weight) && setWeight(skin, v, jaw.head, total - weight)) return;
  // Both or neither: a vertex with four other influences keeps its weights.
  skin.weights.set(before, 4 * v);
  skin.joints.set(joints, 4 * v);
}

function setWeight(skin: Skin, v: number, joint: number, to: number): boolean {
  let slot = -1;
  for (let k = 0; k < 4 && slot < 0; k++) if (skin.joints[4 * v + k] === joint && skin.weights[4 * v + k] > 0) slot = 4 * v + k;
  for (let k = 0; k < 4 && slot < 0 && to > 0; k++) if (skin.weights[4 * v + k] === 0) slot = 4 * v + k;
  if (slot < 0) return to === 0;
  skin.joints[slot] = to > 0 ? joint : 0;
  skin.weights[slot] = to;
  return true;
}
