import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { add, cross, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { behindOnEyeball } from './behind-on-eyeball.ts';

/**
 * The caruncle: the small pink mound in the inner corner of the eye (cm). It sits this far in from
 * the corner towards the opening's middle and `drop` below it, on the lower lid's side of where the lids
 * meet (a closing upper lid passes over it), on a sphere `gap` outside the eyeball (inside the lids'), a
 * flattened ellipsoid of these half-axes: along the lid, up, out from the eyeball. (At a gap of 0.04, three of the
 * 18 fitted 2.0 heads' lids cut it at the inner corner, 28-38 pairs of triangles; at 0.05, two, 5 and 30: those
 * take the next of CARUNCLE_SEATS that their lids leave clear.)
 */
const CARUNCLE = { inset: 0.06, drop: 0.05, gap: 0.05, halfAxes: [0.07, 0.045, 0.016] as Vec3 };

/** Where a caruncle may sit, the template's seat first: further in along the lid, then nearer the eyeball. */
export type CaruncleSeat = Pick<typeof CARUNCLE, 'inset' | 'gap'>;
export const CARUNCLE_SEATS: readonly CaruncleSeat[] = [0.05, 0.035, 0.02].flatMap((gap) => [0.06, 0.08, 0.1, 0.12].map((inset) => ({ inset, gap })));

/**
 * A closed ellipsoid at the inner corner `corner` of an eye opening whose middle is `middle`, added to
 * `b` with `segments` points round and `rings` rings; UVs (a latitude-longitude grid) fill `rect`.
 * Returns its vertices and its seat on the lid (where it holds to it).
 */
export function addCaruncle(b: MeshBuilder, corner: Vec3, middle: Vec3, eyeCentre: Vec3, eyeRadius: number, segments: number, rings: number, rect: [number, number, number, number]): { vertices: number[]; seat: Vec3 } {
  const first = b.vertexCount;
  const points = caruncleOn(corner, middle, eyeCentre, eyeRadius, segments, rings);
  const [u0, v0, u1, v1] = rect;
  const top = b.vertex(points[0], [(u0 + u1) / 2, v1]);
  // One column doubled at the UV seam (same position, u at both ends).
  const ringIds = Array.from({ length: rings }, (_, r) =>
    Array.from({ length: segments + 1 }, (_, s) => b.vertex(points[1 + r * (segments + 1) + s], [u0 + ((u1 - u0) * s) / segments, v1 - ((v1 - v0) * (r + 1)) / (rings + 1)])),
  );
  const bottom = b.vertex(points[points.length - 1], [(u0 + u1) / 2, v0]);
  // Counter-clockwise from outside: `along`, `up`, `out` is right-handed, longitude turns from along to up.
  for (let s = 0; s < segments; s++) b.triangle(top, ringIds[0][s], ringIds[0][s + 1]);
  for (let r = 1; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      b.triangle(ringIds[r - 1][s], ringIds[r][s], ringIds[r][s + 1]);
      b.triangle(ringIds[r - 1][s], ringIds[r][s + 1], ringIds[r - 1][s + 1]);
    }
  }
  for (let s = 0; s < segments; s++) b.triangle(bottom, ringIds[rings - 1][s + 1], ringIds[rings - 1][s]);
  return { vertices: Array.from({ length: b.vertexCount - first }, (_, i) => first + i), seat: caruncleSeat(corner, middle) };
}

/** Where the caruncle holds to the lid: in from the corner towards the opening's middle, and below it. */
function caruncleSeat(corner: Vec3, middle: Vec3, inset = CARUNCLE.inset): Vec3 {
  return add(add(corner, scale(normalize(sub(middle, corner)), inset)), [0, -CARUNCLE.drop, 0]);
}

/**
 * The caruncle's points at the inner corner `corner` of an eye opening whose middle is `middle` (at the template's
 * seat unless `at` says otherwise), in the order `addCaruncle` makes its vertices (top pole, rings, bottom pole), on
 * the eyeball right behind its seat as seen from the front (`behindOnEyeball`; along the line from the eyeball's
 * centre, a fitted head's caruncle lay on the white well inside the corner, and cut into the eyeball on 8 of 18
 * avatars).
 */
export function caruncleOn(corner: Vec3, middle: Vec3, eyeCentre: Vec3, eyeRadius: number, segments: number, rings: number, at: CaruncleSeat = CARUNCLE): Vec3[] {
  const seat = caruncleSeat(corner, middle, at.inset);
  const inward = normalize(sub(middle, corner));
  const out = behindOnEyeball(seat, eyeCentre, eyeRadius + at.gap);
  const centre = add(eyeCentre, scale(out, eyeRadius + at.gap));
  const along = normalize(sub(inward, scale(out, dot(inward, out))));
  const up = cross(out, along);
  const [a, h, d] = CARUNCLE.halfAxes;
  // Poles along `out`; rings of latitude between them.
  const point = (lat: number, lon: number): Vec3 =>
    add(centre, add(add(scale(out, d * Math.cos(lat)), scale(along, a * Math.sin(lat) * Math.cos(lon))), scale(up, h * Math.sin(lat) * Math.sin(lon))));
  const ringPoints = Array.from({ length: rings }, (_, r) => Array.from({ length: segments + 1 }, (_, s) => point((Math.PI * (r + 1)) / (rings + 1), (2 * Math.PI * s) / segments)));
  return [point(0, 0), ...ringPoints.flat(), point(Math.PI, 0)];
}
