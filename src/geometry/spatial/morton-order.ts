const INDEX_LIMIT = 2 ** 22;

/**
 * Visiting order of packed xyz points along a Z-order (Morton) curve: points close in space come
 * close in the order, so that each closest-point query can start from the previous answer and find
 * the tree nodes it needs still in the cache, whatever order the points came in.
 */
export function mortonOrder(points: ArrayLike<number>): Uint32Array {
  const count = points.length / 3;
  // Beyond 2^22 points the index no longer fits beside the code: keep the given order.
  if (count > INDEX_LIMIT) return Uint32Array.from({ length: count }, (_, i) => i);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], points[i]);
    hi[i % 3] = Math.max(hi[i % 3], points[i]);
  }
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
  // 10 bits an axis: a 1024³ grid over the points. Code and index share one exactly representable double (2^30 · 2^22 < 2^53).
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let code = 0;
    for (let d = 0; d < 3; d++) code |= spread10(Math.min(1023, Math.floor(((points[3 * i + d] - lo[d]) / extent) * 1024))) << d;
    keys[i] = (code >>> 0) * INDEX_LIMIT + i;
  }
  keys.sort();
  return Uint32Array.from(keys, (key) => key % INDEX_LIMIT);
}


/** The 10 bits of v spread to every third bit (bit k goes to bit 3k). */
function spread10(v: number): number {
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  return (v | (v << 2)) & 0x09249249;
}
