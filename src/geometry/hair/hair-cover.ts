/**
 * How much of the skin a fitted hair mesh lies over: per head vertex, 1 where hair passes within NEAR cm
 * of it, fading to 0 at FAR. Where the mesh stands for the hair, the photo's own hair must not also be
 * baked into the skin under it (it would show between the cards as a smear on the temples).
 */
import { emptyClosestPoint, type ClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';

/**
 * Only hair lying on the skin counts: with 1-3 cm (hair hanging beside the face) the texture lost so much of the
 * face's border that identity distance rose by 0.08 on p01-b, p02-a and p07-side; with 0.3-1 cm by 0.005.
 */
const NEAR = 0.3;
const FAR = 1;

/** The cover per head vertex id (0..1), asked on demand. */
export interface HairCover {
  at(vertex: number): number;
}

/**
 * `head`: the head's positions, on which the hair was fitted; `hair`: an index over the fitted hair mesh (the
 * pipeline refits its style's). Answers per vertex id, on demand: the texture asks only about the vertices
 * the photo is baked at, a tenth of the head's.
 */
export function hairCover(head: ArrayLike<number>, hair: TriangleBvh): HairCover {
  const cover: CoverState = { head, hair, hit: emptyClosestPoint(), at: coverAt };
  return cover;
}

interface CoverState extends HairCover {
  head: ArrayLike<number>;
  hair: TriangleBvh;
  /** Scratch for the closest-point query. */
  hit: ClosestPoint;
}

/**
 * HairCover.at, one module function for every cover rather than a closure per avatar: the texture bake's hot loop
 * inlined the closure by identity, and its optimized code was thrown away with the closure after every job.
 */
function coverAt(this: CoverState, v: number): number {
  const { head, hair, hit } = this;
  if (!hair.closestPoint(head[v * 3], head[v * 3 + 1], head[v * 3 + 2], hit, FAR)) return 0;
  return smoothstepBetween(FAR, NEAR, hit.distance);
}
