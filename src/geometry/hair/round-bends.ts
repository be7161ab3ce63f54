/**
 * A strand path's bends rounded. A card's path turns at its nodes, a few centimetres apart, and its texture's strands
 * followed each straight segment: hair sweeping from a parting down the side of the head read as a polygon of
 * strands, the kinks of neighbouring cards lined up into chevrons. Each segment meeting a bend sharper than
 * ROUND_BEND is cut into as many parts (at most MAX_PARTS) as it takes to turn by no more than that at a node, the new
 * nodes on the Catmull-Rom curve through the path's nodes, so the path itself is kept and only its corners round.
 */
import type { Vec3 } from '../../model/avatar.ts';
import { dot, normalize, sub } from '../mesh/vec.ts';

/** The largest turn (radians) at a node of the rounded path, up to MAX_PARTS parts a segment. */
export const ROUND_BEND = (10 * Math.PI) / 180;
const MAX_PARTS = 4;

export interface RoundedPath {
  points: Vec3[];
  /** The curve's direction at each point: its neighbours' chord (the first keeps the path's own start). */
  tangents: Vec3[];
  /** Each point's share of the way along the path's nodes (0 root .. 1 tip), as the card's texture lies on it. */
  along: number[];
}

/** `points` rounded; `start` is the path's direction at its root. */
export function roundBends(points: readonly Vec3[], start: Vec3): RoundedPath {
  const n = points.length;
  const at = (i: number) => points[Math.max(0, Math.min(n - 1, i))];
  const out: Vec3[] = [], along: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(points[i]);
    along.push(i / (n - 1));
    if (i + 1 === n) break;
    const parts = Math.min(MAX_PARTS, Math.ceil(Math.max(bendAt(points, i), bendAt(points, i + 1)) / ROUND_BEND));
    const [a, b, c, d] = [at(i - 1), points[i], points[i + 1], at(i + 2)];
    for (let k = 1; k < parts; k++) {
      const t = k / parts;
      out.push(catmullRom(a, b, c, d, t));
      along.push((i + t) / (n - 1));
    }
  }
  const tangents = out.map((_, i) => (i === 0 ? start : normalize(sub(out[Math.min(out.length - 1, i + 1)], out[i - 1]))));
  return { points: out, tangents, along };
}

/** The turn (radians) at node i; 0 at the ends. */
export function bendAt(points: readonly Vec3[], i: number): number {
  if (i <= 0 || i >= points.length - 1) return 0;
  const c = dot(normalize(sub(points[i], points[i - 1])), normalize(sub(points[i + 1], points[i])));
  return Math.acos(Math.max(-1, Math.min(1, c)));
}

/** The uniform Catmull-Rom curve through b (t = 0) and c (t = 1), a and d its neighbours. */
function catmullRom(a: Vec3, b: Vec3, c: Vec3, d: Vec3, t: number): Vec3 {
  const t2 = t * t, t3 = t2 * t;
  const q: Vec3 = [0, 0, 0];
  for (let j = 0; j < 3; j++) {
    q[j] = 0.5 * (2 * b[j] + (c[j] - a[j]) * t + (2 * a[j] - 5 * b[j] + 4 * c[j] - d[j]) * t2 + (3 * b[j] - a[j] - 3 * c[j] + d[j]) * t3);
  }
  return q;
}
