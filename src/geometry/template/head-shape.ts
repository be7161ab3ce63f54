import type { Vec3 } from '../../model/avatar.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';

/**
 * The head's outer shape away from the face: a smooth union of a cranium with the occiput at its back, a jaw with the
 * mouth's floor under it and a neck, sized from the adult mean dimensions (cm, canonical face frame: Y up, face along
 * +Z, the tip of the chin at y = -9.4). It is star-shaped from `HEAD_CENTRE`, so the skin is a radial surface and
 * cannot cross itself.
 */
export const HEAD_CENTRE: Vec3 = [0, -1, -5.5];
/**
 * Height of the neck cut, the one opening of the head, where the bust's shoulders begin: about a
 * third of the head's height below the chin (the neck seen from the front is that short).
 */
export const NECK_CUT_Y = -15.5;

interface Ellipsoid {
  centre: Vec3;
  radii: Vec3;
}

/** Breadth 15.5, chin to vertex 23.5, glabella to back 19.8 (men's means, the canonical face is that size). */
const CRANIUM: Ellipsoid = { centre: [0, 3.7, -4.5], radii: [7.7, 10.4, 10.0] };
/**
 * The back of the skull above the nape. The cranium alone, blended into the neck, ran in one straight slope from the
 * crown down to the neck (a bulb seen from the side); the occiput rounds the skull's back off above the nape.
 */
const OCCIPUT: Ellipsoid = { centre: [0, 0, -9.5], radii: [5.5, 4, 5] };
const OCCIPUT_BLEND = 3;
const JAW: Ellipsoid = { centre: [0, -3.8, -1.5], radii: [6.6, 6.0, 5.6] };
/**
 * The floor of the mouth: under the chin the skin runs back nearly level (about 1 cm below the chin's tip) to the
 * throat, where it turns down the neck. The jaw's rounded underside alone, blended into the neck, made one slope
 * from the chin down the throat: a double chin on every head, and no jaw line seen from the side.
 */
const MOUTH_FLOOR: Ellipsoid = { centre: [0, -7.8, 0.8], radii: [4.2, 2.0, 3.8] };
/** The floor joins the jaw over a short blend, so the jaw's line stays. */
const FLOOR_BLEND = 2;
/** Neck: elliptic cylinder (circumference about 36 cm) ending inside the head. */
const NECK = { centreX: 0, centreZ: -6.0, radiusX: 5.3, radiusZ: 5.7, top: -1 };
/**
 * The nape: the neck's back comes forward by `inset` cm from its base (y = `base`, where the trapezius fans out to the
 * shoulders) up to below the occiput (y = `top`), so the neck's back line curves in under the skull.
 */
const NAPE = { inset: 1.5, base: -13, top: -6 };
const neckBackRadius = (y: number) => NECK.radiusZ - NAPE.inset * smoothstepBetween(NAPE.base, NAPE.top, y);
const BLEND = 3;
/**
 * The neck flows into the back of the head over a wide blend. Under the jaw, towards the front (from 3 cm behind
 * the throat's front to half a centimetre behind it, and from y = -6 down to -9), it narrows to a short one, so the
 * throat meets the mouth's floor at an angle. Narrowed from the neck's axis forward, the skin beside the ears moved
 * in under the pinnae (1.6 crossed them) and the jaw's sides folded with the jaw opened 20 degrees; at 2 instead of
 * 2.5 one test photo's fitted head still folded there.
 */
const NECK_BLEND = { wide: 6, underChin: 2.5 };
const THROAT_FRONT_Z = NECK.centreZ + NECK.radiusZ;
const neckBlend = (p: Vec3) =>
  NECK_BLEND.wide + (NECK_BLEND.underChin - NECK_BLEND.wide) * smoothstepBetween(THROAT_FRONT_Z - 3, THROAT_FRONT_Z - 0.5, p[2]) * smoothstepBetween(-6, -9, p[1]);

/** Approximate signed distance to an ellipsoid (exact on the surface, good near it). */
function ellipsoidDistance(p: Vec3, e: Ellipsoid): number {
  const x = (p[0] - e.centre[0]) / e.radii[0], y = (p[1] - e.centre[1]) / e.radii[1], z = (p[2] - e.centre[2]) / e.radii[2];
  const k0 = Math.hypot(x, y, z);
  const k1 = Math.hypot(x / e.radii[0], y / e.radii[1], z / e.radii[2]);
  return k1 === 0 ? -Math.min(...e.radii) : (k0 * (k0 - 1)) / k1;
}

function neckDistance(p: Vec3): number {
  const behind = p[2] < NECK.centreZ;
  const x = (p[0] - NECK.centreX) / NECK.radiusX, z = (p[2] - NECK.centreZ) / (behind ? neckBackRadius(p[1]) : NECK.radiusZ);
  const side = (Math.hypot(x, z) - 1) * Math.min(NECK.radiusX, NECK.radiusZ);
  return Math.max(side, p[1] - NECK.top);
}

function smoothMin(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - (h * h * k) / 4;
}

export function headDistance(p: Vec3): number {
  const jaw = smoothMin(ellipsoidDistance(p, JAW), ellipsoidDistance(p, MOUTH_FLOOR), FLOOR_BLEND);
  const cranium = smoothMin(ellipsoidDistance(p, CRANIUM), ellipsoidDistance(p, OCCIPUT), OCCIPUT_BLEND);
  return smoothMin(smoothMin(cranium, jaw, BLEND), neckDistance(p), neckBlend(p));
}

/**
 * Distance from HEAD_CENTRE along the unit direction `d` to the head's surface. `near`, a radius
 * of a nearby direction, narrows the search.
 */
export function headRadius(d: Vec3, near?: number): number {
  let inside = 0, outside = 4;
  const at = (t: number): Vec3 => [HEAD_CENTRE[0] + d[0] * t, HEAD_CENTRE[1] + d[1] * t, HEAD_CENTRE[2] + d[2] * t];
  if (near !== undefined && headDistance(at(near * 0.9)) < 0 && headDistance(at(near * 1.1)) >= 0) {
    inside = near * 0.9;
    outside = near * 1.1;
  }
  while (headDistance(at(outside)) < 0) {
    inside = outside;
    outside *= 1.5;
  }
  for (let i = 0; i < 40 && outside - inside > 1e-3; i++) {
    const mid = (inside + outside) / 2;
    if (headDistance(at(mid)) < 0) inside = mid;
    else outside = mid;
  }
  return (inside + outside) / 2;
}
