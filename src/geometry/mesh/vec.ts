import type { Vec3 } from '../../model/avatar.ts';

/** Small vector helpers on tuples; the heavy loops work on flat arrays instead. */
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const length = (a: Vec3): number => hypot3(a[0], a[1], a[2]);

/**
 * Math.hypot(x, y, z) to the last bit, without its cost: Node 20's V8 builds an array of the arguments on every
 * call (boxing each), hundreds of MB per avatar job in the hot loops. The same arithmetic as V8 11's builtin:
 * each magnitude scaled by the largest, the squares summed with Kahan's compensation in argument order.
 */
export function hypot3(x: number, y: number, z: number): number {
  const a = Math.abs(x), b = Math.abs(y), c = Math.abs(z);
  if (a === Infinity || b === Infinity || c === Infinity) return Infinity;
  if (a !== a || b !== b || c !== c) return NaN;
  const max = Math.max(a, b, c);
  if (max === 0) return 0;
  const na = a / max, nb = b / max, nc = c / max;
  const ab = na * na + nb * nb;
  const compensation = ab - na * na - nb * nb;
  return Math.sqrt(ab + (nc * nc - compensation)) * max;
}

export const normalize = (a: Vec3): Vec3 => scale(a, 1 / (length(a) || 1));
export const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
export const vertex = (positions: ArrayLike<number>, i: number): Vec3 => [
  positions[3 * i],
  positions[3 * i + 1],
  positions[3 * i + 2],
];
export function centroid(positions: ArrayLike<number>, ids: readonly number[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const i of ids) for (let k = 0; k < 3; k++) c[k] += positions[3 * i + k] / ids.length;
  return c;
}
