import { mortonOrder } from '../spatial/morton-order.ts';
import { angleWeightedNormals } from '../spatial/pseudonormals.ts';
import { TriangleBvh, emptyClosestPoint } from '../spatial/triangle-bvh.ts';
import { fitRigidMotion, type RigidMotion } from './rigid-fit.ts';
import { weldByPosition } from './weld.ts';

/** One head mesh in two shapes: the neutral template and the same vertices fitted to one person (cm). */
export interface DeformerInput {
  template: Float32Array;
  avatar: Float32Array;
  indices: Uint32Array;
}

export interface DeformerOptions {
  /** Smallest distance from the template surface (cm) at which the motion becomes purely rigid. */
  minBlendDistance?: number;
}

export interface Deformer {
  /** Moves packed xyz points (cm, template axes) the way the avatar differs from the template; same count and order. */
  deform(points: Float32Array): Float32Array;
  /** Distance from the template surface (cm) beyond which points only follow `rigid`. */
  readonly blendDistance: number;
  /** The motion of points far from the head. */
  readonly rigid: RigidMotion;
}

export const DEFAULT_MIN_BLEND_DISTANCE = 10;

/**
 * Builds the deformation of one avatar; the closest-point index is built here once and reused.
 *
 * A point p whose closest template surface point q (triangle t, barycentric weights) lies at
 * distance d moves to rigid(p) + w(d) · (local(p) − rigid(p)), where
 * - local(p) = q' + R·(p − q): q' is the avatar point with the same triangle and weights, and R the
 *   smallest rotation taking the template's smoothed normal at q to the avatar's at q'; so a point on
 *   the surface lands on the avatar surface at the same place and a point off it keeps its offset,
 *   its height above the surface included;
 * - rigid is the least-squares rigid motion from template to avatar;
 * - w(d) = 1 − smoothstep(d / D) falls from 1 at the surface to 0 at the blend distance D, with zero
 *   slope at both ends.
 * D is at least `minBlendDistance` and at least twice the largest distance e between an avatar
 * vertex and its rigidly moved template vertex. Why: at height h above the template along a normal,
 * the height above the avatar is about h − (1 − w(h))·e, and 1 − w(h) ≤ 1.125·h / D, so it stays
 * positive whenever D > 1.125·e: an asset outside the template head stays outside the avatar head.
 */
