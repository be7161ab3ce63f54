import type { Vec3 } from '../../model/avatar.ts';
import type { Sphere } from '../mesh/sphere-fit.ts';
import { firstClearOfHead } from '../template/clear-of-head.ts';
import { inBoxAround, trianglesWithCornerIn } from '../mesh/near-points.ts';

/**
 * How a lid passing through a caruncle may press it: the share of the room between it and its eyeball it is pressed
 * in by, and how much of its thickness it keeps (pressed all the way, it flattens on the eyeball).
 */
const PRESS = [[0, 1], [1 / 3, 1], [2 / 3, 1], [1, 1], [1, 0.5], [1, 0.25]] as const;
/** The caruncle pressed as far as it goes stays this far (cm) off the eyeball. */
const LEFT_OFF = 0.003;
/** Skin further (cm) from a caruncle at rest than this is not looked at: the inner corner's lining and lids about it. */
const REACH = 0.3;
/** Skin further (cm) from a caruncle at rest than this cannot reach it in any shape: a lid's whole travel. */
const TRAVEL = 1.5;

interface Around {
  /** Head vertices within REACH of a caruncle. */
  vertices: Uint32Array;
  /** Head triangles (indices) with a corner within TRAVEL of one. */
  triangles: Uint32Array;
}

const aroundOf = new WeakMap<ArrayLike<number>, Around>();

/**
 * The head's skin about the caruncles (`caruncles`, on `head` at rest, `indices` its triangles), found once per
 * avatar: a shape that moves none of its `vertices` cannot bring skin through a caruncle, even one that leaves the
 * caruncle's own lid triangles still (a look down turns the lining beside the inner corner), and only its `triangles`
 * can meet one.
 */
export function skinAroundCaruncles(head: ArrayLike<number>, indices: Uint32Array, caruncles: ArrayLike<number>): Around {
  let found = aroundOf.get(caruncles);
  if (!found) {
    const vertices: number[] = [];
    inBoxAround(head, caruncles, REACH).forEach((inside, v) => inside && vertices.push(v));
    found = { vertices: Uint32Array.from(vertices), triangles: trianglesWithCornerIn(indices, inBoxAround(head, caruncles, TRAVEL)) };
    aroundOf.set(caruncles, found);
  }
  return found;
}

/**
 * Presses each eye's caruncle (`points`, both eyes', left first, as shaped, in place) towards its eyeball as far as
 * keeps it clear of the shaped head, when a lid comes through it: a squint or a look down brings the lid's back or the
 * lining over the inner corner where the caruncle rests (5-38 pairs of triangles in the worst shape on seven of the
 * 36 test avatars, 18 per template). Where no press clears it, it moves to the first of `seatings` (per eye, its places in the
 * shaped corner; made only then) that does; where none does, it takes whichever of them all cuts the fewest.
 * `triangles` are one eye's (indices into its points); `eyes` the shaped eyeballs, left first.
 */
export function pressCaruncles(points: Float32Array, triangles: Uint32Array, head: { positions: Float32Array; indices: Uint32Array }, eyes: readonly Sphere[], seatings: () => readonly Vec3[][][]): void {
  const perEye = points.length / 6;
  let seats: readonly Vec3[][][] | undefined;
  eyes.forEach((eye, e) => {
    const own = Array.from({ length: perEye }, (_, i): Vec3 => [points[3 * (e * perEye + i)], points[3 * (e * perEye + i) + 1], points[3 * (e * perEye + i) + 2]]);
    const off = (p: Vec3) => Math.hypot(p[0] - eye.center[0], p[1] - eye.center[1], p[2] - eye.center[2]);
    const inner = Math.min(...own.map(off)), room = Math.max(0, inner - eye.radius - LEFT_OFF);
    const pressed = PRESS.map(([share, kept]) => own.map((p): Vec3 => {
      const d = off(p), k = (inner - share * room + kept * (d - inner)) / d;
      return [eye.center[0] + k * (p[0] - eye.center[0]), eye.center[1] + k * (p[1] - eye.center[1]), eye.center[2] + k * (p[2] - eye.center[2])];
    }));
    let chosen = firstClearOfHead(pressed, triangles, head);
    if (chosen.cuts > 0) {
      const moved = firstClearOfHead((seats ??= seatings())[e], triangles, head);
      if (moved.cuts < chosen.cuts) chosen = moved;
    }
    chosen.points.forEach((p, i) => points.set(p, 3 * (e * perEye + i)));
  });
}
