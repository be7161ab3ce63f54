/**
 * The skeleton follows the fit: joint positions are moved by the same deformation as the head, eye joints
 * go to the fitted eyeball centres; rest rotations are kept, local translations recomputed.
 */
import type { Bone } from '../../model/avatar.ts';
import type { FittedHead } from './fit-head.ts';

export function fitBones(bones: Bone[], fitted: FittedHead): Bone[] {
  const world = worldPositions(bones);
  const moved = fitted.deform(world);
  for (const [mesh, eye] of Object.entries(fitted.eyes)) {
    const b = bones.findIndex((bone) => bone.name === mesh);
    if (b >= 0) moved.set(eye.center, b * 3);
  }
  return bones.map((bone, i) => {
    const p = bone.parent;
    const base = p < 0 ? [0, 0, 0] : [moved[p * 3], moved[p * 3 + 1], moved[p * 3 + 2]];
    const local = rotateInverse(parentWorldRotation(bones, i), [moved[i * 3] - base[0], moved[i * 3 + 1] - base[1], moved[i * 3 + 2] - base[2]]);
    return { ...bone, translation: local };
  });
}

type Q = [number, number, number, number];

function qmul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

function qrotate(q: Q, v: [number, number, number]): [number, number, number] {
  const r = qmul(qmul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

function rotateInverse(q: Q, v: [number, number, number]): [number, number, number] {
  return qrotate([-q[0], -q[1], -q[2], q[3]], v);
}

/** World rotation of a bone's parent (identity for roots). */
function parentWorldRotation(bones: Bone[], i: number): Q {
  let q: Q = [0, 0, 0, 1];
  for (let p = bones[i].parent; p >= 0; p = bones[p].parent) q = qmul(bones[p].rotation, q);
  return q;
}

/** The joints' world positions, xyz per bone. */
export function worldPositions(bones: readonly Bone[]): Float32Array {
  const out = new Float32Array(bones.length * 3);
  const rot: Q[] = [];
  bones.forEach((b, i) => {
    if (b.parent < 0) {
      out.set(b.translation, i * 3);
      rot.push(b.rotation);
      return;
    }
    const t = qrotate(rot[b.parent], b.translation);
    for (let k = 0; k < 3; k++) out[i * 3 + k] = out[b.parent * 3 + k] + t[k];
    rot.push(qmul(rot[b.parent], b.rotation));
  });
  return out;
}
