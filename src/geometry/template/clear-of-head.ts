import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { countIntersectionsBetween } from '../mesh/checks.ts';

/** Head triangles this far (cm) outside the candidates' box cannot meet them. */
const MARGIN = 0.05;

/**
 * The first of `candidates` (placings of one eye's part: its points, in its own vertex order) whose triangles
 * (`indices`, into those points) cut none of the head's, or, if every one does, the first of those that cut fewest. A
 * fitted lid can lie where the template's placing of a part would cut it; the candidates after the first are the next
 * places the part may sit.
 */
export function firstClearOfHead(candidates: readonly Vec3[][], indices: Uint32Array, head: Pick<MeshData, 'positions' | 'indices'>): Vec3[] {
  const near = headNear(candidates, head);
  let best = candidates[0], fewest = Infinity;
  for (const points of candidates) {
    const cuts = countIntersectionsBetween(near, { positions: Float32Array.from(points.flat()), indices });
    if (cuts === 0) return points;
    if (cuts < fewest) [best, fewest] = [points, cuts];
  }
  return best;
}

/**
 * The head's triangles whose boxes meet the box round all the candidates' points (grown by MARGIN), as a mesh of
 * their own vertices alone: the crossing count copies its positions for every candidate.
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