export function createDeformer(input: DeformerInput, options: DeformerOptions = {}): Deformer {
  const { template, avatar, indices } = input;
  const vertexCount = template.length / 3;
  if (!Number.isInteger(vertexCount) || avatar.length !== template.length) {
    throw new RangeError('template and avatar need the same number of xyz vertices');
  }
  if (indices.length === 0 || indices.length % 3 !== 0 || indices.some((i) => i >= vertexCount)) {
    throw new RangeError('indices must be whole triangles of existing vertices');
  }
  const welded = weldByPosition(template, indices);
  const bvh = TriangleBvh.build(template, welded);
  const templateNormals = unitRows(angleWeightedNormals(template, welded).vertex);
  const avatarNormals = unitRows(angleWeightedNormals(avatar, welded).vertex);
  const rigid = fitRigidMotion(template, avatar, indices);
  const [r0, r1, r2, r3, r4, r5, r6, r7, r8] = rigid.rotation;
  const [t0, t1, t2] = rigid.translation;

  let residual = 0;
  for (let i = 0; i < template.length; i += 3) {
    const x = template[i], y = template[i + 1], z = template[i + 2];
    residual = Math.max(residual, Math.hypot(
      r0 * x + r1 * y + r2 * z + t0 - avatar[i],
      r3 * x + r4 * y + r5 * z + t1 - avatar[i + 1],
      r6 * x + r7 * y + r8 * z + t2 - avatar[i + 2],
    ));
  }
  const blendDistance = Math.max(options.minBlendDistance ?? DEFAULT_MIN_BLEND_DISTANCE, 2 * residual);

  const deform = (points: Float32Array): Float32Array => {
    if (points.length % 3 !== 0) throw new RangeError(`${points.length} values are not whole xyz triples`);
    const out = new Float32Array(points.length);
    const hit = emptyClosestPoint();
    // Template normal, avatar normal, rotated offset.
    const n = new Float64Array(9);
    let hint = -1;
    const order = mortonOrder(points);
    for (let k = 0; k < order.length; k++) {
      const i = 3 * order[k];
      const px = points[i], py = points[i + 1], pz = points[i + 2];
      const rx = r0 * px + r1 * py + r2 * pz + t0;
      const ry = r3 * px + r4 * py + r5 * pz + t1;
      const rz = r6 * px + r7 * py + r8 * pz + t2;
      if (!bvh.closestPoint(px, py, pz, hit, blendDistance, hint)) {
        out[i] = rx;
        out[i + 1] = ry;
        out[i + 2] = rz;
        continue;
      }
      hint = hit.triangle;
      const s = hit.distance / blendDistance;
      const w = 1 - s * s * (3 - 2 * s);
      const a = indices[3 * hit.triangle], b = indices[3 * hit.triangle + 1], c = indices[3 * hit.triangle + 2];
      // Normals are shared across welded copies: take them at the welded corners.
      const na = 3 * welded[3 * hit.triangle], nb = 3 * welded[3 * hit.triangle + 1], nc = 3 * welded[3 * hit.triangle + 2];
      for (let k = 0; k < 3; k++) {
        n[k] = hit.wa * templateNormals[na + k] + hit.wb * templateNormals[nb + k] + hit.wc * templateNormals[nc + k];
        n[3 + k] = hit.wa * avatarNormals[na + k] + hit.wb * avatarNormals[nb + k] + hit.wc * avatarNormals[nc + k];
      }
      rotateBetween(n, px - hit.x, py - hit.y, pz - hit.z);
      const lx = hit.wa * avatar[3 * a] + hit.wb * avatar[3 * b] + hit.wc * avatar[3 * c] + n[6];
      const ly = hit.wa * avatar[3 * a + 1] + hit.wb * avatar[3 * b + 1] + hit.wc * avatar[3 * c + 1] + n[7];
      const lz = hit.wa * avatar[3 * a + 2] + hit.wb * avatar[3 * b + 2] + hit.wc * avatar[3 * c + 2] + n[8];
      out[i] = rx + w * (lx - rx);
      out[i + 1] = ry + w * (ly - ry);
      out[i + 2] = rz + w * (lz - rz);
    }
    return out;
  };
  return { deform, blendDistance, rigid };
}

/** Scales every xyz row to unit length (zero rows stay zero), so that interpolation weighs corners by position only. */
function unitRows(v: Float64Array): Float64Array {
  for (let i = 0; i < v.length; i += 3) {
    const length = Math.sqrt(v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2]);
    if (length > 0) {
      v[i] /= length;
      v[i + 1] /= length;
      v[i + 2] /= length;
    }
  }
  return v;
}

/**
 * Rotates (x, y, z) by the smallest rotation taking direction n[0..2] to direction n[3..5] (neither
 * need be unit) and writes it to n[6..8]. Opposite directions have no smallest rotation, a zero one no
 * direction: the vector is then kept.
 */
function rotateBetween(n: Float64Array, x: number, y: number, z: number): void {
  const la = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const lb = Math.sqrt(n[3] * n[3] + n[4] * n[4] + n[5] * n[5]);
  const c = la > 0 && lb > 0 ? (n[0] * n[3] + n[1] * n[4] + n[2] * n[5]) / (la * lb) : -1;
  if (c <= -0.999) {
    n[6] = x;
    n[7] = y;
    n[8] = z;
    return;
  }
  const ax = n[0] / la, ay = n[1] / la, az = n[2] / la;
  const bx = n[3] / lb, by = n[4] / lb, bz = n[5] / lb;
  // Rodrigues with v = a × b, |v| = sin: R x = c·x + v × x + v (v · x) / (1 + c).
  const vx = ay * bz - az * by, vy = az * bx - ax * bz, vz = ax * by - ay * bx;
  const k = (vx * x + vy * y + vz * z) / (1 + c);
  n[6] = c * x + (vy * z - vz * y) + vx * k;
  n[7] = c * y + (vz * x - vx * z) + vy * k;
  n[8] = c * z + (vx * y - vy * x) + vz * k;
}
