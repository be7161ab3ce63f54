import type { Bone, Vec3 } from '../../model/avatar.ts';
import { BONE } from './types.ts';

/** Rest positions of the joints (cm) for the canonical face's frame. */
export interface RigJoints {
  eyeLeft: Vec3;
  eyeRight: Vec3;
  /** Height of the bust's flat bottom, where the root sits. */
  bottomY: number;
}

/** The jaw hinges just in front of the ears, at the height of the ear openings. */
export const JAW_PIVOT: Vec3 = [0, -0.8, -3.6];
/** The spine joint low in the chest, the chest joint at the base of the neck. */
const SPINE_JOINT: Vec3 = [0, -30, -7];
const CHEST_JOINT: Vec3 = [0, -19, -6.5];
const NECK_JOINT: Vec3 = [0, -14, -6];
const HEAD_JOINT: Vec3 = [0, -4.5, -5.5];
const TONGUE_JOINT: Vec3 = [0, -5, 0.8];

const PARENTS: Record<keyof typeof BONE, number> = { root: -1, spine: BONE.root, chest: BONE.spine, neck: BONE.chest, head: BONE.neck, jaw: BONE.head, eyeLeft: BONE.head, eyeRight: BONE.head, tongue: BONE.jaw };

/** World rest positions in BONE order. */
export function jointPositions(j: RigJoints): Vec3[] {
  return [[0, j.bottomY, -6], SPINE_JOINT, CHEST_JOINT, NECK_JOINT, HEAD_JOINT, JAW_PIVOT, j.eyeLeft, j.eyeRight, TONGUE_JOINT];
}

/** Bones with local rest translations (child minus parent) and identity rotations. */
export function skeleton(world: Vec3[]): Bone[] {
  return (Object.keys(BONE) as (keyof typeof BONE)[]).map((name) => {
    const parent = PARENTS[name];
    const p = world[BONE[name]];
    const base = parent < 0 ? [0, 0, 0] : world[parent];
    return { name, parent, translation: [p[0] - base[0], p[1] - base[1], p[2] - base[2]], rotation: [0, 0, 0, 1] };
  });
}
