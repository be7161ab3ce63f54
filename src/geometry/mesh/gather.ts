/** The xyz triples of `source` at the given vertex indexes, in that order, as doubles (into `out` when given). */
export function gatherVec3(source: ArrayLike<number>, indexes: ArrayLike<number>, out: Float64Array = new Float64Array(indexes.length * 3)): Float64Array {
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k] * 3;
    out[k * 3] = source[i];
    out[k * 3 + 1] = source[i + 1];
    out[k * 3 + 2] = source[i + 2];
  }
  return out;
}
