import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { triangleBoxes } from '../mesh/box-grid.ts';
import { trianglesIntersect } from '../mesh/triangle-tests.ts';

/** Head triangles this far (cm) outside the candidates' box cannot meet them. */
const MARGIN = 0.05;
/** Tolerance of the crossing test, as `countIntersectionsBetween`'s (mesh/checks.ts), so both find the same pairs. */
const TOUCH_EPS = 1e-6;

/**
 * The first of `candidates` (placings of one eye's part: its points, in its own vertex order) whose triangles
 * (`indices`, into those points) cut none of the head's, or, if every one does, the first of those that cut fewest,
 * with the pairs of triangles it cuts. A fitted lid can lie where the template's placing of a part would cut it; the
 * candidates after the first are the next places the part may sit.
 */
export function firstClearOfHead(candidates: readonly Vec3[][], indices: Uint32Array, head: Pick<MeshData, 'positions' | 'indices'>): { points: Vec3[]; cuts: number } {
  const near = headNear(candidates, head);
  let best = { points: candidates[0], cuts: Infinity };
  for (const points of candidates) {
    const cuts = crossings(near, points, indices);
    if (cuts === 0) return { points, cuts };
    if (cuts < best.cuts) best = { points, cuts };
  }
  return best;
}

/**
 * Pairs of crossing triangles between the skin `near` and the part (`points`, `indices`): each pair whose boxes
 * overlap is tested, which for the few dozen triangles of skin about a part is quicker than a grid.
 */
function crossings(near: Pick<MeshData, 'positions' | 'indices'>, points: readonly Vec3[], indices: Uint32Array): number {
  const skinCount = near.positions.length / 3;
  const positions = new Float32Array(near.positions.length + 3 * points.length);
  positions.set(near.positions);
  points.forEach((p, i) => positions.set(p, 3 * (skinCount + i)));
  const skinBoxes = triangleBoxes(positions, 3, near.indices), partBoxes = triangleBoxes(positions.subarray(3 * skinCount), 3, indices);
  const skin = [0, 0, 0], part = [0, 0, 0];
  let count = 0;
  for (let t = 0; t < near.indices.length / 3; t++) {
    for (let u = 0; u < indices.length / 3; u++) {
      if (!boxesMeet(skinBoxes, t, partBoxes, u)) continue;
      for (let k = 0; k < 3; k++) [skin[k], part[k]] = [3 * near.indices[3 * t + k], 3 * (skinCount + indices[3 * u + k])];
      if (trianglesIntersect(positions, skin, part, TOUCH_EPS)) count++;
    }
  }
  return count;
}

function boxesMeet(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  for (let k = 0; k < 3; k++) if (a[6 * i + k] > b[6 * j + 3 + k] || b[6 * j + k] > a[6 * i + 3 + k]) return false;
  return true;
}

/**
 * The head's triangles whose boxes meet the box round all the candidates' points (grown by MARGIN), as a mesh of
 * their own vertices alone.
 */
function headNear(candidates: readonly Vec3[][], head: Pick<MeshData, 'positions' | 'indices'>): Pick<MeshData, 'positions' | 'indices'> {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const points of candidates) for (const p of points) for (let k = 0; k < 3; k++) [lo[k], hi[k]] = [Math.min(lo[k], p[k] - MARGIN), Math.max(hi[k], p[k] + MARGIN)];
  const { positions, indices } = head;
  const kept: number[] = [], renumbered = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    let meets = true;
    for (let k = 0; k < 3 && meets; k++) meets = Math.max(positions[a + k], positions[b + k], positions[c + k]) >= lo[k] && Math.min(positions[a + k], positions[b + k], positions[c + k]) <= hi[k];
    if (!meets) continue;
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k];
      if (!renumbered.has(v)) renumbered.set(v, renumbered.size);
      kept.push(renumbered.get(v)!);
    }
  }
  const near = new Float32Array(3 * renumbered.size);
  for (const [v, i] of renumbered) near.set([positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]], 3 * i);
  return { positions: near, indices: Uint32Array.from(kept) };
}
