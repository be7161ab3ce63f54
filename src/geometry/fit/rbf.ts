/**
 * Radial basis function interpolation of displacements in 3D: biharmonic kernel phi(r) = r with a
 * linear polynomial part, the usual choice for smooth space warps (it minimises bending energy).
 * A small diagonal regulariser lets noisy centres be followed closely without wiggles.
 *
 * The system depends only on the centres, so it is factorised once (LU) and reused for every set of
 * displacements: fitting a face costs two triangular solves instead of a dense elimination.
 */

export interface RbfWarp {
  /** Displacement at (x, y, z), written into out[0..2]. */
  evaluate(x: number, y: number, z: number, out: Float64Array): void;
  /** The factor it was solved with, and its weights: xyz per centre, then the linear part's four rows. */
  factor: RbfFactor;
  weights: Float64Array;
}

export interface RbfFactor {
  centres: Float64Array;
  /** LU factors of the (m + 4) x (m + 4) system, row-major, and the row permutation. */
  lu: Float64Array;
  perm: Int32Array;
  n: number;
}

/** LU factorisation with partial pivoting of the RBF system for these centres. */
export function factorRbf(centres: ArrayLike<number>, smoothing = 0): RbfFactor {
  const m = centres.length / 3;
  const n = m + 4;
  const a = new Float64Array(n * n);
  for (let i = 0; i < m; i++) {
    const xi = centres[i * 3];
    const yi = centres[i * 3 + 1];
    const zi = centres[i * 3 + 2];
    for (let j = 0; j < m; j++) {
      const dx = xi - centres[j * 3];
      const dy = yi - centres[j * 3 + 1];
      const dz = zi - centres[j * 3 + 2];
      a[i * n + j] = Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
    a[i * n + i] += smoothing;
    const poly = [1, xi, yi, zi];
    for (let k = 0; k < 4; k++) {
      a[i * n + m + k] = poly[k];
      a[(m + k) * n + i] = poly[k];
    }
  }
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]) > Math.abs(a[piv * n + col])) piv = r;
    if (piv !== col) {
      for (let c = 0; c < n; c++) [a[col * n + c], a[piv * n + c]] = [a[piv * n + c], a[col * n + c]];
      [perm[col], perm[piv]] = [perm[piv], perm[col]];
    }
    const d = a[col * n + col];
    if (Math.abs(d) < 1e-12) throw new Error('singular RBF system');
    for (let r = col + 1; r < n; r++) {
      const f = (a[r * n + col] /= d);
      if (f === 0) continue;
      for (let c = col + 1; c < n; c++) a[r * n + c] -= f * a[col * n + c];
    }
  }
  return { centres: Float64Array.from(centres), lu: a, perm, n };
}

/** The warp moving each centre of `factor` by its displacement (xyz packed, same order as the centres). */
export function solveRbf(factor: RbfFactor, displacements: ArrayLike<number>): RbfWarp {
  const { lu, perm, n } = factor;
  const m = n - 4;
  const b = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const src = perm[i];
    if (src < m) for (let k = 0; k < 3; k++) b[i * 3 + k] = displacements[src * 3 + k];
  }
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < 3; k++) {
      let s = b[r * 3 + k];
      for (let col = 0; col < r; col++) s -= lu[r * n + col] * b[col * 3 + k];
      b[r * 3 + k] = s;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let k = 0; k < 3; k++) {
      let s = b[r * 3 + k];
      for (let col = r + 1; col < n; col++) s -= lu[r * n + col] * b[col * 3 + k];
      b[r * 3 + k] = s / lu[r * n + r];
    }
  }
  return { factor, weights: b, evaluate: evaluateWarp };
}

/**
 * RbfWarp.evaluate, one module function for every warp: a closure made per warp (per job) was inlined by identity
 * into its hot callers (fit-head's warpPoints), whose optimized code was then thrown away with it after every job.
 * Its own loop: evaluated as half of a pair it took twice the time (the hair's warps run it per point).
 */
