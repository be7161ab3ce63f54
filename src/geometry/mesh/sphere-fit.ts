import type { Vec3 } from '../../model/avatar.ts';

export interface Sphere {
  center: Vec3;
  radius: number;
}

/**
 * The sphere through points (packed xyz) in the least-squares sense: |p|^2 = 2 c.p + k is linear in the centre c and
 * k = r^2 - |c|^2. Exact for points on a sphere, such as an eyeball mesh however it was moved, turned and scaled.
 */
export function fitSphere(points: ArrayLike<number>): Sphere {
  // Normal equations of rows [2x, 2y, 2z, 1] . [cx, cy, cz, k] = x^2 + y^2 + z^2, as a 4x5 augmented matrix.
  const m = Array.from({ length: 4 }, () => new Float64Array(5));
  for (let i = 0; i < points.length; i += 3) {
    const row = [2 * points[i], 2 * points[i + 1], 2 * points[i + 2], 1];
    const rhs = points[i] ** 2 + points[i + 1] ** 2 + points[i + 2] ** 2;
    for (let a = 0; a < 4; a++) {
      for (let b = 0; b < 4; b++) m[a][b] += row[a] * row[b];
      m[a][4] += row[a] * rhs;
    }
  }
  for (let col = 0; col < 4; col++) {
    let p = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(m[r][col]) > Math.abs(m[p][col])) p = r;
    [m[col], m[p]] = [m[p], m[col]];
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c < 5; c++) m[r][c] -= f * m[col][c];
    }
  }
  const center: Vec3 = [m[0][4] / m[0][0], m[1][4] / m[1][1], m[2][4] / m[2][2]];
  const k = m[3][4] / m[3][3];
  return { center, radius: Math.sqrt(k + center[0] ** 2 + center[1] ** 2 + center[2] ** 2) };
}
