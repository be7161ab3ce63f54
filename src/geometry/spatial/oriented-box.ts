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
  if (length === 0) [nx, ny, nz, length] = [0, 0, 1, 1]; // normals cancel out: any frame bounds the triangles
  nx /= length;
  ny /= length;
  nz /= length;
  // A direction across the normal, from the coordinate axis it is least aligned with; the third completes the frame.
  let tx = Math.abs(nx) < 0.9 ? 0 : -nz, ty = Math.abs(nx) < 0.9 ? nz : 0, tz = Math.abs(nx) < 0.9 ? -ny : nx;
  length = Math.sqrt(tx * tx + ty * ty + tz * tz);
  tx /= length;
  ty /= length;
  tz /= length;
  const axes = [nx, ny, nz, tx, ty, tz, ny * tz - nz * ty, nz * tx - nx * tz, nx * ty - ny * tx];
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = start; i < end; i++) {
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[3 * order[i] + k];
      for (let a = 0; a < 3; a++) {
        const along = positions[v] * axes[3 * a] + positions[v + 1] * axes[3 * a + 1] + positions[v + 2] * axes[3 * a + 2];
        lo[a] = Math.min(lo[a], along);
        hi[a] = Math.max(hi[a], along);
      }
    }
  }
  for (let d = 0; d < 3; d++) {
    out[at + d] = axes[d] * (lo[0] + hi[0]) / 2 + axes[3 + d] * (lo[1] + hi[1]) / 2 + axes[6 + d] * (lo[2] + hi[2]) / 2;
  }
  out.set(axes, at + 3);
  for (let a = 0; a < 3; a++) out[at + 12 + a] = (hi[a] - lo[a]) / 2 + pad;
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
