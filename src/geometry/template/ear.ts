import type { Vec3 } from '../../model/avatar.ts';
import { loopParameters } from '../mesh/builder.ts';
import { add, centroid, dot, normalize, scale, sub, vertex } from '../mesh/vec.ts';

/**
 * An ear: a shell grown from an opening left in the skin. A stem leaves the head, flares into
 * the pinna (an ellipse 6.2 cm tall, tilted back, standing further out at the back), turns over
 * the rim and comes back on the outer side into the hollow of the concha. Each base vertex keeps
 * its angle about the opening's centre on every ring, so the rings nest without crossing.
 */
const PINNA = { halfHeight: 3.1, halfWidth: 1.8, back: 0.9, up: 0.35, tilt: (15 * Math.PI) / 180 };
/**
 * Per ring: size of the outline, distance out from the head, how far its centre has moved from
 * the opening to the pinna's centre, extra distance at the back, and how much of the ring is
 * the outline (the rest is the opening itself).
 */
const RINGS: [number, number, number, number, number][] = [
  [0.45, 0.3, 0, 0, 0.5],
  [0.55, 0.6, 0.3, 0, 1],
  [0.9, 0.95, 1, 0.5, 1],
  [1.0, 1.2, 1, 0.6, 1],
  [1.03, 1.5, 1, 0.6, 1],
  [0.9, 1.6, 1, 0.55, 1],
  [0.6, 1.4, 1, 0.4, 1],
];
const CONCHA_OUT = 0.85;

export function earRings(positions: ArrayLike<number>, base: readonly number[], side: 1 | -1): { rings: Vec3[][]; apex: Vec3 } {
  const b = centroid(positions, base);
  const out = normalize([side, 0, -0.2]);
  const back = normalize(sub([0, 0, -1], scale(out, -out[2])));
  const up: Vec3 = [0, 1, 0];
  const centre = add(add(b, scale(back, PINNA.back)), scale(up, PINNA.up));
  const outline = (angle: number): [number, number] => {
    const x = PINNA.halfWidth * Math.cos(angle), y = PINNA.halfHeight * Math.sin(angle);
    return [x * Math.cos(PINNA.tilt) + y * Math.sin(PINNA.tilt), -x * Math.sin(PINNA.tilt) + y * Math.cos(PINNA.tilt)];
  };
  // Spread the base loop evenly around the outline (by arc length, in the loop's own turning sense).
  const rel = base.map((v) => sub(vertex(positions, v), b));
  const flat = rel.map((r): [number, number] => [dot(r, back), dot(r, up)]);
  let area = 0;
  flat.forEach((p, i) => {
    const q = flat[(i + 1) % flat.length];
    area += p[0] * q[1] - q[0] * p[1];
  });
  const start = flat.reduce((best, p, i) => (Math.abs(Math.atan2(p[1], p[0])) < Math.abs(Math.atan2(flat[best][1], flat[best][0])) ? i : best), 0);
  const along = loopParameters(positions, [...base.slice(start), ...base.slice(0, start)]);
  const angleOf = (i: number) => Math.atan2(flat[start][1], flat[start][0]) + Math.sign(area) * 2 * Math.PI * along[(i - start + base.length) % base.length];
  const rings = RINGS.map(([size, distance, shift, backExtra, blend]) =>
    base.map((v, i): Vec3 => {
      const [ob, ou] = outline(angleOf(i));
      const ringCentre = add(b, scale(sub(centre, b), shift));
      const target = add(add(ringCentre, scale(back, ob * size)), scale(up, ou * size));
      const onBase = add(vertex(positions, v), scale(out, -dot(rel[i], out)));
      const planar = add(scale(onBase, 1 - blend), scale(target, blend));
      const backness = Math.max(0, ob / PINNA.halfWidth);
      // The base's own curvature fades out as the rings leave the head.
      return add(planar, scale(out, distance + backExtra * backness + dot(rel[i], out) * (1 - blend)));
    }),
  );
  return { rings, apex: add(add(b, scale(back, PINNA.back * 0.8)), scale(out, CONCHA_OUT)) };
}
