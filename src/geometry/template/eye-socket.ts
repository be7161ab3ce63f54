import type { Vec3 } from '../../model/avatar.ts';
import { centroid, vertex } from '../mesh/vec.ts';

/** Adult eyeball diameter 2.4 cm. */
export const EYEBALL_RADIUS = 1.2;
/**
 * The socket wraps the eyeball this far out: close behind the lids (the skin under the eye is
 * thin), further deeper, where its wide flat triangles must not cut into the eyeball.
 */
const SOCKET_GAP = { front: 0.08, back: 0.2 };
const SOCKET_RINGS = 7;
/** Ring points per contour point. */
const SPLIT = 3;
/** The eyelid contour stays at least this far outside the eyeball. */
const LID_GAP = 0.04;

export interface EyeFit {
  centre: Vec3;
  radius: number;
}

/**
 * The eyeball behind an eyelid loop: centred on the opening, looking along +Z, set back just
 * far enough that every point of the eyelid contour lies outside it.
 */
export function fitEyeball(positions: ArrayLike<number>, loop: readonly number[]): EyeFit {
  const c = centroid(positions, loop);
  const points = loop.map((v) => vertex(positions, v));
  // Depth at which the sphere through the nearest contour point has the wanted gap, per point.
  const reach = EYEBALL_RADIUS + LID_GAP;
  const z = Math.min(...points.map((p) => p[2] - Math.sqrt(Math.max(0, reach * reach - (p[0] - c[0]) ** 2 - (p[1] - c[1]) ** 2))));
  return { centre: [c[0], c[1], z], radius: EYEBALL_RADIUS };
}

/**
 * Rings that carry the eyelid loop back around the eyeball, on spheres just outside it, to a
 * pole behind it: the socket in which the eyeball turns. Ring points keep the contour's azimuth
 * order about the eye's axis, so the rings cannot cross.
 */
export function socketRings(positions: ArrayLike<number>, loop: readonly number[], eye: EyeFit): { rings: Vec3[][]; apex: Vec3 } {
  const [cx, cy, cz] = eye.centre;
  const angles = loop.map((v) => {
    const p = vertex(positions, v);
    return { azimuth: Math.atan2(p[1] - cy, p[0] - cx), polar: Math.atan2(Math.hypot(p[0] - cx, p[1] - cy), p[2] - cz) };
  });
  const rings: Vec3[][] = [];
  for (let k = 1; k <= SOCKET_RINGS; k++) {
    const r = eye.radius + SOCKET_GAP.front + ((SOCKET_GAP.back - SOCKET_GAP.front) * (k - 1)) / (SOCKET_RINGS - 1);
    const ring: Vec3[] = [];
    // The contour's points are far apart in azimuth; the rings split each step so that their flat
    // triangles stay close to the sphere.
    angles.forEach((a, i) => {
      const b = angles[(i + 1) % angles.length];
      const turn = Math.atan2(Math.sin(b.azimuth - a.azimuth), Math.cos(b.azimuth - a.azimuth));
      for (let s = 0; s < SPLIT; s++) {
        const f = s / SPLIT;
        const azimuth = a.azimuth + turn * f;
        const start = a.polar + (b.polar - a.polar) * f;
        const angle = start + ((Math.PI - start) * k) / (SOCKET_RINGS + 1);
        ring.push([cx + r * Math.sin(angle) * Math.cos(azimuth), cy + r * Math.sin(angle) * Math.sin(azimuth), cz + r * Math.cos(angle)]);
      }
    });
    rings.push(ring);
  }
  return { rings, apex: [cx, cy, cz - eye.radius - SOCKET_GAP.back] };
}
