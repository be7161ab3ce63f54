import type { Bone, Quat, Skin, Vec3 } from '../src/model/avatar.ts';

/** 3x4 affine transform, row-major: rotation columns then translation. */
type Affine = Float64Array;

function fromRotationTranslation(q: Quat, t: Vec3): Affine {
  const [x, y, z, w] = q;
  return Float64Array.from([
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), t[0],
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), t[1],
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), t[2],
  ]);
}

function multiply(a: Affine, b: Affine): Affine {
  const out = new Float64Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      out[r * 4 + c] = a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c] + a[r * 4 + 2] * b[8 + c] + (c === 3 ? a[r * 4 + 3] : 0);
    }
  }
  return out;
}

/** Quaternion of a rotation by `angle` radians about a unit `axis`. */
export function axisAngle(axis: Vec3, angle: number): Quat {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/**
 * Linear blend skinning. `pose` gives local rotations (replacing the rest rotation) of some
 * bones; the rest are at rest. Bones' rest rotations are taken into account, parents first.
 */
export function poseVertices(positions: Float32Array, skin: Skin, bones: readonly Bone[], pose: ReadonlyMap<number, Quat>): Float32Array {
  const rest: Affine[] = [], posed: Affine[] = [];
  bones.forEach((bone, i) => {
    const local = fromRotationTranslation(bone.rotation, bone.translation);
    const moved = fromRotationTranslation(pose.get(i) ?? bone.rotation, bone.translation);
    rest.push(bone.parent < 0 ? local : multiply(rest[bone.parent], local));
    posed.push(bone.parent < 0 ? moved : multiply(posed[bone.parent], moved));
  });
  const skinning = posed.map((p, i) => multiply(p, invertRigid(rest[i])));
  const out = new Float32Array(positions.length);
  for (let v = 0; v < positions.length / 3; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    for (let k = 0; k < 4; k++) {
      const w = skin.weights[4 * v + k];
      if (w === 0) continue;
      const m = skinning[skin.joints[4 * v + k]];
      for (let r = 0; r < 3; r++) out[3 * v + r] += w * (m[r * 4] * x + m[r * 4 + 1] * y + m[r * 4 + 2] * z + m[r * 4 + 3]);
    }
  }
  return out;
}

/** Inverse of a rotation plus translation. */
function invertRigid(m: Affine): Affine {
  const out = new Float64Array(12);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[r * 4 + c] = m[c * 4 + r];
  for (let r = 0; r < 3; r++) out[r * 4 + 3] = -(out[r * 4] * m[3] + out[r * 4 + 1] * m[7] + out[r * 4 + 2] * m[11]);
  return out;
}
