import type { AvatarModel, Vec3 } from '../../model/avatar.ts';
import { meshNodeName } from './naming.ts';
import { boneWorldMatrices } from '../../geometry/mesh/transform.ts';

/** Rig constraints a realtime engine can use instead of (or besides) skinning. */
export type Constraint =
  /** The mesh moves rigidly with one bone (all its weight on that bone): parent it. */
  | { type: 'parent'; node: string; target: string }
  /** An eye bone: turning its local `aim_axis` towards a target makes the eye look at it. */
  | { type: 'aim'; bone: string; aim_axis: Vec3; up_axis: Vec3 };

const EYE_BONES = ['eyeLeft', 'eyeRight'];

/** Rest world direction expressed in a bone's local frame (rotation part only). */
function localAxis(world: Float64Array, dir: Vec3): Vec3 {
  // The rotation is orthonormal: its inverse is its transpose.
  const r = [0, 1, 2].map((c) => world[c * 4] * dir[0] + world[c * 4 + 1] * dir[1] + world[c * 4 + 2] * dir[2]);
  return r.map((x) => Math.round(x * 1e6) / 1e6) as Vec3;
}

export function deriveConstraints(model: AvatarModel): Constraint[] {
  const out: Constraint[] = [];
  for (const mesh of model.meshes) {
    const { joints, weights } = mesh.skin;
    const bone = joints[0];
    let rigid = joints.length > 0;
    for (let k = 0; k < joints.length && rigid; k++) rigid = weights[k] === 0 || (joints[k] === bone && weights[k] >= 0.9999);
    if (rigid) out.push({ type: 'parent', node: meshNodeName(mesh), target: model.bones[bone].name });
  }
  const world = boneWorldMatrices(model.bones);
  model.bones.forEach((b, k) => {
    // The face looks along +Z, so at rest the eyes aim along world +Z.
    if (EYE_BONES.includes(b.name)) out.push({ type: 'aim', bone: b.name, aim_axis: localAxis(world[k], [0, 0, 1]), up_axis: localAxis(world[k], [0, 1, 0]) });
  });
  return out;
}
