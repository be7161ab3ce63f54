import type { Vec3 } from '../../model/avatar.ts';

/** The eye's films hug the eyeball no further out than this polar angle from its front (radians), where a lid corner lies beyond its outline. */
const MAX_POLAR = (75 * Math.PI) / 180;

/**
 * The direction from an eyeball's centre to the sphere of `radius` about it, right behind `point` as seen from the front
 * (+Z), within MAX_POLAR of the front. What lies on the eyeball along a fitted lid goes there, not along the line from
 * the centre: a fitted lid stands up to 5 mm in front of its eyeball, and that line met the eyeball well inside the
 * opening, on the white.
 */
export function behindOnEyeball(point: Vec3, eyeCentre: Vec3, radius: number): Vec3 {
  const side = [point[0] - eyeCentre[0], point[1] - eyeCentre[1]];
  const sine = Math.min(Math.hypot(side[0], side[1]) / radius, Math.sin(MAX_POLAR));
  const k = sine / (Math.hypot(side[0], side[1]) || 1);
  return [k * side[0], k * side[1], Math.sqrt(1 - sine * sine)];
}
