import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { add, cross, dot, normalize, scale, sub } from '../mesh/vec.ts';

/**
 * The caruncle: the small pink mound in the inner corner of the eye (cm). It sits this far in from
 * the corner towards the opening's middle and `drop` below it, on the lower lid's side of where the lids
 * meet (a closing upper lid passes over it), on a sphere `gap` outside the eyeball (inside the lids'), a
 * flattened ellipsoid of these half-axes: along the lid, up, out from the eyeball.
 */
const CARUNCLE = { inset: 0.06, drop: 0.05, gap: 0.04, halfAxes: [0.07, 0.045, 0.016] as Vec3 };

/**
 * A closed ellipsoid at the inner corner `corner` of an eye opening whose middle is `middle`, added to
 * `b` with `segments` points round and `rings` rings; UVs (a latitude-longitude grid) fill `rect`.
 * Returns its vertices and its seat on the lid (where it holds to it).
 */
export function addCaruncle(b: MeshBuilder, corner: Vec3, middle: Vec3, eyeCentre: Vec3, eyeRadius: number, segments: number, rings: number, rect: [number, number, number, number]): { vertices: number[]; seat: Vec3 } {
  const first = b.vertexCount;
  const inward = normalize(sub(middle, corner));
  const seat = add(add(corner, scale(inward, CARUNCLE.inset)), [0, -CARUNCLE.drop, 0]);
  const out = normalize(sub(seat, eyeCentre));
  const centre = add(eyeCentre, scale(out, eyeRadius + CARUNCLE.gap));
  const along = normalize(sub(inward, scale(out, dot(inward, out))));
  const up = cross(out, along);
  const [a, h, d] = CARUNCLE.halfAxes;
  const [u0, v0, u1, v1] = rect;
  // Poles along `out`; rings of latitude between them.
  const point = (lat: number, lon: number): Vec3 =>
    add(centre, add(add(scale(out, d * Math.cos(lat)), scale(along, a * Math.sin(lat) * Math.cos(lon))), scale(up, h * Math.sin(lat) * Math.sin(lon))));
  const top = b.vertex(point(0, 0), [(u0 + u1) / 2, v1]);
  const ringIds = Array.from({ length: rings }, (_, r) => {
    const lat = (Math.PI * (r + 1)) / (rings + 1);
    // One column doubled at the UV seam (same position, u at both ends).
    return Array.from({ length: segments + 1 }, (_, s) => b.vertex(point(lat, (2 * Math.PI * s) / segments), [u0 + ((u1 - u0) * s) / segments, v1 - ((v1 - v0) * (r + 1)) / (rings + 1)]));
  });
  const bottom = b.vertex(point(Math.PI, 0), [(u0 + u1) / 2, v0]);
  // Counter-clockwise from outside: `along`, `up`, `out` is right-handed, longitude turns from along to up.
  for (let s = 0; s < segments; s++) b.triangle(top, ringIds[0][s], ringIds[0][s + 1]);
  for (let r = 1; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      b.triangle(ringIds[r - 1][s], ringIds[r][s], ringIds[r][s + 1]);
      b.triangle(ringIds[r - 1][s], ringIds[r][s + 1], ringIds[r - 1][s + 1]);
    }
  }
  for (let s = 0; s < segments; s++) b.triangle(bottom, ringIds[rings - 1][s + 1], ringIds[rings - 1][s]);
  return { vertices: Array.from({ length: b.vertexCount - first }, (_, i) => first + i), seat };
}
