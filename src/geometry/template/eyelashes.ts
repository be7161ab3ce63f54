import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { add, cross, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { alongPolyline } from './lid-rim.ts';

/**
 * One lid's lashes (cm): longest mid-lid, thinning out towards the corners; they leave the margin
 * this far out from the eyeball's surface (in front of the margin's edge, not in it), pointing away
 * from the eyeball and curling towards the brow (upper) or the cheek (lower) by `curl` radians root to tip.
 * They start a little way from the inner corner, where a lid has none.
 */
export const LASHES = {
  // The upper lashes stop short of the outer corner, where the closed upper lid's margin lies on the lower lid.
  upper: { length: 0.95, from: 0.18, to: 0.93, lift: 0, curl: 0.6, below: 0 },
  // The lower lashes leave the lid this far (cm) below its margin: the closed upper lid comes down over the
  // margin, in front of the lower lid (eyeBlink*), and must not meet them (at 0.3 mm it did, on the 2.0 template).
  lower: { length: 0.5, from: 0.22, to: 0.95, lift: 0, curl: 0.4, below: 0.04 },
  rootOut: 0.06,
  forward: 1.5,
};

export type LidName = 'upper' | 'lower';

/**
 * A card of one lid's lashes along its margin (`rim`, inner corner to outer), `stations` columns
 * from root to tip in `rows` rows, added to `b`. Its UVs fill `rect` ([u0, v0, u1, v1]): u along
 * the lid, v from the root (v0) to the tip, where the lash texture has its strands. The card faces
 * forward. Returns the vertices and, per vertex, its column's root (where the card holds to the lid) and the root's vertex.
 */
export function addLashCard(b: MeshBuilder, rim: readonly Vec3[], eyeCentre: Vec3, lid: LidName, stations: number, rows: number, rect: [number, number, number, number]): { vertices: number[]; roots: Vec3[]; rootVertices: number[] } {
  const shape = LASHES[lid];
  const towards: Vec3 = lid === 'upper' ? [0, 1, 0] : [0, -1, 0];
  const columns = Array.from({ length: stations }, (_, i) => {
    const t = shape.from + ((shape.to - shape.from) * i) / (stations - 1);
    const margin = alongPolyline(rim, t);
    const radial = normalize(sub(margin, eyeCentre));
    const root = add(add(margin, scale(radial, LASHES.rootOut)), [0, -shape.below, 0]);
    // Lashes leave the margin forwards (the lid's skin above and below it bulges out past the eyeball's radial).
    const out = normalize(add(radial, scale([0, 0, 1], LASHES.forward)));
    // Shorter towards the corners: full length over the middle of the lid.
    const length = shape.length * (0.4 + 0.6 * Math.sin(Math.PI * Math.min(1, (t - shape.from) / (shape.to - shape.from) * 0.9 + 0.05)));
    // The lash's plane: out from the eyeball and towards the brow or cheek; it turns in it as it curls.
    const side = normalize(sub(towards, scale(out, dot(towards, out))));
    const points: Vec3[] = [root];
    for (let j = 1; j < rows; j++) {
      const angle = shape.lift + (shape.curl * (j - 0.5)) / (rows - 1);
      const step = add(scale(out, Math.cos(angle)), scale(side, Math.sin(angle)));
      points.push(add(points[j - 1], scale(step, length / (rows - 1))));
    }
    return { t, points };
  });
  // Columns run so that the card's front (counter-clockwise) faces +Z whatever the eye and lid.
  const across = sub(columns[stations - 1].points[0], columns[0].points[0]);
  const up = sub(columns[Math.floor(stations / 2)].points[rows - 1], columns[Math.floor(stations / 2)].points[0]);
  if (cross(across, up)[2] < 0) columns.reverse();
  const [u0, v0, u1, v1] = rect;
  const ids = columns.map((c, i) => c.points.map((p, j) => b.vertex(p, [u0 + ((u1 - u0) * i) / (stations - 1), v0 + ((v1 - v0) * j) / (rows - 1)])));
  for (let i = 1; i < stations; i++) {
    for (let j = 1; j < rows; j++) {
      b.triangle(ids[i - 1][j - 1], ids[i][j - 1], ids[i][j]);
      b.triangle(ids[i - 1][j - 1], ids[i][j], ids[i - 1][j]);
    }
  }
  return { vertices: ids.flat(), roots: columns.flatMap((c) => c.points.map(() => c.points[0])), rootVertices: ids.flatMap((column) => column.map(() => column[0])) };
}
