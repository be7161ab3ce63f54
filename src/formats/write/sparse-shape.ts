import type { MorphTarget } from '../../model/avatar.ts';
import { gatherVec3 } from '../../geometry/mesh/gather.ts';

/** Deltas below this (cm) are left out of a shape; a blendshape moves only part of the head. */
const DELTA_EPSILON = 1e-6;

export interface SparseShape {
  indexes: Int32Array;
  deltas: Float64Array;
}

/** The FBX, glTF and Unity JSON writers all ask for the same shapes; avatar documents are not changed once made. */
const cache = new WeakMap<MorphTarget, SparseShape>();

/** Sparse shape: the vertices a morph moves and their deltas (FBX, glTF and the Unity JSON store these). */
export function sparseShape(morph: MorphTarget): SparseShape {
  let shape = cache.get(morph);
  if (!shape) cache.set(morph, (shape = findMoved(morph)));
  return shape;
}

/**
 * The moved vertices' indexes as they are found, before their copy to the shape's own array: one array per thread,
 * grown to the largest mesh, as a fresh one per shape was most of these writers' typed-array garbage.
 */
let scratch = new Int32Array(0);

/**
 * Shapes another thread found from the same deltas (`shapes[k]` is `morphs[k]`'s), kept as if found here; a morph
 * whose shape this thread already found keeps its own (the same numbers).
 */
export function useSparseShapesFoundElsewhere(morphs: readonly MorphTarget[], shapes: readonly SparseShape[]): void {
  for (let k = 0; k < morphs.length; k++) if (!cache.has(morphs[k])) cache.set(morphs[k], shapes[k]);
}

function findMoved(morph: MorphTarget): SparseShape {
  const d = morph.deltas;
  if (scratch.length < d.length / 3) scratch = new Int32Array(d.length / 3);
  const moved = scratch;
  let count = 0;
  for (let v = 0, i = 0; i < d.length; v++, i += 3) {
    if (Math.abs(d[i]) > DELTA_EPSILON || Math.abs(d[i + 1]) > DELTA_EPSILON || Math.abs(d[i + 2]) > DELTA_EPSILON) moved[count++] = v;
  }
  // A shape that moves nothing keeps one zero delta: some readers reject empty shape arrays.
  const indexes = count === 0 ? Int32Array.of(0) : moved.slice(0, count);
  return { indexes, deltas: gatherVec3(d, indexes) };
}
