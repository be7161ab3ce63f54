/**
 * How much of the skin a fitted hair mesh lies over: per head vertex, 1 where hair passes within NEAR cm
 * of it, fading to 0 at FAR. Where the mesh stands for the hair, the photo's own hair must not also be
 * baked into the skin under it (it would show between the cards as a smear on the temples).
 */
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';

/**
 * Only hair lying on the skin counts: with 1-3 cm (hair hanging beside the face) the texture lost so much of the
 * face's border that identity distance rose by 0.08 on p01-b, p02-a and p07-side; with 0.3-1 cm by 0.005.
 */
const NEAR = 0.3;
const FAR = 1;

/**
 * `head`: the head's positions, on which the hair was fitted; `hair`: an index over the fitted hair mesh (the
 * pipeline refits its style's). Answers per vertex id, on demand: the texture asks only about the vertices
 * the photo is baked at, a tenth of the head's.
 */
export function hairCover(head: ArrayLike<number>, hair: TriangleBvh): (vertex: number) => number {
  const hit = emptyClosestPoint();
  return (v) => {
    if (!hair.closestPoint(head[v * 3], head[v * 3 + 1], head[v * 3 + 2], hit, FAR)) return 0;
    const t = Math.min(1, Math.max(0, (FAR - hit.distance) / (FAR - NEAR)));
    return t * t * (3 - 2 * t);
  };
}
