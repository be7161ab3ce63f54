/**
 * Least-squares similarity transform between two point sets (Horn's quaternion method):
 * find s, R, t minimising sum w_i |s R a_i + t - b_i|^2.
 */

/** Row-major 3x3 rotation matrix. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export interface Similarity {
  scale: number;
  rotation: Mat3;
  translation: [number, number, number];
}

/** Largest-eigenvalue eigenvector of a symmetric 4x4 matrix (cyclic Jacobi). */
function topEigenvector4(m: number[][]): number[] {
  const a = m.map((r) => r.slice());
  const v: number[][] = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += a[p][q] ** 2;
    if (off < 1e-20) break;
    for (let p = 0; p < 4; p++) {
      for (let q = p + 1; q < 4; q++) {
        if (Math.abs(a[p][q]) < 1e-30) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 4; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i][i] > a[best][best]) best = i;
  return [0, 1, 2, 3].map((k) => v[k][best]);
}

export function quatToMat3(w: number, x: number, y: number, z: number): Mat3 {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/**
 * Fits b ≈ s R a + t over the listed indices (all points when `indices` is omitted).
 * a and b are packed xyz arrays with the same numbering.
 */
export function fitSimilarity(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  indices?: ArrayLike<number>,
  weights?: ArrayLike<number>,
): Similarity {
  const n = indices ? indices.length : a.length / 3;
  const ca = [0, 0, 0];
  const cb = [0, 0, 0];
  let wsum = 0;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k] : k;
    const w = weights ? weights[k] : 1;
    wsum += w;
    for (let d = 0; d < 3; d++) {
      ca[d] += w * a[i * 3 + d];
      cb[d] += w * b[i * 3 + d];
    }
  }
  for (let d = 0; d < 3; d++) {
    ca[d] /= wsum;
    cb[d] /= wsum;
  }
  const S = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  let varA = 0;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k] : k;
    const w = weights ? weights[k] : 1;
    const pa = [a[i * 3] - ca[0], a[i * 3 + 1] - ca[1], a[i * 3 + 2] - ca[2]];
    const pb = [b[i * 3] - cb[0], b[i * 3 + 1] - cb[1], b[i * 3 + 2] - cb[2]];
    varA += w * (pa[0] ** 2 + pa[1] ** 2 + pa[2] ** 2);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) S[r * 3 + c] += w * pa[r] * pb[c];
  }
  const [Sxx, Sxy, Sxz, Syx, Syy, Syz, Szx, Szy, Szz] = S;
  const N = [
    [Sxx + Syy + Szz, Syz - Szy, Szx - Sxz, Sxy - Syx],
    [Syz - Szy, Sxx - Syy - Szz, Sxy + Syx, Szx + Sxz],
    [Szx - Sxz, Sxy + Syx, -Sxx + Syy - Szz, Syz + Szy],
    [Sxy - Syx, Szx + Sxz, Syz + Szy, -Sxx - Syy + Szz],
  ];
  const [qw, qx, qy, qz] = topEigenvector4(N);
  const rotation = quatToMat3(qw, qx, qy, qz);
  // scale = sum(b' . R a') / sum(|a'|^2)
  let num = 0;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k] : k;
    const w = weights ? weights[k] : 1;
    const pa = [a[i * 3] - ca[0], a[i * 3 + 1] - ca[1], a[i * 3 + 2] - ca[2]];
    const ra = applyMat3(rotation, pa[0], pa[1], pa[2]);
    num += w * ((b[i * 3] - cb[0]) * ra[0] + (b[i * 3 + 1] - cb[1]) * ra[1] + (b[i * 3 + 2] - cb[2]) * ra[2]);
  }
  const scale = num / varA;
  const rc = applyMat3(rotation, ca[0], ca[1], ca[2]);
  return {
    scale,
    rotation,
    translation: [cb[0] - scale * rc[0], cb[1] - scale * rc[1], cb[2] - scale * rc[2]],
  };
}

export function applyMat3(m: Mat3, x: number, y: number, z: number): [number, number, number] {
  return [
    m[0] * x + m[1] * y + m[2] * z,
    m[3] * x + m[4] * y + m[5] * z,
    m[6] * x + m[7] * y + m[8] * z,
  ];
}

export function transposeMat3(m: Mat3): Mat3 {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}
