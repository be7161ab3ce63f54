import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { add, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { alongPolyline } from './lid-rim.ts';
import { behindOnEyeball } from './behind-on-eyeball.ts';

/**
 * The wet strip where the lower lid meets the eyeball (cm): on a sphere just outside the eyeball and the cornea
 * (at most 0.024 out) and inside the lids' (the lid contour stays 0.04 out, eye-socket.ts), from under the margin
 * (`below`) to `above` over the eyeball, from beside the caruncle along most of the lid (its outer end, where a
 * squinting 1.6 lid folds most, left out).
 */
const TEAR = { gap: 0.025, below: 0, above: 0.015, from: 0.17, to: 0.75 };

/**
 * How far (cm, up along the eyeball) a tear line may sit above the template's place, the template's first: a fitted
 * lower lid's back can meet the eyeball a little above its margin's line and cut the strip there (on 1.6 three of the
 * 18 test photos' heads, 4-5 pairs of triangles at one or two stations, each cleared 0.05 mm higher; lower, none is).
 */
export const TEAR_SHIFTS: readonly number[] = [0, 0.005, 0.01, 0.015, 0.02];

/**
 * The tear line's points along the lower lid's margin (`rim`, inner corner to outer), two per station (on the margin's
 * line, then `above` it; both `shift` higher), in the order `addTearLine` makes its vertices. Each column lies on the
 * eyeball right behind its margin point as seen from the front (`behindOnEyeball`; along the line from the eyeball's
 * centre, the strip lay on the white of a fitted head, a pale stroke across it: p12-a). The columns stand out far enough that the strip's flat
 * chords between them keep `gap`, just outside the cornea (at most 0.24 mm out), which passes under the strip as the
 * eye looks down and the lower lid, rising in a squint, carries the strip over it. (With 1.6's six stations, 4 mm
 * apart, the chords sagged 0.19 mm; both templates now have 16.)
 */
export function tearLinePoints(rim: readonly Vec3[], eyeCentre: Vec3, eyeRadius: number, stations: number, shift = 0): Vec3[] {
  const dirs = tearMargins(rim, stations).map((margin) => behindOnEyeball(margin, eyeCentre, eyeRadius + TEAR.gap));
  const widest = Math.max(...dirs.slice(1).map((d, i) => Math.acos(Math.min(1, dot(d, dirs[i])))));
  const r = (eyeRadius + TEAR.gap) / Math.cos(widest / 2);
  return dirs.flatMap((dir) => {
    const upward = normalize(sub([0, 1, 0], scale(dir, dot([0, 1, 0], dir))));
    const on = (arc: number): Vec3 => add(eyeCentre, scale(normalize(add(dir, scale(upward, arc / r))), r));
    return [on(shift - TEAR.below), on(shift + TEAR.above)];
  });
}

/**
 * The tear line of one eye along the lower lid's margin (`rim`, inner corner to outer), as a strip of
 * `stations` columns added to `b`, UVs in `rect`. Faces away from the eyeball. Returns its vertices and,
 * per vertex, the margin point it holds to.
 */
export function addTearLine(b: MeshBuilder, rim: readonly Vec3[], eyeCentre: Vec3, eyeRadius: number, stations: number, rect: [number, number, number, number]): { vertices: number[]; roots: Vec3[] } {
  const points = tearLinePoints(rim, eyeCentre, eyeRadius, stations);
  // u runs against the columns so that the UVs keep the same winding.
  const [u0, v0, u1, v1] = rect;
  const ids = Array.from({ length: stations }, (_, i) => [0, 1].map((j) => b.vertex(points[2 * i + j], [u1 - ((u1 - u0) * i) / (stations - 1), j === 0 ? v0 : v1])));
  for (let i = 1; i < stations; i++) {
    b.triangle(ids[i][0], ids[i - 1][0], ids[i - 1][1]);
    b.triangle(ids[i][0], ids[i - 1][1], ids[i][1]);
  }
  return { vertices: ids.flat(), roots: tearMargins(rim, stations).flatMap((m) => [m, m]) };
}

/** The margin points the columns hold to, from the eye's left (+X side) to its right as seen from the front: the strip's front faces outward. */
function tearMargins(rim: readonly Vec3[], stations: number): Vec3[] {
  const margins = Array.from({ length: stations }, (_, i) => alongPolyline(rim, TEAR.from + ((TEAR.to - TEAR.from) * i) / (stations - 1)));
  return margins[0][0] < margins[stations - 1][0] ? margins.reverse() : margins;
}
