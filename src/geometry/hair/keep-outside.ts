/**
 * The last word on "no hair inside the head": every hair vertex closer to the head's centre than the
 * head's outermost surface around its direction (scalp-map.ts, outsideRadius) plus `margin` moves out
 * along that direction. Conservative (hair may stand a little further off than it must over steep parts
 * such as the ears), and cheap: no closest-point search over the head's triangles.
 */
import { outsideRadius, surfaceRadius, type ScalpMap } from './scalp-map.ts';
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';

/**
 * The furthest the map moves a vertex, cm. Seen from the cranium, a ray beside the neck passes out of the
 * neck and on to the shoulder, and the map keeps only the shoulder: a vertex in that gap is outside the
 * body, not 10 cm inside it. Deeper than this the map is not trusted; keepOutsideMesh decides exactly.
 */
export const MAX_PUSH = 1.5;

/**
 * Moves positions (in place) out of the head the map describes; returns how many moved. The surface lies towards a
 * point where the outermost of the cells around it says (outsideRadius, safe for a triangle between vertices), or,
 * above height `exactAbove`, where the surface itself is (surfaceRadius) when an exact test follows. A height, not a
 * radius callback: the caller's closure, made per avatar, took this loop's optimised code with it every job.
 */
export function keepOutside(positions: Float32Array, head: ScalpMap, margin: number, exactAbove = Infinity): number {
  const [cx, cy, cz] = head.centre;
  let moved = 0;
  for (let v = 0; v < positions.length; v += 3) {
    const dx = positions[v] - cx, dy = positions[v + 1] - cy, dz = positions[v + 2] - cz;
    const r = Math.hypot(dx, dy, dz);
    const x = positions[v], y = positions[v + 1], z = positions[v + 2];
    const min = (y > exactAbove ? surfaceRadius(head, x, y, z) : outsideRadius(head, x, y, z)) + margin;
    if (r >= min || r === 0 || min - r > MAX_PUSH) continue;
    const k = min / r;
    positions[v] = cx + dx * k;
    positions[v + 1] = cy + dy * k;
    positions[v + 2] = cz + dz * k;
    moved++;
  }
  return moved;
}

/** Passes of keepOutsideMesh that settle hair pushed from one surface into the next (a few suffice). */
export const OUTSIDE_PASSES = 4;

/**
 * Below the cranium the scalp map says nothing: hair that falls onto the shoulders could pass into the
 * bust. Every vertex inside the closed head-and-bust mesh moves out to its closest surface point, `margin`
 * beyond it; a vertex pushed out of one surface can land inside a fold next to it (behind an ear), so this
 * repeats up to `passes` times while any vertex moved. A pass asks again only about the vertices the last
 * one moved: the others stand where they stood, outside the same mesh. Returns the moves in all.
 */
export function keepOutsideMesh(positions: Float32Array, body: TriangleBvh, margin: number, passes: number): number {
  const hit = emptyClosestPoint();
  let asked = Uint32Array.from({ length: positions.length / 3 }, (_, v) => v);
  let total = 0;
  for (let pass = 0; pass < passes && asked.length > 0; pass++) {
    let moved = 0;
    for (const v of asked) {
      const o = 3 * v;
      const x = positions[o], y = positions[o + 1], z = positions[o + 2];
      if (!body.closestPoint(x, y, z, hit) || !hit.inside) continue;
      const d = Math.max(hit.distance, 1e-6);
      positions[o] = hit.x + ((hit.x - x) / d) * margin;
      positions[o + 1] = hit.y + ((hit.y - y) / d) * margin;
      positions[o + 2] = hit.z + ((hit.z - z) / d) * margin;
      asked[moved++] = v;
    }
    asked = asked.subarray(0, moved);
    total += moved;
  }
  return total;
}
