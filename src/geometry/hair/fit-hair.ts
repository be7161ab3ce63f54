/**
 * Fits a library hairstyle to an avatar: the template's cranium and the avatar's head share their vertex
 * numbering, so an RBF warp over scalp correspondences (a sample of the head's outer vertices) carries the
 * hair from one to the other; the style's standoff from the scalp is scaled to the photo's volume first,
 * and what would end up inside the avatar's head is pushed out of it.
 */
import type { MeshData, Skin, Vec3 } from '../../model/avatar.ts';
import { factorRbf, solveRbf, type RbfFactor, type RbfWarp } from '../fit/rbf.ts';
import { hypot3 } from '../mesh/vec.ts';
import { keepOutside, keepOutsideMesh, OUTSIDE_PASSES } from './keep-outside.ts';
import type { TriangleBvh } from '../spatial/triangle-bvh.ts';
import { onScalp, scalpMap, type ScalpMap } from './scalp-map.ts';

/** Scalp correspondences: about this many head vertices, spread evenly by index over the outer ones. */
const CENTRES = 240;
const SMOOTHING = 0.02;
/** How far (cm) above the template's ears' top hair still clears them wholly: the avatar's ears sit a little higher or lower, and the map's cells span some 0.6 cm. */
const EAR_SLACK = 1;

export interface ScalpWarp {
  vertices: number[];
  factor: RbfFactor;
}

/** The RBF system over a sample of the head's outer vertices (factorised once per template). */
export function scalpWarp(template: ArrayLike<number>, outer: readonly number[]): ScalpWarp {
  const stride = Math.max(1, Math.floor(outer.length / CENTRES));
  const vertices = outer.filter((_, i) => i % stride === 0);
  const centres = new Float64Array(vertices.length * 3);
  vertices.forEach((v, i) => centres.set([template[v * 3], template[v * 3 + 1], template[v * 3 + 2]], i * 3));
  return { vertices, factor: factorRbf(centres, SMOOTHING) };
}

/**
 * The style in template space with its distance from the scalp scaled by `volume` (1 keeps it), one factor
 * for all or one per vertex: hair standing further off or closer to the head, roots staying on the scalp
 * (see standoffFactor for how a fuller volume thickens it).
 */
export function scaleVolume(mesh: MeshData, map: ScalpMap, volume: number | ArrayLike<number>): Float32Array {
  const out = new Float32Array(mesh.positions);
  if (volume === 1) return out;
  for (let v = 0; v < out.length; v += 3) {
    const p: [number, number, number] = [out[v], out[v + 1], out[v + 2]];
    const s = onScalp(map, p, 0);
    const f = standoffFactor(typeof volume === 'number' ? volume : volume[v / 3], p[0] - s[0], p[1] - s[1], p[2] - s[2]);
    for (let k = 0; k < 3; k++) out[v + k] = s[k] + (p[k] - s[k]) * f;
  }
  return out;
}

/** The most (cm) that a volume may move a point away from where the style has it. */
export const VOLUME_REACH = 3;
/**
 * A fuller volume thickens the layer the hair lies in against the scalp, its first VOLUME_LAYER cm, by the volume,
 * and the relief over that layer (cards standing off it, locks, hanging strands) by the volume to the power
 * RELIEF_POWER only. Scaled by the volume alone, a short crop fitted to a full outline (volume 3.5, p10-a) stood its
 * cards up as spikes, a hedgehog from the side, and a side part turned into a mop.
 */
export const VOLUME_LAYER = 0.5;
const RELIEF_POWER = 0.5;

/**
 * The factor on the standoff of a point standing (dx, dy, dz) off the scalp at `volume`, limited so that it moves
 * the point at most VOLUME_REACH: a strand hanging 20 cm below its root scaled by 2 would otherwise become a 40 cm
 * spike. A flatter volume (under 1) draws every point in alike.
 */
function standoffFactor(volume: number, dx: number, dy: number, dz: number): number {
  const length = hypot3(dx, dy, dz);
  const factor = volume > 1 && length > VOLUME_LAYER ? (VOLUME_LAYER * volume + (length - VOLUME_LAYER) * volume ** RELIEF_POWER) / length : volume;
  const move = (factor - 1) * length;
  return Math.abs(move) <= VOLUME_REACH ? factor : 1 + Math.sign(move) * (VOLUME_REACH / length);
}

/** The warp from template space onto the avatar's head (`avatar`: fitted head positions), solved once for many point sets. */
export function avatarWarp(warp: ScalpWarp, template: ArrayLike<number>, avatar: ArrayLike<number>): (positions: Float32Array) => Float32Array {
  const d = new Float64Array(warp.vertices.length * 3);
  // A plain loop: forEach's closure, made per call, was compiled again every job.
  for (let i = 0; i < warp.vertices.length; i++) {
    const v = warp.vertices[i];
    for (let k = 0; k < 3; k++) d[i * 3 + k] = avatar[v * 3 + k] - template[v * 3 + k];
  }
  const rbf = solveRbf(warp.factor, d);
  const o = new Float64Array(3);
  return (positions) => warpedPoints(rbf, o, positions);
}

