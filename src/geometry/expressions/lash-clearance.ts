import { overlappingPairs, triangleBoxes } from '../mesh/box-grid.ts';
import { trianglesIntersect } from '../mesh/triangle-tests.ts';
import type { HeadTemplate } from '../template/types.ts';

/**
 * Lash cards ride on one skin triangle each (bound-parts.ts), which a closing lid turns and shears with the skin
 * round it: on fitted heads the cards then cut the lid they ride on (the upper lid's skin bulges over its roots as it
 * moves out over the lower lid) and the closed upper lid cuts the lower lashes' roots (at blink 652 upper and 214
 * lower pairs over the 36 eyes of the test photos; none on the templates). As real lashes pressed against skin, a
 * column whose card cuts the head turns about its root away from that skin, a step at a time, and one cut at its
 * root moves off the skin, until no card cuts the head.
 */
const STEP = {
  /** Radians a column turns per step. */
  turn: 0.05,
  /** cm a column's root moves off the skin per step. */
  shift: 0.005,
  /** The most steps (2.3 rad, 0.2 cm). */
  most: 45,
};
/** Head triangles this far (cm) outside the cards' bounds cannot meet them. */
const MARGIN = 0.1;
/** The pair grid's cell (cm): about twice a lash card's and a lid triangle's edge. */
const CELL = 0.2;
/** Tolerance of the crossing test, as `countIntersectionsBetween`'s (mesh/checks.ts), so both find the same pairs. */
const TOUCH_EPS = 1e-6;

/**
 * Moves the lash vertices `lashes` (placed on the shaped head `head`, in place) clear of the head: returns how many
 * pairs of a card's and the head's triangles still cross (0 unless the steps ran out).
 */
export function keepLashesClear(template: HeadTemplate, head: ArrayLike<number>, lashes: Float32Array): number {
  const roots = template.lashRoots, lashIndices = template.parts.eyelashes.indices;
  const near = headNearLashes(head, template.head.indices, lashes);
  const headCount = head.length / 3, firstLash = near.length / 3;
  const positions = new Float64Array(head.length + lashes.length);
  positions.set(head);
  const indices = new Uint32Array(near.length + lashIndices.length);
  indices.set(near);
  for (let i = 0; i < lashIndices.length; i++) indices[near.length + i] = lashIndices[i] + headCount;
  // Per column (by its root vertex): the summed normals of the skin it cuts, away from which it turns or moves.
  const turn = new Map<number, number[]>(), shift = new Map<number, number[]>();
  const first = [0, 0, 0], second = [0, 0, 0];
  let crossings = 0;
  for (let step = 0; ; step++) {
    positions.set(lashes, head.length);
    turn.clear();
    shift.clear();
    crossings = 0;
    overlappingPairs(triangleBoxes(positions, 3, indices), 3, CELL, (i, j) => {
      if (i < firstLash === j < firstLash) return;
      const [skin, card] = i < firstLash ? [i, j] : [j, i];
      for (let k = 0; k < 3; k++) {
        first[k] = 3 * indices[3 * skin + k];
        second[k] = 3 * indices[3 * card + k];
      }
      if (!trianglesIntersect(positions, first, second, TOUCH_EPS)) return;
      crossings++;
      const n = normalOf(positions, first);
      let atRoot = false;
      for (let k = 0; k < 3; k++) if (roots[indices[3 * card + k] - headCount] === indices[3 * card + k] - headCount) atRoot = true;
      // A cut next to the root is not undone by turning about it.
      const into = atRoot ? shift : turn;
      for (let k = 0; k < 3; k++) {
        const root = roots[indices[3 * card + k] - headCount];
        const sum = into.get(root) ?? [0, 0, 0];
        for (let m = 0; m < 3; m++) sum[m] += n[m];
        into.set(root, sum);
      }
    });
    if (crossings === 0 || step === STEP.most) return crossings;
    for (const [root, n] of shift) {
      const length = Math.hypot(n[0], n[1], n[2]) || 1;
      for (let v = 0; v < roots.length; v++) if (roots[v] === root) for (let k = 0; k < 3; k++) lashes[3 * v + k] += (STEP.shift * n[k]) / length;
    }
    for (const [root, n] of turn) turnColumn(lashes, roots, root, n);
  }
}

/** The head's triangles (indices) that reach within MARGIN of the lash cards' bounds. */
function headNearLashes(head: ArrayLike<number>, indices: ArrayLike<number>, lashes: Float32Array): number[] {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < lashes.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], lashes[i]);
    hi[i % 3] = Math.max(hi[i % 3], lashes[i]);
  }
  const near: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    let inside = true;
    for (let k = 0; k < 3 && inside; k++) {
      const a = head[3 * indices[t] + k], b = head[3 * indices[t + 1] + k], c = head[3 * indices[t + 2] + k];
      inside = Math.max(a, b, c) >= lo[k] - MARGIN && Math.min(a, b, c) <= hi[k] + MARGIN;
    }
    if (inside) near.push(indices[t], indices[t + 1], indices[t + 2]);
  }
  return near;
}

/** The unit normal of the triangle at coordinate offsets `t` (its winding's). */
function normalOf(p: Float64Array, t: number[]): number[] {
  const ux = p[t[1]] - p[t[0]], uy = p[t[1] + 1] - p[t[0] + 1], uz = p[t[1] + 2] - p[t[0] + 2];
  const vx = p[t[2]] - p[t[0]], vy = p[t[2] + 1] - p[t[0] + 1], vz = p[t[2] + 2] - p[t[0] + 2];
  const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx], length = Math.hypot(n[0], n[1], n[2]) || 1;
  return n.map((x) => x / length);
}

/** Turns the column at `root` by STEP.turn about its root, its tip towards `n` (Rodrigues, about the axis tip x n). */
function turnColumn(lashes: Float32Array, roots: Uint32Array, root: number, n: number[]): void {
  const rx = lashes[3 * root], ry = lashes[3 * root + 1], rz = lashes[3 * root + 2];
  let tip = root;
  for (let v = 0; v < roots.length; v++) if (roots[v] === root) tip = v;
  const tx = lashes[3 * tip] - rx, ty = lashes[3 * tip + 1] - ry, tz = lashes[3 * tip + 2] - rz;
  let ax = ty * n[2] - tz * n[1], ay = tz * n[0] - tx * n[2], az = tx * n[1] - ty * n[0];
  const length = Math.hypot(ax, ay, az);
  if (length < 1e-12) return;
  ax /= length;
  ay /= length;
  az /= length;
  const c = Math.cos(STEP.turn), s = Math.sin(STEP.turn);
  for (let v = 0; v < roots.length; v++) {
    if (roots[v] !== root || v === root) continue;
    const px = lashes[3 * v] - rx, py = lashes[3 * v + 1] - ry, pz = lashes[3 * v + 2] - rz;
    const along = (ax * px + ay * py + az * pz) * (1 - c);
    lashes[3 * v] = rx + px * c + (ay * pz - az * py) * s + ax * along;
    lashes[3 * v + 1] = ry + py * c + (az * px - ax * pz) * s + ay * along;
    lashes[3 * v + 2] = rz + pz * c + (ax * py - ay * px) * s + az * along;
  }
}
