import type { Bone, Quat, Vec3 } from '../../model/avatar.ts';

/** 4x4 matrix, column-major (translation in elements 12..14), as FBX, glTF and three store it. */
export type Mat4 = Float64Array;

export function compose(t: Vec3, q: Quat, s: Vec3 = [1, 1, 1]): Mat4 {
  const [x, y, z, w] = q;
  const m = new Float64Array(16);
  m[0] = (1 - 2 * (y * y + z * z)) * s[0];
  m[1] = 2 * (x * y + z * w) * s[0];
  m[2] = 2 * (x * z - y * w) * s[0];
  m[4] = 2 * (x * y - z * w) * s[1];
  m[5] = (1 - 2 * (x * x + z * z)) * s[1];
  m[6] = 2 * (y * z + x * w) * s[1];
  m[8] = 2 * (x * z + y * w) * s[2];
  m[9] = 2 * (y * z - x * w) * s[2];
  m[10] = (1 - 2 * (x * x + y * y)) * s[2];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

export function multiply(a: Mat4, b: Mat4): Mat4 {
  const m = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      m[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return m;
}

/** Inverse of an affine matrix (last row 0 0 0 1). */
export function invertAffine(m: Mat4): Mat4 {
  const [a, b, c, , d, e, f, , g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0) throw new Error('singular matrix');
  const k = 1 / det;
  const r = new Float64Array(16);
  r[0] = A * k; r[1] = -(b * i - c * h) * k; r[2] = (b * f - c * e) * k;
  r[4] = B * k; r[5] = (a * i - c * g) * k; r[6] = -(a * f - c * d) * k;
  r[8] = C * k; r[9] = -(a * h - b * g) * k; r[10] = (a * e - b * d) * k;
  for (let row = 0; row < 3; row++) r[12 + row] = -(r[row] * m[12] + r[4 + row] * m[13] + r[8 + row] * m[14]);
  r[15] = 1;
  return r;
}

/** World (model space) rest matrix of every bone; parents come before children in the model. */
export function boneWorldMatrices(bones: Bone[]): Mat4[] {
  const world: Mat4[] = [];
  bones.forEach((b, i) => {
    const local = compose(b.translation, b.rotation);
    world[i] = b.parent < 0 ? local : multiply(world[b.parent], local);
  });
  return world;
}

/**
 * Euler angles in degrees for FBX rotation order XYZ (rotate about X first, then Y, then Z:
 * R = Rz * Ry * Rx), the default of FBX LimbNodes.
 */
export function quatToEulerXYZDegrees(q: ArrayLike<number>, offset = 0): Vec3 {
  const x = q[offset], y = q[offset + 1], z = q[offset + 2], w = q[offset + 3];
  const m00 = 1 - 2 * (y * y + z * z), m10 = 2 * (x * y + z * w), m20 = 2 * (x * z - y * w);
  const m01 = 2 * (x * y - z * w), m11 = 1 - 2 * (x * x + z * z);
  const m21 = 2 * (y * z + x * w), m22 = 1 - 2 * (x * x + y * y);
  const deg = 180 / Math.PI;
  const ry = Math.asin(Math.max(-1, Math.min(1, -m20)));
  if (Math.abs(m20) < 0.9999999) return [Math.atan2(m21, m22) * deg, ry * deg, Math.atan2(m10, m00) * deg];
  return [0, ry * deg, Math.atan2(-m01, m11) * deg];
}
