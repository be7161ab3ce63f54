import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { add, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { alongPolyline } from './lid-rim.ts';

/**
 * The wet strip where the lower lid meets the eyeball (cm): on a sphere just outside the eyeball and
 * inside the lids' (the lid contour stays 0.04 out, eye-socket.ts), from under the margin (`below`) to
 * `above` over the eyeball, from beside the caruncle along most of the lid (its outer end, where a
 * squinting 1.6 lid folds most, left out); the cornea (at most 0.024 out) passes under it when the eye
 * looks down.
 */
const TEAR = { gap: 0.028, below: 0, above: 0.025, from: 0.17, to: 0.75 };

/**
 * The tear line of one eye along the lower lid's margin (`rim`, inner corner to outer), as a strip of
 * `stations` columns added to `b`, UVs in `rect`. Faces away from the eyeball. Returns its vertices and,
 * per vertex, the margin point it holds to.
 */
export function addTearLine(b: MeshBuilder, rim: readonly Vec3[], eyeCentre: Vec3, eyeRadius: number, stations: number, rect: [number, number, number, number]): { vertices: number[]; roots: Vec3[] } {
  const r = eyeRadius + TEAR.gap;
  const columns = Array.from({ length: stations }, (_, i) => {
    const margin = alongPolyline(rim, TEAR.from + ((TEAR.to - TEAR.from) * i) / (stations - 1));
    const dir = normalize(sub(margin, eyeCentre));
    const upward = normalize(sub([0, 1, 0], scale(dir, dot([0, 1, 0], dir))));
    const on = (arc: number): Vec3 => add(eyeCentre, scale(normalize(add(dir, scale(upward, arc / r))), r));
    return { margin, points: [on(-TEAR.below), on(TEAR.above)] };
  });
  // Front faces outward: columns from the eye's left (+X side) to its right as seen from the front, u
  // running the other way so that the UVs keep the same winding.
  if (columns[0].margin[0] < columns[stations - 1].margin[0]) columns.reverse();
  const [u0, v0, u1, v1] = rect;
  const ids = columns.map((c, i) => c.points.map((p, j) => b.vertex(p, [u1 - ((u1 - u0) * i) / (stations - 1), j === 0 ? v0 : v1])));
  for (let i = 1; i < stations; i++) {
    b.triangle(ids[i][0], ids[i - 1][0], ids[i - 1][1]);
    b.triangle(ids[i][0], ids[i - 1][1], ids[i][1]);
  }
  return { vertices: ids.flat(), roots: columns.flatMap((c) => [c.margin, c.margin]) };
}
