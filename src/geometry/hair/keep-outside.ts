/**
 * The last word on "no hair inside the head": every hair vertex inside the head mesh, or closer to it than
 * `margin`, moves out along the normal of the nearest head triangle. The scalp map the cards grow over is
 * only an approximation of the surface; this checks against the mesh itself.
 */
import { TriangleBvh, emptyClosestPoint } from '../spatial/triangle-bvh.ts';

/** Moves positions (in place) out of the head; returns how many moved. */
export function keepOutside(positions: Float32Array, head: { positions: ArrayLike<number>; indices: ArrayLike<number> }, margin: number, bvh = TriangleBvh.build(head.positions, head.indices)): number {
  const hit = emptyClosestPoint();
  const hp = head.positions, hi = head.indices;
  let moved = 0;
  for (let v = 0; v < positions.length; v += 3) {
    if (!bvh.closestPoint(positions[v], positions[v + 1], positions[v + 2], hit)) continue;
    if (!hit.inside && hit.distance >= margin) continue;
    const a = hi[hit.triangle * 3] * 3, b = hi[hit.triangle * 3 + 1] * 3, c = hi[hit.triangle * 3 + 2] * 3;
    const ux = hp[b] - hp[a], uy = hp[b + 1] - hp[a + 1], uz = hp[b + 2] - hp[a + 2];
    const wx = hp[c] - hp[a], wy = hp[c + 1] - hp[a + 1], wz = hp[c + 2] - hp[a + 2];
    let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len; ny /= len; nz /= len;
    positions[v] = hit.x + nx * margin;
    positions[v + 1] = hit.y + ny * margin;
    positions[v + 2] = hit.z + nz * margin;
    moved++;
  }
  return moved;
}
