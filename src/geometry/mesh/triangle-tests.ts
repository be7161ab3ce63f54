/**
 * Exact-enough predicates between triangles of flat coordinate arrays, with a tolerance so that
 * triangles that only touch (shared vertices and edges) are not reported.
 */
import type { Vec3 } from '../../model/avatar.ts';
import { cross, dot, sub } from './vec.ts';

/**
 * Where the ray from `o` along `dir` meets the plane of triangle (a, b, c) (Möller-Trumbore): the barycentric
 * weights `u` of b and `v` of c, and `t`, the distance along the ray in lengths of `dir`; undefined edge-on.
 */
export function rayTriangle(o: Vec3, dir: Vec3, a: Vec3, b: Vec3, c: Vec3): { u: number; v: number; t: number } | undefined {
  const e1 = sub(b, a), e2 = sub(c, a), h = cross(dir, e2), det = dot(e1, h);
  if (Math.abs(det) < 1e-12) return undefined;
  const s = sub(o, a), q = cross(s, e1);
  return { u: dot(s, h) / det, v: dot(dir, q) / det, t: dot(e2, q) / det };
}

/**
 * Does the open segment p->q cross the interior of triangle (a, b, c)? Coordinates are read from
 * `pos` at the given vertex indices (times 3). `eps` is relative to the segment and barycentrics.
 */
export function segmentCrossesTriangle(pos: ArrayLike<number>, p: number, q: number, a: number, b: number, c: number, eps: number): boolean {
  const px = pos[p], py = pos[p + 1], pz = pos[p + 2];
  const dx = pos[q] - px, dy = pos[q + 1] - py, dz = pos[q + 2] - pz;
  const ax = pos[a], ay = pos[a + 1], az = pos[a + 2];
  const e1x = pos[b] - ax, e1y = pos[b + 1] - ay, e1z = pos[b + 2] - az;
  const e2x = pos[c] - ax, e2y = pos[c + 1] - ay, e2z = pos[c + 2] - az;
  const hx = dy * e2z - dz * e2y, hy = dz * e2x - dx * e2z, hz = dx * e2y - dy * e2x;
  const det = e1x * hx + e1y * hy + e1z * hz;
  // A zero det makes u, v or t infinite or NaN, which fail below; the parallel test (hypot is slow) comes last.
  const inv = 1 / det;
  const sx = px - ax, sy = py - ay, sz = pz - az;
  const u = (sx * hx + sy * hy + sz * hz) * inv;
  if (u <= eps || u >= 1 - eps) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v <= eps || u + v >= 1 - eps) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t > eps && t < 1 - eps)) return false;
  const scale = Math.hypot(e1x, e1y, e1z) * Math.hypot(e2x, e2y, e2z) * Math.hypot(dx, dy, dz);
  return Math.abs(det) > 1e-9 * scale; // parallel or coplanar: not counted
}

/** Do two triangles (vertex offsets times 3 into `pos`) intersect other than by touching? */
export function trianglesIntersect(pos: ArrayLike<number>, t1: ArrayLike<number>, t2: ArrayLike<number>, eps: number): boolean {
  // Most pairs asked about lie on one side of each other (neighbours, lips lying together): answered without the edges.
  if (offPlane(pos, t1, t2) || offPlane(pos, t2, t1)) return false;
  for (let k = 0; k < 3; k++) {
    if (edgeCrosses(pos, t1[k], t1[(k + 1) % 3], t2, eps)) return true;
    if (edgeCrosses(pos, t2[k], t2[(k + 1) % 3], t1, eps)) return true;
  }
  return false;
}

/**
 * Do the corners of triangle t1 other than those it shares with t2 lie on one side of t2's plane, each further from it
 * than OFF_PLANE of its distance from t2's first corner? Then the two meet at most in a shared corner. Nearer, the
 * edges' own test decides, so that rounding cannot make the answers differ.
 */
function offPlane(pos: ArrayLike<number>, t1: ArrayLike<number>, t2: ArrayLike<number>): boolean {
  const o = t2[0], p = t2[1], q = t2[2];
  const ux = pos[p] - pos[o], uy = pos[p + 1] - pos[o + 1], uz = pos[p + 2] - pos[o + 2];
  const vx = pos[q] - pos[o], vy = pos[q + 1] - pos[o + 1], vz = pos[q + 2] - pos[o + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const nn = nx * nx + ny * ny + nz * nz;
  let above = 0, below = 0, own = 0;
  for (let k = 0; k < 3; k++) {
    const c = t1[k];
    if (c === o || c === p || c === q) {
      own++;
      continue;
    }
    const wx = pos[c] - pos[o], wy = pos[c + 1] - pos[o + 1], wz = pos[c + 2] - pos[o + 2];
    const side = wx * nx + wy * ny + wz * nz;
    if (side * side <= OFF_PLANE * OFF_PLANE * nn * (wx * wx + wy * wy + wz * wz)) return false;
    if (side > 0) above++;
    else below++;
  }
  return above + own === 3 || below + own === 3;
}

/**
 * The least distance from the plane, as a share of the corner's distance from the plane's triangle's first corner,
 * that offPlane counts as one side.
 */
const OFF_PLANE = 1e-9;

/**
 * `segmentCrossesTriangle` without the call when the segment starts at the triangle's first or second
 * corner (neighbours sharing a vertex): its u then comes out exactly 0, or det / det (1 within an ulp),
 * or NaN with t NaN, so the answer is no.
 */
function edgeCrosses(pos: ArrayLike<number>, p: number, q: number, t: ArrayLike<number>, eps: number): boolean {
  return p !== t[0] && p !== t[1] && segmentCrossesTriangle(pos, p, q, t[0], t[1], t[2], eps);
}

/**
 * Do the interiors of two 2D triangles overlap by more than `eps` (separating axis test)?
 * Arguments are offsets times 2 into `uv`.
 */
export function trianglesOverlap2d(uv: ArrayLike<number>, t1: readonly number[], t2: readonly number[], eps: number): boolean {
  for (const [tri, other] of [[t1, t2], [t2, t1]]) {
    for (let k = 0; k < 3; k++) {
      const a = tri[k], b = tri[(k + 1) % 3];
      const nx = uv[b + 1] - uv[a + 1], ny = uv[a] - uv[b];
      const len = Math.hypot(nx, ny);
      if (len === 0) continue;
      let min1 = Infinity, max1 = -Infinity, min2 = Infinity, max2 = -Infinity;
      for (const v of tri) {
        const d = (uv[v] * nx + uv[v + 1] * ny) / len;
        min1 = Math.min(min1, d);
        max1 = Math.max(max1, d);
      }
      for (const v of other) {
        const d = (uv[v] * nx + uv[v + 1] * ny) / len;
        min2 = Math.min(min2, d);
        max2 = Math.max(max2, d);
      }
      if (Math.min(max1, max2) - Math.max(min1, min2) <= eps) return false;
    }
  }
  return true;
}
