import type { Vec3 } from '../../model/avatar.ts';
import { lerp, sub, length, vertex } from '../mesh/vec.ts';

/** The two lids' margins of one eye opening, each from the inner corner to the outer one. */
export interface LidRims {
  upper: Vec3[];
  lower: Vec3[];
}

/**
 * Splits an eyelid contour (closed, starting at the inner corner) at the outer corner, the point
 * farthest from the inner one; the half higher on average is the upper lid.
 */
export function lidRims(positions: ArrayLike<number>, loop: readonly number[]): LidRims {
  const points = loop.map((v) => vertex(positions, v));
  let outer = 1;
  points.forEach((p, k) => {
    if (length(sub(p, points[0])) > length(sub(points[outer], points[0]))) outer = k;
  });
  const one = points.slice(0, outer + 1), other = [points[0], ...points.slice(outer).reverse()];
  const meanY = (l: Vec3[]) => l.reduce((s, p) => s + p[1], 0) / l.length;
  return meanY(one) > meanY(other) ? { upper: one, lower: other } : { upper: other, lower: one };
}

/** The point at share t (0..1) of a polyline's length. */
export function alongPolyline(line: readonly Vec3[], t: number): Vec3 {
  const lengths = line.slice(1).map((p, k) => length(sub(p, line[k])));
  let rest = t * lengths.reduce((s, l) => s + l, 0);
  for (let k = 0; k < lengths.length; k++) {
    if (rest <= lengths[k] || k === lengths.length - 1) return lerp(line[k], line[k + 1], Math.min(1, rest / (lengths[k] || 1)));
    rest -= lengths[k];
  }
  return line[0];
}
