import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { countIntersectionsBetween } from '../mesh/checks.ts';

/** Head triangles this far (cm) outside the candidates' box cannot meet them. */
const MARGIN = 0.05;

/**
 * The first of `candidates` (placings of one eye's part: its points, in its own vertex order) whose triangles
 * (`indices`, into those points) cut none of the head's, or the first if every one does. A fitted lid can lie
 * where the template's placing of a part would cut it; the candidates after the first are the next places the
 * part may sit.
 */
export function firstClearOfHead(candidates: readonly Vec3[][], indices: Uint32Array, head: Pick<MeshData, 'positions' | 'indices'>): Vec3[] {
  const near = headNear(candidates, head);
  const found = candidates.find((points) => countIntersectionsBetween(near, { positions: Float32Array.from(points.flat()), indices }) === 0);
  return found ?? candidates[0];
}

/** The head's triangles whose boxes meet the box round all the candidates' points (grown by MARGIN). */
function headNear(candidates: readonly Vec3[][], head: Pick<MeshData, 'positions' | 'indices'>): Pick<MeshData, 'positions' | 'indices'> {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const points of candidates) for (const p of points) for (let k = 0; k < 3; k++) [lo[k], hi[k]] = [Math.min(lo[k], p[k] - MARGIN), Math.max(hi[k], p[k] + MARGIN)];
  const { positions, indices } = head;
  const kept: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [3 * indices[t], 3 * indices[t + 1], 3 * indices[t + 2]];
    const meets = [0, 1, 2].every((k) => Math.max(positions[a + k], positions[b + k], positions[c + k]) >= lo[k] && Math.min(positions[a + k], positions[b + k], positions[c + k]) <= hi[k]);
    if (meets) kept.push(indices[t], indices[t + 1], indices[t + 2]);
  }
  return { positions, indices: Uint32Array.from(kept) };
}
