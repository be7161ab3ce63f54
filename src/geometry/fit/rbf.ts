/**
 * Radial basis function interpolation of displacements in 3D: biharmonic kernel phi(r) = r with a
 * linear polynomial part, the usual choice for smooth space warps (it minimises bending energy).
 * A small diagonal regulariser lets noisy centres be followed closely without wiggles.
 */

export interface RbfWarp {
  /** Displacement at (x, y, z), written into out[0..2]. */
  evaluate(x: number, y: number, z: number, out: Float64Array): void;
}

/** Solves A x = b in place for a dense square system (Gaussian elimination with partial pivoting). */
export function solveDense(a: Float64Array, b: Float64Array, n: number, rhs: number): void {
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]) > Math.abs(a[piv * n + col])) piv = r;
    if (piv !== col) {
      for (let c = 0; c < n; c++) [a[col * n + c], a[piv * n + c]] = [a[piv * n + c], a[col * n + c]];
      for (let k = 0; k < rhs; k++) [b[col * rhs + k], b[piv * rhs + k]] = [b[piv * rhs + k], b[col * rhs + k]];
    }
    const d = a[col * n + col];
    if (Math.abs(d) < 1e-12) throw new Error('singular RBF system');
    for (let r = col + 1; r < n; r++) {
      const f = a[r * n + col] / d;
      if (f === 0) continue;
      for (let c = col; c < n; c++) a[r * n + c] -= f * a[col * n + c];
      for (let k = 0; k < rhs; k++) b[r * rhs + k] -= f * b[col * rhs + k];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let k = 0; k < rhs; k++) {
      let s = b[r * rhs + k];
      for (let c = r + 1; c < n; c++) s -= a[r * n + c] * b[c * rhs + k];
      b[r * rhs + k] = s / a[r * n + r];
    }
  }
}

/**
 * Builds the warp that moves each centre by its displacement (xyz packed arrays of equal length).
 * `smoothing` (cm) trades exactness at the centres for smoothness.
 */
export function buildRbfWarp(centres: ArrayLike<number>, displacements: ArrayLike<number>, smoothing = 0): RbfWarp {
  const m = centres.length / 3;
  const n = m + 4;
  const a = new Float64Array(n * n);
  const b = new Float64Array(n * 3);
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
    for (let d = 0; d < 3; d++) b[i * 3 + d] = displacements[i * 3 + d];
  }
  solveDense(a, b, n, 3);
  const c = Float64Array.from(centres);
  return {
    evaluate(x, y, z, out) {
      let ox = b[m * 3] + b[(m + 1) * 3] * x + b[(m + 2) * 3] * y + b[(m + 3) * 3] * z;
      let oy = b[m * 3 + 1] + b[(m + 1) * 3 + 1] * x + b[(m + 2) * 3 + 1] * y + b[(m + 3) * 3 + 1] * z;
      let oz = b[m * 3 + 2] + b[(m + 1) * 3 + 2] * x + b[(m + 2) * 3 + 2] * y + b[(m + 3) * 3 + 2] * z;
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
    },
  };
}
