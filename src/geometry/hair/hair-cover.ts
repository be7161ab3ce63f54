/**
 * The skin a fitted hair mesh covers. Per head vertex, how much the mesh lies on it (1 where hair passes within NEAR cm,
 * fading to 0 at FAR): where the mesh stands for the hair, the photo's own hair must not also be baked into the skin
 * under it (it would show between the cards as a smear on the temples). And where the scalp's roots colour goes: under
 * the mesh, not beyond its edge (capUnderHair).
 */
import { emptyClosestPoint, type ClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';
import type { NeighbourLists } from '../mesh/adjacency.ts';

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

/** How far (cm) off a vertex's normal line the hair's closest point may lie and still be above it; none from the second. */
const ABOVE_NEAR = 0.3;
const ABOVE_FAR = 0.8;
/** Hair farther than this (cm) from the skin is above no vertex of it. */
const ABOVE_REACH = 4;

/**
 * `coverage` (per head vertex, 0..1: where hair would grow) where the fitted hair mesh lies above the skin, 0 beyond
 * it: the scalp's roots colour is for the skin seen between the cards, not for the forehead or the temples the mesh
 * leaves bare (the cap's fade from the face's border showed there as a dark band under the mesh's edge). Above means the
 * mesh's closest point (within ABOVE_REACH) lies along the vertex's outward normal: the hair stands about 1 cm off the
 * scalp (median 0.7-1 cm on most test avatars), so its distance alone does not tell the scalp under it from the forehead
 * just beyond its edge. Gaps of a ring between cards are closed (a dilation, then an erosion, over `neighbours`), so that
 * the skin does not show through them as pale specks.
 */
export function capUnderHair(coverage: Float32Array, head: ArrayLike<number>, normals: ArrayLike<number>, neighbours: NeighbourLists, hair: TriangleBvh): Float32Array {
  const above = new Float32Array(coverage.length);
  const hit = emptyClosestPoint();
  for (let v = 0; v < coverage.length; v++) {
    if (coverage[v] <= 0) continue;
    const x = head[v * 3], y = head[v * 3 + 1], z = head[v * 3 + 2];
    if (!hair.closestPoint(x, y, z, hit, ABOVE_REACH)) continue;
    const nx = normals[v * 3], ny = normals[v * 3 + 1], nz = normals[v * 3 + 2];
    const along = ((hit.x - x) * nx + (hit.y - y) * ny + (hit.z - z) * nz) / (Math.hypot(nx, ny, nz) || 1);
    if (along <= 0) continue;
    const off = Math.sqrt(Math.max(0, hit.distance * hit.distance - along * along));
    above[v] = smoothstepBetween(ABOVE_FAR, ABOVE_NEAR, off);
  }
  const closed = ringFilter(ringFilter(above, coverage, neighbours, Math.max), coverage, neighbours, Math.min);
  for (let v = 0; v < closed.length; v++) closed[v] *= coverage[v];
  return closed;
}

/** Each vertex where `where` is positive takes `pick` of its value and its neighbours' among those vertices. */
function ringFilter(values: Float32Array, where: Float32Array, { start, list }: NeighbourLists, pick: (a: number, b: number) => number): Float32Array {
  const out = new Float32Array(values.length);
  for (let v = 0; v < values.length; v++) {
    if (where[v] <= 0) continue;
    let value = values[v];
    for (let i = start[v]; i < start[v + 1]; i++) if (where[list[i]] > 0) value = pick(value, values[list[i]]);
    out[v] = value;
  }
  return out;
}
