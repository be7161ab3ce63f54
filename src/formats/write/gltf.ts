/**
 * The avatar as binary glTF 2.0 (GLB), written here as its JSON and one binary buffer: each array goes in as a buffer
 * view of its own, not interleaved, so the arrays' bytes are the file's (a document model that interleaves them element
 * by element took some 75 ms a job and made V8 rebuild its object maps thousands of times).
 */
import { DEFAULT_ALPHA_CUTOFF, type AnimationClip, type AvatarMesh, type AvatarModel, type Material, type MorphTrack, type Vec3 } from '../../model/avatar.ts';
import { glbParts, packGlb } from './glb-container.ts';
import { GltfBinary } from './gltf-buffer.ts';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, REPEAT, TRIANGLES, UNSIGNED_INT, UNSIGNED_SHORT, type AccessorType, type GltfAccessor, type GltfAnimation, type GltfJson, type GltfMaterial, type GltfMesh, type GltfNode, type TextureRef } from './gltf-json.ts';
import { appendSparseTargets } from './gltf-morphs.ts';
import { meshNodeName } from './naming.ts';
import { computeTangents } from '../../geometry/mesh/tangents.ts';
import { boneWorldMatrices, invertAffine } from '../../geometry/mesh/transform.ts';

/** glTF lengths are metres; the avatar document's are centimetres. Converted in the data, no scale node. */
export const METRES_PER_CM = 0.01;
const GENERATOR = 'avatar service';

const COMPONENT_TYPES = new Map<Function, number>([[Float32Array, FLOAT], [Uint16Array, UNSIGNED_SHORT], [Uint32Array, UNSIGNED_INT]]);
const COMPONENTS: Record<AccessorType, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

function scaled(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let k = 0; k < a.length; k++) out[k] = a[k] * METRES_PER_CM;
  return out;
}

/** Per component, the least and the greatest value of the elements (glTF asks for them on positions and key times). */
function bounds(array: ArrayLike<number>, size: number): { min: number[]; max: number[] } {
  const min = new Array<number>(size).fill(Infinity), max = new Array<number>(size).fill(-Infinity);
  for (let k = 0; k < array.length; k++) {
    const c = k % size;
    if (array[k] < min[c]) min[c] = array[k];
    if (array[k] > max[c]) max[c] = array[k];
  }
  return { min, max };
}

/** Linear interpolation of a morph track at time t (clamped at the ends). */
export function sampleTrack(track: MorphTrack, t: number): number {
  const { times, weights } = track;
  if (t <= times[0]) return weights[0];
  for (let k = 1; k < times.length; k++) {
    if (t <= times[k]) {
      const f = (t - times[k - 1]) / (times[k] - times[k - 1]);
      return weights[k - 1] + f * (weights[k] - weights[k - 1]);
    }
  }
  return weights[weights.length - 1];
}

/** The clip's first track of this morph. */
function trackOf(clip: AnimationClip, morph: string): MorphTrack | undefined {
  for (const track of clip.morphTracks) if (track.morph === morph) return track;
  return undefined;
}

/** glTF wants joint index 0 wherever the weight is 0. */
function jointsForGltf(mesh: AvatarMesh): Uint16Array {
  const { joints, weights } = mesh.skin;
  const out = new Uint16Array(joints.length);
  for (let k = 0; k < joints.length; k++) out[k] = weights[k] > 0 ? joints[k] : 0;
  return out;
}

class GlbBuilder {
  readonly binary = new GltfBinary();
  readonly json: GltfJson = {
    asset: { version: '2.0', generator: GENERATOR },
    scene: 0,
    scenes: [],
    nodes: [],
    meshes: [],
    materials: [],
    textures: [],
    samplers: [],
    images: [],
    skins: [],
    animations: [],
    accessors: [],
    bufferViews: this.binary.views,
    buffers: [],
  };

  /** An accessor of `array` in a buffer view of its own; `withBounds` gives it min and max. */
  accessor(type: AccessorType, array: Float32Array | Uint16Array | Uint32Array, target?: number, withBounds = false): number {
    const componentType = COMPONENT_TYPES.get(array.constructor)!;
    const accessor: GltfAccessor = { bufferView: this.binary.view(array, target), componentType, count: array.length / COMPONENTS[type], type };
    if (withBounds) Object.assign(accessor, bounds(array, COMPONENTS[type]));
    this.json.accessors.push(accessor);
    return this.json.accessors.length - 1;
  }

