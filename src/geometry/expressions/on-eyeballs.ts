import type { Vec3 } from '../../model/avatar.ts';
import type { Sphere } from '../mesh/sphere-fit.ts';

/**
 * Keeps what is laid on the eyeballs (the tear lines, the caruncles) on them as a shape moves the lids it follows:
 * each point of `points` is moved along the line from the nearer eyeball's centre (of `eyes`) to the distance its
 * `rest` point had. Carried by a lid alone, a fitted head's tear line (laid up to 5 mm behind its lid triangles) swung
 * into the eyeball and the cornea when the lid turned (squints, looks down).
 */
export function keepOnEyeballs(points: Float32Array, rest: ArrayLike<number>, eyes: readonly Sphere[]): void {
  const centres = eyes.map((e) => e.center);
  for (let i = 0; i < points.length; i += 3) {
    const distanceTo = (c: Vec3, p: ArrayLike<number>) => Math.hypot(p[i] - c[0], p[i + 1] - c[1], p[i + 2] - c[2]);
    const centre = centres.reduce((a, b) => (distanceTo(b, rest) < distanceTo(a, rest) ? b : a));
    const k = distanceTo(centre, rest) / distanceTo(centre, points);
    for (let j = 0; j < 3; j++) points[i + j] = centre[j] + k * (points[i + j] - centre[j]);
  }
}
