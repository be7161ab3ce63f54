import type { AvatarModel, MorphTarget, Quat, Vec3 } from '../../model/avatar.ts';
import { deriveConstraints, type Constraint } from './constraints.ts';
import { materialState, type MaterialState } from './material-state.ts';
import { meshNodeName } from './naming.ts';
import { sparseShape } from './sparse-shape.ts';
import { boneWorldMatrices, invertAffine } from '../../geometry/mesh/transform.ts';
import { jsonBytes, RoundedNumbers, type NumberArray } from './json-bytes.ts';

/** A node of the Unity JSON scene tree; `mesh` names an entry of `meshes`. */
export interface UnityNode {
  name: string;
  pos: Vec3;
  rotq: Quat;
  scl: Vec3;
  mesh?: string;
  children: UnityNode[];
}

/**
 * `avatar_model.json`, validated by schemas/avatar_model.schema.json. `Numbers` is how its number arrays are held:
 * as the file reads (number[]) or as buildUnityModel makes them (RoundedNumbers, which print as those arrays).
 */
export interface UnityModel<Numbers = number[]> {
  version: 2;
  unitsPerMeter: 100;
  name: string;
  template: string;
  coordinates: { up: '+Y'; front: '+Z'; handedness: 'right'; uv_origin: 'bottom-left' };
  meshes: {
    name: string;
    material: string;
    vertices: Numbers;
    normals: Numbers;
    uvs: Numbers;
    faces: Numbers;
    skin_indices: Numbers;
    skin_weights: Numbers;
    /** Sparse: `deltas` holds xyz for each vertex listed in `indices`. */
    blendshapes: { name: string; indices: Numbers; deltas: Numbers }[];
  }[];
  root_node: UnityNode;
  bones: { name: string; parent: number; inverse_bind_matrix: Numbers }[];
  material_state: MaterialState;
  constraints: Constraint[];
  animations: {
    name: string;
    duration: number;
    loop: boolean;
    bone_tracks: { bone: string; times: Numbers; rotq: Numbers }[];
    blendshape_tracks: { blendshape: string; times: Numbers; weights: Numbers }[];
  }[];
}

const rounded = (values: NumberArray, decimals: number) => new RoundedNumbers(values, decimals);
const integers = (values: NumberArray) => new RoundedNumbers(values, 0);

/** Positions to 1 µm (values in cm), unit vectors and UVs to 1e-6, weights to 1e-5. */
const CM = 4, UNIT = 6, WEIGHT = 5;

function unityBlendshape(morph: MorphTarget): { name: string; indices: RoundedNumbers; deltas: RoundedNumbers } {
  const { indexes, deltas } = sparseShape(morph);
  return { name: morph.name, indices: integers(indexes), deltas: rounded(deltas, CM) };
}

/** The Unity JSON's content: `JSON.stringify` of it is the file's text, which writeUnityJson writes faster. */
export function buildUnityModel(model: AvatarModel): UnityModel<RoundedNumbers> {
  const bones = model.bones;
  const nodes: UnityNode[] = bones.map((b) => ({ name: b.name, pos: b.translation, rotq: b.rotation, scl: [1, 1, 1], children: [] }));
  const roots: UnityNode[] = [];
  bones.forEach((b, k) => (b.parent < 0 ? roots : nodes[b.parent].children).push(nodes[k]));
  const world = boneWorldMatrices(bones);
  return {
    version: 2,
    unitsPerMeter: 100,
    name: model.name,
    template: model.template,
    coordinates: { up: '+Y', front: '+Z', handedness: 'right', uv_origin: 'bottom-left' },
    meshes: model.meshes.map((m) => ({
      name: m.name,
      material: m.material,
      vertices: rounded(m.geometry.positions, CM),
      normals: rounded(m.geometry.normals, UNIT),
      uvs: rounded(m.geometry.uvs, UNIT),
      faces: integers(m.geometry.indices),
      skin_indices: integers(m.skin.joints),
      skin_weights: rounded(m.skin.weights, WEIGHT),
      blendshapes: m.morphs.map(unityBlendshape),
    })),
    root_node: {
      name: model.name, pos: [0, 0, 0], rotq: [0, 0, 0, 1], scl: [1, 1, 1],
      children: [
        ...roots,
        ...model.meshes.map((m): UnityNode => ({ name: meshNodeName(m), pos: [0, 0, 0], rotq: [0, 0, 0, 1], scl: [1, 1, 1], mesh: m.name, children: [] })),
      ],
    },
    bones: bones.map((b, k) => ({ name: b.name, parent: b.parent, inverse_bind_matrix: rounded(invertAffine(world[k]), UNIT) })),
    material_state: materialState(model),
    constraints: deriveConstraints(model),
    animations: model.animations.map((clip) => ({
      name: clip.name,
      duration: clip.duration,
      loop: clip.loop,
      bone_tracks: clip.boneTracks.map((t) => ({ bone: bones[t.bone].name, times: rounded(t.times, UNIT), rotq: rounded(t.rotations, UNIT) })),
      blendshape_tracks: clip.morphTracks.map((t) => ({ blendshape: t.morph, times: rounded(t.times, UNIT), weights: rounded(t.weights, WEIGHT) })),
    })),
  };
}

export function writeUnityJson(model: AvatarModel): Uint8Array {
  return jsonBytes(buildUnityModel(model));
}
