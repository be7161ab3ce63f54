/**
 * Per vertex of `positions` (packed xyz), 1 where it lies in the box round `points` (packed xyz) grown by `reach` on
 * every side, else 0: what can come near a small part (a lid's lashes, a caruncle) as skin moves no further than that.
 */
export function inBoxAround(positions: ArrayLike<number>, points: ArrayLike<number>, reach: number): Uint8Array {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], points[i] - reach);
    hi[i % 3] = Math.max(hi[i % 3], points[i] + reach);
  }
  const inside = new Uint8Array(positions.length / 3);
  for (let v = 0; v < inside.length; v++) {
    const p = 3 * v;
    inside[v] = positions[p] >= lo[0] && positions[p] <= hi[0] && positions[p + 1] >= lo[1] && positions[p + 1] <= hi[1] && positions[p + 2] >= lo[2] && positions[p + 2] <= hi[2] ? 1 : 0;
  }
  return inside;
}

/** Per vertex of `positions`, 1 where it lies within `reach` of one of `points` (both packed xyz), else 0. */
export function withinReach(positions: ArrayLike<number>, points: ArrayLike<number>, reach: number): Uint8Array {
  const near = inBoxAround(positions, points, reach);
  for (let v = 0; v < near.length; v++) {
    if (!near[v]) continue;
    near[v] = 0;
    for (let i = 0; i < points.length && !near[v]; i += 3) {
      if (Math.hypot(positions[3 * v] - points[i], positions[3 * v + 1] - points[i + 1], positions[3 * v + 2] - points[i + 2]) < reach) near[v] = 1;
    }
  }
  return near;
}

/** The triangles of `indices` (their three vertex indices each, in order) with a corner where `inside` is 1. */
export function trianglesWithCornerIn(indices: ArrayLike<number>, inside: Uint8Array): Uint32Array {
  const kept: number[] = [];
  for (let t = 0; t < indices.length; t += 3) if (inside[indices[t]] || inside[indices[t + 1]] || inside[indices[t + 2]]) kept.push(indices[t], indices[t + 1], indices[t + 2]);
  return Uint32Array.from(kept);
}
