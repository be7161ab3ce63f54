/**
 * The fans of a triangle list: per vertex, the triangles round it. A closed fan whose triangles, seen along the fan's
 * own normal, all turn the same way and go once round lies flat: no two of its triangles cross, which answers every
 * pair of them that shares only that corner without testing the pair.
 */

export interface Fans {
  /** Per vertex v, its triangles (ids into the list) `triangles[start[v]..start[v + 1]]`. */
  start: Uint32Array;
  triangles: Uint32Array;
  /** Per vertex, 1 where its triangles close round it (each edge from it in two of them). */
  closed: Uint8Array;
}

/** The fans of `indices` (three corners per triangle), over `vertexCount` vertices. */
export function fansOf(indices: ArrayLike<number>, vertexCount: number): Fans {
  const start = new Uint32Array(vertexCount + 1);
  for (let c = 0; c < indices.length; c++) start[indices[c] + 1]++;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const triangles = new Uint32Array(indices.length), filled = start.slice(0, vertexCount);
  for (let c = 0; c < indices.length; c++) triangles[filled[indices[c]]++] = Math.floor(c / 3);
  const closed = new Uint8Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    // Each edge from v counted once per triangle it is in: +1 for the corner after v, -1 for the one before it.
    const edges = new Map<number, number>();
    for (let e = start[v]; e < start[v + 1]; e++) {
      const t = 3 * triangles[e];
      const k = indices[t] === v ? 0 : indices[t + 1] === v ? 1 : 2;
      const after = indices[t + ((k + 1) % 3)], before = indices[t + ((k + 2) % 3)];
      edges.set(after, (edges.get(after) ?? 0) + 1);
      edges.set(before, (edges.get(before) ?? 0) - 1);
    }
    closed[v] = start[v + 1] > start[v] && [...edges.values()].every((n) => n === 0) ? 1 : 0;
  }
  return { start, triangles, closed };
}

/**
 * Whether vertex v's closed fan lies flat at `at` (xyz per vertex): seen along the sum of its triangles' normals, each
 * turns the same way by more than a millionth of its corner's spread, and they go once round v. Seen so, two of its
 * triangles meet only at v or along an edge they share, so they cannot cross. An open fan is not answered (false).
 */
export function fanLiesFlat(fans: Fans, indices: ArrayLike<number>, at: ArrayLike<number>, v: number): boolean {
  if (!fans.closed[v]) return false;
  const { start, triangles } = fans;
  let nx = 0, ny = 0, nz = 0;
  for (let e = start[v]; e < start[v + 1]; e++) {
    spokes(indices, at, triangles[e], v);
    const px = spoke[0], py = spoke[1], pz = spoke[2], qx = spoke[3], qy = spoke[4], qz = spoke[5];
    nx += py * qz - pz * qy;
    ny += pz * qx - px * qz;
    nz += px * qy - py * qx;
  }
  const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
  // A direction strictly inside the first triangle's corner, seen along n: each other triangle must not hold it.
  spokes(indices, at, triangles[start[v]], v);
  const ax = spoke[0], ay = spoke[1], az = spoke[2], bx = spoke[3], by = spoke[4], bz = spoke[5];
  const la = Math.sqrt(ax * ax + ay * ay + az * az), lb = Math.sqrt(bx * bx + by * by + bz * bz);
  const rx = ax / la + bx / lb, ry = ay / la + by / lb, rz = az / la + bz / lb;
  for (let e = start[v]; e < start[v + 1]; e++) {
    spokes(indices, at, triangles[e], v);
    const px = spoke[0], py = spoke[1], pz = spoke[2], qx = spoke[3], qy = spoke[4], qz = spoke[5];
    const turn = nx * (py * qz - pz * qy) + ny * (pz * qx - px * qz) + nz * (px * qy - py * qx);
    const spread = Math.sqrt((px * px + py * py + pz * pz) * (qx * qx + qy * qy + qz * qz)) * nn;
    if (!(turn > FLAT * spread)) return false;
    if (e === start[v]) continue;
    const fromP = nx * (py * rz - pz * ry) + ny * (pz * rx - px * rz) + nz * (px * ry - py * rx);
    const toQ = nx * (ry * qz - rz * qy) + ny * (rz * qx - rx * qz) + nz * (rx * qy - ry * qx);
    if (fromP >= 0 && toQ >= 0) return false;
  }
  return true;
}

/** How far (relative to its spokes' lengths and the fan's normal) a triangle must turn the fan's way. */
const FLAT = 1e-6;

/** Triangle t's spokes from v: to its corner after v, then to the one before it (by its winding), into `spoke`. */
const spoke = new Float64Array(6);
function spokes(indices: ArrayLike<number>, at: ArrayLike<number>, t: number, v: number): void {
  const c = 3 * t;
  const k = indices[c] === v ? 0 : indices[c + 1] === v ? 1 : 2;
  const p = 3 * indices[c + ((k + 1) % 3)], q = 3 * indices[c + ((k + 2) % 3)], o = 3 * v;
  for (let i = 0; i < 3; i++) {
    spoke[i] = at[p + i] - at[o + i];
    spoke[3 + i] = at[q + i] - at[o + i];
  }
}