function evaluateWarp(this: RbfWarp, x: number, y: number, z: number, out: Float64Array): void {
  const c = this.factor.centres, b = this.weights, m = this.factor.n - 4;
  linearPart(b, m, x, y, z, out, 0);
  let ox = out[0], oy = out[1], oz = out[2];
  for (let j = 0; j < m; j++) {
    const dx = x - c[j * 3];
    const dy = y - c[j * 3 + 1];
    const dz = z - c[j * 3 + 2];
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
    ox += b[j * 3] * r;
    oy += b[j * 3 + 1] * r;
    oz += b[j * 3 + 2] * r;
  }
  out[0] = ox;
  out[1] = oy;
  out[2] = oz;
}

/** The warp's linear part at (x, y, z) into out[at..at+2] (weights past the m centres' rows). */
function linearPart(w: Float64Array, m: number, x: number, y: number, z: number, out: Float64Array, at: number): void {
  for (let k = 0; k < 3; k++) out[at + k] = w[m * 3 + k] + w[(m + 1) * 3 + k] * x + w[(m + 2) * 3 + k] * y + w[(m + 3) * 3 + k] * z;
}

/**
 * Two warps solved with the same factor at every point (packed xyz): `a`'s displacements into outA and `b`'s into
 * outB (xyz per point), each exactly as its evaluate() gives it. The distances to the centres, most of the work, are
 * computed once for both; points are taken two at a time, so that each centre and its six weights are loaded once
 * for two points (a quarter less time than one point at a time).
 */
export function evaluatePairs(a: RbfWarp, b: RbfWarp, points: ArrayLike<number>, outA: Float64Array, outB: Float64Array): void {
  if (a.factor !== b.factor) throw new Error('the two warps must be solved with one factor');
  const c = a.factor.centres, m = a.factor.n - 4;
  // Each centre's weights of both warps side by side.
  const w = new Float64Array(m * 6);
  for (let j = 0; j < m; j++) {
    for (let k = 0; k < 3; k++) {
      w[j * 6 + k] = a.weights[j * 3 + k];
      w[j * 6 + 3 + k] = b.weights[j * 3 + k];
    }
  }
  const count = points.length / 3;
  for (let i = 0; i < count; i += 2) {
    // An odd last point is taken with itself: the same sums, written twice.
    const p = i * 3, q = i + 1 < count ? p + 3 : p;
    const x = points[p], y = points[p + 1], z = points[p + 2];
    const x2 = points[q], y2 = points[q + 1], z2 = points[q + 2];
    linearPart(a.weights, m, x, y, z, outA, p);
    linearPart(b.weights, m, x, y, z, outB, p);
    linearPart(a.weights, m, x2, y2, z2, outA, q);
    linearPart(b.weights, m, x2, y2, z2, outB, q);
    let ax = outA[p], ay = outA[p + 1], az = outA[p + 2], bx = outB[p], by = outB[p + 1], bz = outB[p + 2];
    let ax2 = outA[q], ay2 = outA[q + 1], az2 = outA[q + 2], bx2 = outB[q], by2 = outB[q + 1], bz2 = outB[q + 2];
    for (let j = 0, k = 0, o = 0; j < m; j++, k += 3, o += 6) {
      const cx = c[k], cy = c[k + 1], cz = c[k + 2];
      const dx = x - cx, dy = y - cy, dz = z - cz;
      const ex = x2 - cx, ey = y2 - cy, ez = z2 - cz;
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz), s = Math.sqrt(ex * ex + ey * ey + ez * ez);
      const u0 = w[o], u1 = w[o + 1], u2 = w[o + 2], v0 = w[o + 3], v1 = w[o + 4], v2 = w[o + 5];
      ax += u0 * r; ay += u1 * r; az += u2 * r; bx += v0 * r; by += v1 * r; bz += v2 * r;
      ax2 += u0 * s; ay2 += u1 * s; az2 += u2 * s; bx2 += v0 * s; by2 += v1 * s; bz2 += v2 * s;
    }
    outA[p] = ax; outA[p + 1] = ay; outA[p + 2] = az; outB[p] = bx; outB[p + 1] = by; outB[p + 2] = bz;
    outA[q] = ax2; outA[q + 1] = ay2; outA[q + 2] = az2; outB[q] = bx2; outB[q + 1] = by2; outB[q + 2] = bz2;
  }
}