/**
 * The points moved by the warp (`o`: scratch). This loop and styleAt's are module functions, not in the closures
 * made per avatar: a closure's optimized code lives only as long as some closure of it does, so a loop inside the
 * closure was compiled again every job.
 */
function warpedPoints(rbf: RbfWarp, o: Float64Array, positions: Float32Array): Float32Array {
  const out = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    rbf.evaluate(positions[v], positions[v + 1], positions[v + 2], o);
    out[v] = positions[v] + o[0];
    out[v + 1] = positions[v + 1] + o[1];
    out[v + 2] = positions[v + 2] + o[2];
  }
  return out;
}

export interface FittedHair {
  geometry: MeshData;
  skin: Skin;
}

/**
 * A style carried onto the avatar's head by `warp` (avatarWarp), at any per-vertex volume: the scalp point and
 * the style's point are warped once; along a strand's way out from the scalp the smooth warp is close to linear,
 * so a point at any standoff lies on the line between the two.
 */
export function warpedStyle(map: ScalpMap, style: MeshData, warp: (positions: Float32Array) => Float32Array): (volume: ArrayLike<number>) => Float32Array {
  const root = warp(scaleVolume(style, map, 0));
  const full = warp(new Float32Array(style.positions));
  return (volume) => styleAt(root, full, volume);
}

/** The style's points at these per-vertex volumes, between its warped scalp points `root` and full points `full`. */
function styleAt(root: Float32Array, full: Float32Array, volume: ArrayLike<number>): Float32Array {
  const out = new Float32Array(root.length);
  for (let v = 0; v < out.length; v += 3) {
    const f = standoffFactor(volume[v / 3], full[v] - root[v], full[v + 1] - root[v + 1], full[v + 2] - root[v + 2]);
    for (let k = 0; k < 3; k++) out[v + k] = root[v + k] + f * (full[v + k] - root[v + k]);
  }
  return out;
}

/**
 * A library style on an avatar (`positions`: carried onto it, warpedStyle; `centre`: the cranium's centre carried
 * the same way; `lib.outer`: the head's outer vertices, as HairLibrary holds them), kept `margin` outside the
 * avatar's head (`avatar`: the fitted head's positions, numbered as the template's `lib.body`) and bust, with the style's skin.
 * The normals stay the style's (away from the cranium, the way hair is lit); the warp hardly turns them.
 * Above the ears' top the push takes the surface towards each vertex, not the outermost of the map's cells around
 * it: the style was built clear of the template's ears already, and on the avatar the cells' maximum took an ear's
 * rim for the hair just above it and threw that hair out to the rim (wings of cards over both ears on p12-a and
 * p04-a, beyond the photo's outline). Lower down hair may hang over an ear, and only the cells' maximum keeps its
 * triangles, not just its vertices, out of the ear. The exact closest-point test after it keeps every vertex outside.
 */
export function fitHair(lib: { outer: readonly number[]; body: TriangleBvh; face: { earTop: number } }, style: { mesh: MeshData; skin: Skin }, placed: Float32Array, centre: Vec3, avatar: Float32Array, margin: number): FittedHair {
  const positions = placed.slice();
  keepOutside(positions, scalpMap(avatar, lib.outer, undefined, centre), margin, lib.face.earTop + EAR_SLACK);
  keepOutsideMesh(positions, lib.body.refit(avatar), margin, OUTSIDE_PASSES);
  const { normals, uvs } = style.mesh;
  return { geometry: { positions, normals, uvs, indices: withoutCollapsed(style.mesh.indices, positions) }, skin: style.skin };
}

/**
 * `indices` without the triangles two of whose corners lie at one point: where several vertices inside the head are
 * pushed out onto the same point of it (a bun's pole ring on p01-a's skull), their triangles cover nothing, and
 * importers read them as lines (assimp splits them into a mesh of their own). The same array when none did.
 */
function withoutCollapsed(indices: Uint32Array, positions: Float32Array): Uint32Array {
  let count = 0;
  for (let t = 0; t < indices.length; t += 3) if (collapsed(indices, positions, t)) count++;
  if (count === 0) return indices;
  const kept = new Uint32Array(indices.length - 3 * count);
  for (let t = 0, k = 0; t < indices.length; t += 3) if (!collapsed(indices, positions, t)) kept.set(indices.subarray(t, t + 3), (k++) * 3);
  return kept;
}

/** Whether two corners of the triangle at `t` lie at one point (module functions: no closure made per avatar). */
function collapsed(indices: Uint32Array, positions: Float32Array, t: number): boolean {
  const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]];
  return samePoint(positions, a, b) || samePoint(positions, b, c) || samePoint(positions, a, c);
}

function samePoint(positions: Float32Array, a: number, b: number): boolean {
  return positions[3 * a] === positions[3 * b] && positions[3 * a + 1] === positions[3 * b + 1] && positions[3 * a + 2] === positions[3 * b + 2];
}