  node(node: GltfNode): number {
    this.json.nodes.push(node);
    return this.json.nodes.length - 1;
  }

  /** Embedded images (the GLB stands alone), named after the package's texture files: texture index by name. */
  textures(model: AvatarModel): Map<string, number> {
    const { images, textures, samplers } = this.json;
    if (model.textures.length > 0) samplers.push({ wrapS: REPEAT, wrapT: REPEAT });
    return new Map(model.textures.map((t) => {
      images.push({ name: t.name, mimeType: t.mimeType, bufferView: this.binary.view(t.data) });
      textures.push({ source: images.length - 1, sampler: 0 });
      return [t.name, textures.length - 1];
    }));
  }

  /** The material's glTF form, glTF's defaults left out. */
  material(m: Material, textures: Map<string, number>): number {
    const texture = (name: string | undefined): TextureRef | undefined => {
      if (name === undefined) return undefined;
      const index = textures.get(name);
      if (index === undefined) throw new Error(`material ${m.name} uses unknown texture ${name}`);
      return { index };
    };
    const pbr: GltfMaterial['pbrMetallicRoughness'] = {};
    if (m.baseColorFactor.some((c) => c !== 1)) pbr.baseColorFactor = [...m.baseColorFactor];
    if (m.baseColorTexture !== undefined) pbr.baseColorTexture = texture(m.baseColorTexture);
    pbr.metallicFactor = m.metallic;
    if (m.roughness !== 1) pbr.roughnessFactor = m.roughness;
    if (m.metallicRoughnessTexture !== undefined) pbr.metallicRoughnessTexture = texture(m.metallicRoughnessTexture);
    const out: GltfMaterial = { name: m.name, pbrMetallicRoughness: pbr };
    if (m.normalTexture !== undefined) out.normalTexture = texture(m.normalTexture);
    if (m.occlusionTexture !== undefined) out.occlusionTexture = texture(m.occlusionTexture);
    if (m.alphaMode !== 'OPAQUE') out.alphaMode = m.alphaMode;
    if (m.alphaMode === 'MASK') out.alphaCutoff = m.alphaCutoff ?? DEFAULT_ALPHA_CUTOFF;
    if (m.doubleSided) out.doubleSided = true;
    this.json.materials.push(out);
    return this.json.materials.length - 1;
  }

  /** The mesh and its node, skinned by the file's one skin: the node's index. */
  mesh(mesh: AvatarMesh, material: number, normalMapped: boolean): number {
    const g = mesh.geometry;
    // glTF's UV origin is top-left.
    const uvs = Float32Array.from(g.uvs);
    for (let k = 1; k < uvs.length; k += 2) uvs[k] = 1 - uvs[k];
    const attributes: Record<string, number> = {
      POSITION: this.accessor('VEC3', scaled(g.positions), ARRAY_BUFFER, true),
      NORMAL: this.accessor('VEC3', g.normals, ARRAY_BUFFER),
      TEXCOORD_0: this.accessor('VEC2', uvs, ARRAY_BUFFER),
      JOINTS_0: this.accessor('VEC4', jointsForGltf(mesh), ARRAY_BUFFER),
      WEIGHTS_0: this.accessor('VEC4', mesh.skin.weights, ARRAY_BUFFER),
    };
    // From the document's v-up UVs: the bitangent then points to the normal map's green (see computeTangents).
    if (normalMapped) attributes.TANGENT = this.accessor('VEC4', computeTangents(g.positions, g.normals, g.uvs, g.indices), ARRAY_BUFFER);
    const indices = this.accessor('SCALAR', g.indices, ELEMENT_ARRAY_BUFFER);
    // Mesh and node share the name: importers name the object after either. The morph targets are added with the
    // buffer's end (gltf-morphs.ts).
    const out: GltfMesh = { name: meshNodeName(mesh), primitives: [{ attributes, indices, material, mode: TRIANGLES }] };
    if (mesh.morphs.length > 0) {
      out.weights = mesh.morphs.map(() => 0);
      out.extras = { targetNames: mesh.morphs.map((m) => m.name) };
    }
    this.json.meshes.push(out);
    return this.node({ name: meshNodeName(mesh), mesh: this.json.meshes.length - 1, skin: 0 });
  }

  /** The bones as nodes, parents first (the model's order): their node indices. */
  skeleton(model: AvatarModel): number[] {
    const joints: number[] = [];
    for (const bone of model.bones) {
      const joint = this.node({ name: bone.name, translation: bone.translation.map((x) => x * METRES_PER_CM) as Vec3, rotation: [...bone.rotation] });
      if (bone.parent >= 0) (this.json.nodes[joints[bone.parent]].children ??= []).push(joint);
      joints.push(joint);
    }
    return joints;
  }

