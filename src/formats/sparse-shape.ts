import type { MorphTarget } from '../model/avatar.ts';

/** Deltas below this (cm) are left out of a shape; a blendshape moves only part of the head. */
const DELTA_EPSILON = 1e-6;

/** Sparse shape: the vertices a morph moves and their deltas (FBX shapes and the Unity JSON store these). */
export function sparseShape(morph: MorphTarget): { indexes: Int32Array; deltas: Float64Array } {
  const d = morph.deltas;
  const indexes: number[] = [];
  for (let v = 0; v < d.length / 3; v++) {
    if (Math.abs(d[v * 3]) > DELTA_EPSILON || Math.abs(d[v * 3 + 1]) > DELTA_EPSILON || Math.abs(d[v * 3 + 2]) > DELTA_EPSILON) indexes.push(v);
  }
  // A shape that moves nothing keeps one zero delta: some readers reject empty shape arrays.
  if (indexes.length === 0) indexes.push(0);
  const deltas = new Float64Array(indexes.length * 3);
  indexes.forEach((v, k) => deltas.set(d.subarray(v * 3, v * 3 + 3), k * 3));
  return { indexes: Int32Array.from(indexes), deltas };
}
