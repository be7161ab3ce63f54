/**
 * The last word on "no hair inside the head": every hair vertex closer to the head's centre than the
 * head's outermost surface around its direction (scalp-map.ts, outsideRadius) plus `margin` moves out
 * along that direction. Conservative (hair may stand a little further off than it must over steep parts
 * such as the ears), and cheap: no closest-point search over the head's triangles.
 */
import { outsideRadius, type ScalpMap } from './scalp-map.ts';
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';

/**
 * The furthest the map moves a vertex, cm. Seen from the cranium, a ray beside the neck passes out of the
 * neck and on to the shoulder, and the map keeps only the shoulder: a vertex in that gap is outside the
 * body, not 10 cm inside it. Deeper than this the map is not trusted; keepOutsideMesh decides exactly.
 */
export const MAX_PUSH = 1.5;

/** Moves positions (in place) out of the head the map describes; returns how many moved. */
export function keepOutside(positions: Float32Array, head: ScalpMap, margin: number): number {
  const [cx, cy, cz] = head.centre;
  let moved = 0;
  for (let v = 0; v < positions.length; v += 3) {
    const dx = positions[v] - cx, dy = positions[v + 1] - cy, dz = positions[v + 2] - cz;
    const r = Math.hypot(dx, dy, dz);
    const min = outsideRadius(head, positions[v], positions[v + 1], positions[v + 2]) + margin;
    if (r >= min || r === 0 || min - r > MAX_PUSH) continue;
    const k = min / r;
    positions[v] = cx + dx * k;
    positions[v + 1] = cy + dy * k;
    positions[v + 2] = cz + dz * k;
    moved++;
  }
  return moved;
}

/**
 * Below the cranium the scalp map says nothing: hair that falls onto the shoulders could pass into the
 * bust. Every vertex inside the closed head-and-bust mesh moves out to its closest surface point, `margin`
 * beyond it. Returns how many moved.
 */
export function keepOutsideMesh(positions: Float32Array, body: TriangleBvh, margin: number): number {
  const hit = emptyClosestPoint();
  let moved = 0;
  for (let v = 0; v < positions.length; v += 3) {
    const [x, y, z] = [positions[v], positions[v + 1], positions[v + 2]];
    if (!body.closestPoint(x, y, z, hit) || !hit.inside) continue;
    const d = Math.max(hit.distance, 1e-6);
    positions[v] = hit.x + ((hit.x - x) / d) * margin;
    positions[v + 1] = hit.y + ((hit.y - y) / d) * margin;
    positions[v + 2] = hit.z + ((hit.z - z) / d) * margin;
    moved++;
  }
  return moved;
}