  animation(clip: AnimationClip, joints: number[], meshNodes: number[], meshes: AvatarMesh[]): void {
    const anim: GltfAnimation = { name: clip.name, samplers: [], channels: [] };
    const channel = (node: number, path: 'rotation' | 'weights', times: Float32Array, values: Float32Array): void => {
      anim.samplers.push({ input: this.accessor('SCALAR', times, undefined, true), output: this.accessor(path === 'rotation' ? 'VEC4' : 'SCALAR', values), interpolation: 'LINEAR' });
      anim.channels.push({ sampler: anim.samplers.length - 1, target: { node, path } });
    };
    for (const track of clip.boneTracks) channel(joints[track.bone], 'rotation', track.times, track.rotations);
    if (clip.morphTracks.length > 0) {
      // glTF animates all weights of a mesh at once: sample every track at the union of key times.
      const times = Float32Array.from(new Set(clip.morphTracks.flatMap((t) => Array.from(t.times)))).sort();
      // Loops, not closures made per clip: their optimised code died with them, and was compiled again per avatar.
      for (let m = 0; m < meshes.length; m++) {
        const morphs = meshes[m].morphs;
        const tracks: (MorphTrack | undefined)[] = [];
        for (const morph of morphs) tracks.push(trackOf(clip, morph.name));
        if (tracks.every((t) => t === undefined)) continue;
        const values = new Float32Array(times.length * tracks.length);
        for (let k = 0; k < times.length; k++) {
          for (let j = 0; j < tracks.length; j++) values[k * tracks.length + j] = tracks[j] ? sampleTrack(tracks[j]!, times[k]) : 0;
        }
        channel(meshNodes[m], 'weights', times, values);
      }
    }
    this.json.animations.push(anim);
  }
}

/**
 * The avatar as a binary glTF (GLB) in metres: skin, named morph targets, PBR materials and clips.
 * Self-contained: the textures are embedded, so the file alone shows the textured head.
 */
export function writeGlb(model: AvatarModel): Uint8Array {
  const { json, bin } = glbContent(model);
  return packGlb(json, bin);
}

/** writeGlb's bytes as the parts of the file in order (glbParts), for a caller that stores them without joining them. */
export function writeGlbParts(model: AvatarModel): Uint8Array[] {
  const { json, bin } = glbContent(model);
  return glbParts(json, bin);
}

/** The GLB's JSON and its binary buffer as pieces in order. */
function glbContent(model: AvatarModel): { json: object; bin: Uint8Array[] } {
  const b = new GlbBuilder();
  const textures = b.textures(model);
  const materials = new Map(model.materials.map((m) => [m.name, { index: b.material(m, textures), normalMapped: m.normalTexture !== undefined }]));
  const joints = b.skeleton(model);
  const ibm = new Float32Array(model.bones.length * 16);
  boneWorldMatrices(model.bones).forEach((world, k) => {
    const metres = Float64Array.from(world);
    for (const t of [12, 13, 14]) metres[t] *= METRES_PER_CM;
    ibm.set(invertAffine(metres), k * 16);
  });
  b.json.skins.push({ name: model.name, inverseBindMatrices: b.accessor('MAT4', ibm), skeleton: joints[0], joints });
  const meshNodes = model.meshes.map((mesh) => {
    const material = materials.get(mesh.material);
    if (!material) throw new Error(`mesh ${mesh.name} uses unknown material ${mesh.material}`);
    return b.mesh(mesh, material.index, material.normalMapped);
  });
  for (const clip of model.animations) b.animation(clip, joints, meshNodes, model.meshes);
  b.json.scenes.push({ name: model.name, nodes: [...joints.filter((_, k) => model.bones[k].parent < 0), ...meshNodes] });
  appendSparseTargets(b.json, b.binary, model.meshes, METRES_PER_CM);
  const { pieces, byteLength } = b.binary.finish();
  b.json.buffers.push({ byteLength });
  return { json: withoutEmpty(b.json), bin: pieces };
}

/** The JSON without its empty top-level lists (glTF asks that a list, when there, hold something). */
function withoutEmpty(json: GltfJson): object {
  return Object.fromEntries(Object.entries(json).filter(([, value]) => !(Array.isArray(value) && value.length === 0)));
}
