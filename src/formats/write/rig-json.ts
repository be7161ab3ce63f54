import type { AvatarModel, Quat, Vec3 } from '../../model/avatar.ts';
import { deriveConstraints, type Constraint } from './constraints.ts';
import { visemeMapping } from './visemes.ts';

/** `avatar_rig.json` of the webviewer package: what a realtime player drives. */
export interface RigJson {
  version: 1;
  unitsPerMeter: 100;
  model: { glb: string; fbx: string };
  bones: { name: string; parent: number; pos: Vec3; rotq: Quat }[];
  /** Each blendshape with the meshes that carry it and its weight range. */
  blendshapes: { name: string; meshes: string[]; range: [number, number] }[];
  /** Speech-mark viseme value to blendshape name; empty when the avatar has no visemes. */
  visemes: Record<string, string>;
  animations: { name: string; duration: number; loop: boolean }[];
  constraints: Constraint[];
}

export function buildRig(model: AvatarModel, files: { glb: string; fbx: string }): RigJson {
  const shapes = new Map<string, string[]>();
  for (const mesh of model.meshes) for (const m of mesh.morphs) shapes.set(m.name, [...(shapes.get(m.name) ?? []), mesh.name]);
  return {
    version: 1,
    unitsPerMeter: 100,
    model: files,
    bones: model.bones.map((b) => ({ name: b.name, parent: b.parent, pos: b.translation, rotq: b.rotation })),
    blendshapes: [...shapes].map(([name, meshes]) => ({ name, meshes, range: [0, 1] })),
    visemes: visemeMapping(model),
    animations: model.animations.map((a) => ({ name: a.name, duration: a.duration, loop: a.loop })),
    constraints: deriveConstraints(model),
  };
}
