/**
 * Oriented bounding boxes for small groups of triangles. A few neighbouring triangles of a surface
 * are nearly flat, so a box along their mean normal is thin: its distance to a query point is close
 * to the true distance to the triangles, where an axis-aligned box of a tilted patch is as thick as
 * it is wide. Near the bottom of the BVH this prunes most of the triangles an axis-aligned box lets through.
 */

/** Doubles per box: centre (3), three unit axes (9), half extents along them (3). */
export const ORIENTED_BOX_STRIDE = 15;

/**
 * Fits the box of triangles order[start, end) (indices into `indices` / 3) into out at `at`:
 * axes are the area-weighted mean normal and two directions across it; extents grow by `pad`.
 */
export function fitOrientedBox(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  order: Uint32Array,
  start: number,
  end: number,
  pad: number,
  out: Float64Array,
  at: number,
): void {
  let nx = 0, ny = 0, nz = 0;
  for (let i = start; i < end; i++) {
    const a = 3 * indices[3 * order[i]], b = 3 * indices[3 * order[i] + 1], c = 3 * indices[3 * order[i] + 2];
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    nx += uy * vz - uz * vy;
    ny += uz * vx - ux * vz;
    nz += ux * vy - uy * vx;
  }
  let length = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (length === 0) {
    // Normals that cancel out leave no preferred direction: any frame bounds the triangles.
    nz = 1;
    length = 1;
  }
  nx /= length;
  ny /= length;
  nz /= length;
  // A direction across the normal, from the coordinate axis it is least aligned with; the third completes the frame.
  let tx = Math.abs(nx) < 0.9 ? 0 : -nz, ty = Math.abs(nx) < 0.9 ? nz : 0, tz = Math.abs(nx) < 0.9 ? -ny : nx;
  length = Math.sqrt(tx * tx + ty * ty + tz * tz);
  tx /= length;
  ty /= length;
  tz /= length;
  const sx = ny * tz - nz * ty, sy = nz * tx - nx * tz, sz = nx * ty - ny * tx;
  let n0 = Infinity, n1 = -Infinity, t0 = Infinity, t1 = -Infinity, s0 = Infinity, s1 = -Infinity;
  for (let i = start; i < end; i++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[3 * order[i] + k];
      const x = positions[v], y = positions[v + 1], z = positions[v + 2];
      const n = x * nx + y * ny + z * nz, t = x * tx + y * ty + z * tz, s = x * sx + y * sy + z * sz;
      if (n < n0) n0 = n;
      if (n > n1) n1 = n;
      if (t < t0) t0 = t;
      if (t > t1) t1 = t;
      if (s < s0) s0 = s;
      if (s > s1) s1 = s;
    }
  }
  const n = (n0 + n1) / 2, t = (t0 + t1) / 2, s = (s0 + s1) / 2;
  out[at] = nx * n + tx * t + sx * s;
  out[at + 1] = ny * n + ty * t + sy * s;
  out[at + 2] = nz * n + tz * t + sz * s;
  out[at + 3] = nx; out[at + 4] = ny; out[at + 5] = nz;
  out[at + 6] = tx; out[at + 7] = ty; out[at + 8] = tz;
  out[at + 9] = sx; out[at + 10] = sy; out[at + 11] = sz;
  out[at + 12] = (n1 - n0) / 2 + pad;
  out[at + 13] = (t1 - t0) / 2 + pad;
  out[at + 14] = (s1 - s0) / 2 + pad;
}

/** Squared distance from (x, y, z) to the box stored at boxes[o..]. */
export function orientedBoxDistance2(boxes: Float64Array, o: number, x: number, y: number, z: number): number {
  const dx = x - boxes[o], dy = y - boxes[o + 1], dz = z - boxes[o + 2];
  let d = 0;
  for (let a = 0; a < 3; a++) {
    const along = dx * boxes[o + 3 + 3 * a] + dy * boxes[o + 4 + 3 * a] + dz * boxes[o + 5 + 3 * a];
    const outside = Math.abs(along) - boxes[o + 12 + a];
    if (outside > 0) d += outside * outside;
  }
  return d;
}

/**
 * Offset of (x, y, z) from its nearest point of the box stored at boxes[o..], written to out[0..2];
 * returns its squared length (the same as orientedBoxDistance2).
 */
export function orientedBoxOffset(boxes: Float64Array, o: number, x: number, y: number, z: number, out: Float64Array): number {
  const dx = x - boxes[o], dy = y - boxes[o + 1], dz = z - boxes[o + 2];
  let d = 0, ox = 0, oy = 0, oz = 0;
  for (let a = 0; a < 3; a++) {
    const ux = boxes[o + 3 + 3 * a], uy = boxes[o + 4 + 3 * a], uz = boxes[o + 5 + 3 * a];
    const along = dx * ux + dy * uy + dz * uz;
    const outside = Math.abs(along) - boxes[o + 12 + a];
    if (outside > 0) {
      d += outside * outside;
      const signed = along > 0 ? outside : -outside;
      ox += signed * ux;
      oy += signed * uy;
      oz += signed * uz;
    }
  }
  out[0] = ox;
  out[1] = oy;
  out[2] = oz;
  return d;
}
