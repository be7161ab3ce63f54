import type { Vec3 } from '../../model/avatar.ts';
import type { Sphere } from '../mesh/sphere-fit.ts';
import { firstClearOfHead } from '../template/clear-of-head.ts';

/**
 * How a lid passing through a caruncle may press it: the share of the room between it and its eyeball it is pressed
 * in by, and how much of its thickness it keeps (pressed all the way, it flattens on the eyeball).
 */
const PRESS = [[0, 1], [1 / 3, 1], [2 / 3, 1], [1, 1], [1, 0.5], [1, 0.25]] as const;
/** The caruncle pressed as far as it goes stays this far (cm) off the eyeball. */
const LEFT_OFF = 0.003;
/** Skin further (cm) from a caruncle at rest than this is not looked at: the inner corner's lining and lids about it. */
const REACH = 0.3;

const around = new WeakMap<ArrayLike<number>, Uint32Array>();

/**
 * The head's vertices (of `head`, at rest) within REACH of the caruncles (`caruncles`, at rest): a shape that moves
 * none of them cannot bring skin through a caruncle, even one that leaves the caruncle's own lid triangles still (a
 * look down turns the lining beside the inner corner). Found once per avatar.
 */
export function skinAroundCaruncles(head: ArrayLike<number>, caruncles: ArrayLike<number>): Uint32Array {
  let found = around.get(caruncles);
  if (!found) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < caruncles.length; i++) [lo[i % 3], hi[i % 3]] = [Math.min(lo[i % 3], caruncles[i] - REACH), Math.max(hi[i % 3], caruncles[i] + REACH)];
    const near: number[] = [];
    for (let v = 0; v < head.length / 3; v++) if ([0, 1, 2].every((k) => head[3 * v + k] >= lo[k] && head[3 * v + k] <= hi[k])) near.push(v);
    around.set(caruncles, (found = Uint32Array.from(near)));
  }
  return found;
}

/**
 * Presses each eye's caruncle (`points`, both eyes', left first, as shaped, in place) towards its eyeball as far as
 * keeps it clear of the shaped head, when a lid comes through it: a squint or a look down brings the lid's back or the
 * lining over the inner corner where the caruncle rests (on the 18 test avatars 5-38 pairs of triangles in the worst
 * shape on seven of them). Where no press clears it, it moves to the first of `seatings` (per eye, its places in the
 * shaped corner) that does; where none does, it takes whichever of them all cuts the fewest. `triangles` are one
 * eye's (indices into its points); `eyes` the shaped eyeballs, left first.
 */
export function pressCaruncles(points: Float32Array, triangles: Uint32Array, head: { positions: Float32Array; indices: Uint32Array }, eyes: readonly Sphere[], seatings: readonly Vec3[][][]): void {
  const perEye = points.length / 6;
  eyes.forEach((eye, e) => {
    const own = Array.from({ length: perEye }, (_, i): Vec3 => [points[3 * (e * perEye + i)], points[3 * (e * perEye + i) + 1], points[3 * (e * perEye + i) + 2]]);
    const off = (p: Vec3) => Math.hypot(p[0] - eye.center[0], p[1] - eye.center[1], p[2] - eye.center[2]);
    const inner = Math.min(...own.map(off)), room = Math.max(0, inner - eye.radius - LEFT_OFF);
    const pressed = PRESS.map(([share, kept]) => own.map((p): Vec3 => {
      const d = off(p), k = (inner - share * room + kept * (d - inner)) / d;
      return [eye.center[0] + k * (p[0] - eye.center[0]), eye.center[1] + k * (p[1] - eye.center[1]), eye.center[2] + k * (p[2] - eye.center[2])];
    }));
    const chosen = firstClearOfHead([...pressed, ...seatings[e]], triangles, head);
    chosen.forEach((p, i) => points.set(p, 3 * (e * perEye + i)));
  });
}
