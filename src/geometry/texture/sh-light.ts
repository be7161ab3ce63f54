/**
 * Low-frequency light as second-order spherical harmonics (9 coefficients): the irradiance a convex
 * Lambertian surface receives is almost exactly such a function of its normal, so the shading of a photo
 * can be fitted from the fitted geometry's normals and divided out.
 */

export const SH_TERMS = 9;
/** Ridge weight on the second-order terms: a face seen from the front shows one hemisphere of normals, which leaves them weakly determined. */
const RIDGE_SECOND_ORDER = 0.01;
/** Rounds of iteratively reweighted least squares (residuals beyond a robust scale lose weight: brows, stubble, hair). */
const ROUNDS = 4;

/** The 9 real SH basis functions at unit normal (x, y, z), constants included. */
export function shBasis(x: number, y: number, z: number, out: Float64Array = new Float64Array(SH_TERMS)): Float64Array {
  out[0] = 0.282095;
  out[1] = 0.488603 * y;
  out[2] = 0.488603 * z;
  out[3] = 0.488603 * x;
  out[4] = 1.092548 * x * y;
  out[5] = 1.092548 * y * z;
  out[6] = 0.315392 * (3 * z * z - 1);
  out[7] = 1.092548 * x * z;
  out[8] = 0.546274 * (x * x - y * y);
  return out;
}

/** shEvaluate's basis values: it is called per vertex and pixel, and a fresh array each time was most of a fit's garbage. */
const scratch = new Float64Array(SH_TERMS);

export function shEvaluate(coeffs: ArrayLike<number>, x: number, y: number, z: number): number {
  const b = shBasis(x, y, z, scratch);
  let s = 0;
  for (let k = 0; k < SH_TERMS; k++) s += coeffs[k] * b[k];
  return s;
}

/**
 * Robust least-squares fit of `values[i] ≈ Σ c_k Y_k(normal_i)` (normals packed xyz, unit length). The
 * second-order terms are pulled towards zero by a ridge scaled to the data, so an ill-posed fit falls back
 * to ambient plus one directional light.
 */
export function fitShLight(normals: Float32Array, values: Float32Array, weights?: Float32Array): Float64Array {
  const n = values.length;
  const w = weights ? Float32Array.from(weights) : new Float32Array(n).fill(1);
  const robust = new Float32Array(n).fill(1);
  const b = new Float64Array(SH_TERMS);
  let coeffs: Float64Array = new Float64Array(SH_TERMS);
  for (let round = 0; round < ROUNDS; round++) {
    const ata = new Float64Array(SH_TERMS * SH_TERMS);
    const atb = new Float64Array(SH_TERMS);
    let wsum = 0;
    for (let i = 0; i < n; i++) {
      const wi = w[i] * robust[i];
      if (wi <= 0) continue;
      shBasis(normals[i * 3], normals[i * 3 + 1], normals[i * 3 + 2], b);
      for (let r = 0; r < SH_TERMS; r++) {
        atb[r] += wi * b[r] * values[i];
        for (let c = 0; c < SH_TERMS; c++) ata[r * SH_TERMS + c] += wi * b[r] * b[c];
      }
      wsum += wi;
    }
    if (wsum === 0) return coeffs;
    for (let k = 4; k < SH_TERMS; k++) ata[k * SH_TERMS + k] += RIDGE_SECOND_ORDER * wsum;
    for (let k = 0; k < 4; k++) ata[k * SH_TERMS + k] += 1e-6 * wsum;
    coeffs = solve(ata, atb, SH_TERMS);
    // Tukey's biweight on the residuals, scaled by their median absolute value.
    const res = new Float32Array(n);
    for (let i = 0; i < n; i++) res[i] = Math.abs(values[i] - shEvaluate(coeffs, normals[i * 3], normals[i * 3 + 1], normals[i * 3 + 2]));
    const scale = 4.685 * 1.4826 * Math.max(1e-6, medianOf(res));
    for (let i = 0; i < n; i++) robust[i] = res[i] < scale ? (1 - (res[i] / scale) ** 2) ** 2 : 0;
  }
  return coeffs;
}

/** Unit direction towards the light's first-order (directional) part, or the view direction when there is none. */
export function shDirection(coeffs: ArrayLike<number>): [number, number, number] {
  const [x, y, z] = [coeffs[3], coeffs[1], coeffs[2]];
  const len = Math.hypot(x, y, z);
  return len > 0 ? [x / len, y / len, z / len] : [0, 0, 1];
}

function medianOf(values: Float32Array): number {
  const s = Float32Array.from(values).sort();
  return s[s.length >> 1];
}

/** Gaussian elimination with partial pivoting on a small dense system. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r * n + col]) > Math.abs(m[pivot * n + col])) pivot = r;
    if (pivot !== col) {
      for (let c = 0; c < n; c++) [m[col * n + c], m[pivot * n + c]] = [m[pivot * n + c], m[col * n + c]];
      [x[col], x[pivot]] = [x[pivot], x[col]];
    }
    const d = m[col * n + col] || 1e-12;
    for (let r = col + 1; r < n; r++) {
      const f = m[r * n + col] / d;
      if (f === 0) continue;
      for (let c = col; c < n; c++) m[r * n + c] -= f * m[col * n + c];
      x[r] -= f * x[col];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r];
    for (let c = r + 1; c < n; c++) s -= m[r * n + c] * x[c];
    x[r] = s / (m[r * n + r] || 1e-12);
  }
  return x;
}
