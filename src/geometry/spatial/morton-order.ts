/**
 * Visiting order of packed xyz points along a Z-order (Morton) curve: points close in space come
 * close in the order, so that each closest-point query can start from the previous answer and find
 * the tree nodes it needs still in the cache, whatever order the points came in.
 */
export function mortonOrder(points: ArrayLike<number>): Uint32Array {
  const count = points.length / 3;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < points.length; i += 3) {
    const x = points[i], y = points[i + 1], z = points[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  // 10 bits an axis: a 1024³ grid over the points.
  const scale = 1024 / (Math.max(x1 - x0, y1 - y0, z1 - z0) || 1);
  const cell = (v: number) => Math.min(1023, Math.floor(v * scale));
  let codes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    codes[i] = spread10(cell(points[3 * i] - x0)) |
      (spread10(cell(points[3 * i + 1] - y0)) << 1) |
      (spread10(cell(points[3 * i + 2] - z0)) << 2);
  }
  // Least-significant-digit radix sort of the 30-bit codes, 10 bits a pass; stable, so ties keep the given order.
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let nextCodes = new Uint32Array(count), nextOrder = new Uint32Array(count);
  const start = new Uint32Array(1025);
  for (let shift = 0; shift < 30; shift += 10) {
    start.fill(0);
    for (let i = 0; i < count; i++) start[((codes[i] >>> shift) & 1023) + 1]++;
    for (let b = 0; b < 1024; b++) start[b + 1] += start[b];
    for (let i = 0; i < count; i++) {
      const to = start[(codes[i] >>> shift) & 1023]++;
      nextCodes[to] = codes[i];
      nextOrder[to] = order[i];
    }
    [codes, nextCodes] = [nextCodes, codes];
    [order, nextOrder] = [nextOrder, order];
  }
  return order;
}

/** The 10 bits of v spread to every third bit (bit k goes to bit 3k). */
function spread10(v: number): number {
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  return (v | (v << 2)) & 0x09249249;
}
