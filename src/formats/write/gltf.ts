import { Document, Format, NodeIO, type Accessor, type Buffer as GltfBuffer, type Material as GltfMaterial, type Node, type Texture as GltfTexture } from '@gltf-transform/core';
import { DEFAULT_ALPHA_CUTOFF, type AnimationClip, type AvatarMesh, type AvatarModel, type Material, type MorphTrack, type Vec3 } from '../../model/avatar.ts';
import { glbParts, packGlb } from './glb-container.ts';
import { appendSparseTargets } from './gltf-morphs.ts';
import { meshNodeName } from './naming.ts';
import { computeTangents } from '../../geometry/mesh/tangents.ts';
import { boneWorldMatrices, invertAffine } from '../../geometry/mesh/transform.ts';

/** glTF lengths are metres; the avatar document's are centimetres. Converted in the data, no scale node. */
export const METRES_PER_CM = 0.01;
/** The resource name gltf-transform gives the binary chunk of a GLB it writes as JSON. */
const GLB_BUFFER = '@glb.bin';

function scaled(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let k = 0; k < a.length; k++) out[k] = a[k] * METRES_PER_CM;
  return out;
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

class GlbBuilder {
  readonly doc = new Document();
  readonly buffer: GltfBuffer = this.doc.createBuffer();

  accessor(type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint32Array): Accessor {
    return this.doc.createAccessor().setType(type).setArray(array).setBuffer(this.buffer);
  }

  /** Embedded images (the GLB stands alone), named after the package's texture files. */
  textures(model: AvatarModel): Map<string, GltfTexture> {
    return new Map(model.textures.map((t) => [t.name, this.doc.createTexture(t.name).setImage(t.data).setMimeType(t.mimeType)]));
  }

  material(m: Material, textures: Map<string, GltfTexture>): GltfMaterial {
    const texture = (name: string | undefined): GltfTexture | null => {
      if (name === undefined) return null;
      const found = textures.get(name);
      if (!found) throw new Error(`material ${m.name} uses unknown texture ${name}`);
      return found;
    };
    const out = this.doc.createMaterial(m.name)
      .setBaseColorFactor(m.baseColorFactor)
      .setRoughnessFactor(m.roughness)
      .setMetallicFactor(m.metallic)
      .setAlphaMode(m.alphaMode)
      .setDoubleSided(m.doubleSided ?? false)
      .setBaseColorTexture(texture(m.baseColorTexture))
      .setNormalTexture(texture(m.normalTexture))
      .setOcclusionTexture(texture(m.occlusionTexture))
      .setMetallicRoughnessTexture(texture(m.metallicRoughnessTexture));
    if (m.alphaMode === 'MASK') out.setAlphaCutoff(m.alphaCutoff ?? DEFAULT_ALPHA_CUTOFF);
    return out;
  }

  mesh(mesh: AvatarMesh, material: GltfMaterial): Node {
    const g = mesh.geometry;
    // glTF's UV origin is top-left.
    const uvs = Float32Array.from(g.uvs);
    for (let k = 1; k < uvs.length; k += 2) uvs[k] = 1 - uvs[k];
    const primitive = this.doc.createPrimitive()
      .setAttribute('POSITION', this.accessor('VEC3', scaled(g.positions)))
      .setAttribute('NORMAL', this.accessor('VEC3', g.normals))
      .setAttribute('TEXCOORD_0', this.accessor('VEC2', uvs))
      .setAttribute('JOINTS_0', this.accessor('VEC4', jointsForGltf(mesh)))
      .setAttribute('WEIGHTS_0', this.accessor('VEC4', mesh.skin.weights))
      .setIndices(this.accessor('SCALAR', g.indices))
      .setMaterial(material);
    if (material.getNormalTexture()) {
      // From the document's v-up UVs: the bitangent then points to the normal map's green (see computeTangents).
      primitive.setAttribute('TANGENT', this.accessor('VEC4', computeTangents(g.positions, g.normals, g.uvs, g.indices)));
    }
    // Mesh and node share the name: importers name the object after either.
    const gltfMesh = this.doc.createMesh(meshNodeName(mesh)).addPrimitive(primitive);
    // The morph targets themselves are added to the written JSON (gltf-morphs.ts).
    if (mesh.morphs.length > 0) {
      gltfMesh.setWeights(mesh.morphs.map(() => 0)).setExtras({ targetNames: mesh.morphs.map((m) => m.name) });
    }
    return this.doc.createNode(meshNodeName(mesh)).setMesh(gltfMesh);
  }

  skeleton(model: AvatarModel): Node[] {
    const joints: Node[] = [];
    for (const bone of model.bones) {
      const t = bone.translation.map((x) => x * METRES_PER_CM) as Vec3;
      const joint = this.doc.createNode(bone.name).setTranslation(t).setRotation(bone.rotation);
      if (bone.parent >= 0) joints[bone.parent].addChild(joint);
      joints.push(joint);
    }
    return joints;
  }

  animation(clip: AnimationClip, joints: Node[], meshNodes: Node[], meshes: AvatarMesh[]): void {
    const anim = this.doc.createAnimation(clip.name);
    const channel = (target: Node, path: 'rotation' | 'weights', times: Float32Array, values: Float32Array): void => {
      const sampler = this.doc.createAnimationSampler()
        .setInput(this.accessor('SCALAR', times))
        .setOutput(this.accessor(path === 'rotation' ? 'VEC4' : 'SCALAR', values))
        .setInterpolation('LINEAR');
      anim.addSampler(sampler).addChannel(this.doc.createAnimationChannel().setTargetNode(target).setTargetPath(path).setSampler(sampler));
    };
    for (const track of clip.boneTracks) channel(joints[track.bone], 'rotation', track.times, track.rotations);
    if (clip.morphTracks.length > 0) {
      // glTF animates all weights of a mesh at once: sample every track at the union of key times.
      const times = Float32Array.from(new Set(clip.morphTracks.flatMap((t) => Array.from(t.times)))).sort();
      meshes.forEach((mesh, m) => {
        if (mesh.morphs.length === 0) return;
        const tracks = mesh.morphs.map((morph) => clip.morphTracks.find((t) => t.morph === morph.name));
        if (tracks.every((t) => t === undefined)) return;
        const values = new Float32Array(times.length * mesh.morphs.length);
        times.forEach((t, k) => tracks.forEach((track, j) => { values[k * tracks.length + j] = track ? sampleTrack(track, t) : 0; }));
        channel(meshNodes[m], 'weights', times, values);
      });
    }
  }
}

/** glTF wants joint index 0 wherever the weight is 0. */
function jointsForGltf(mesh: AvatarMesh): Uint16Array {
  const { joints, weights } = mesh.skin;
  return joints.map((j, k) => (weights[k] > 0 ? j : 0));
}

/**
 * The avatar as a binary glTF (GLB) in metres: skin, named morph targets, PBR materials and clips.
 * Self-contained: the textures are embedded, so the file alone shows the textured head.
 */
export async function writeGlb(model: AvatarModel): Promise<Uint8Array> {
  const { json, bin } = await glbContent(model);
  return packGlb(json, bin);
}

/** writeGlb's bytes as the parts of the file in order (glbParts), for a caller that stores them without joining them. */
export async function writeGlbParts(model: AvatarModel): Promise<Uint8Array[]> {
  const { json, bin } = await glbContent(model);
  return glbParts(json, bin);
}

/** The GLB's JSON and its binary buffer as pieces in order. */
async function glbContent(model: AvatarModel): Promise<{ json: object; bin: Uint8Array[] }> {
  const b = new GlbBuilder();
  const textures = b.textures(model);
  const materials = new Map(model.materials.map((m) => [m.name, b.material(m, textures)]));
  const joints = b.skeleton(model);
  const ibm = new Float32Array(model.bones.length * 16);
  boneWorldMatrices(model.bones).forEach((world, k) => {
    const metres = Float64Array.from(world);
    for (const t of [12, 13, 14]) metres[t] *= METRES_PER_CM;
    ibm.set(invertAffine(metres), k * 16);
  });
  const skin = b.doc.createSkin(model.name).setSkeleton(joints[0]).setInverseBindMatrices(b.accessor('MAT4', ibm));
  for (const j of joints) skin.addJoint(j);

  const meshNodes = model.meshes.map((mesh) => {
    const material = materials.get(mesh.material);
    if (!material) throw new Error(`mesh ${mesh.name} uses unknown material ${mesh.material}`);
    return b.mesh(mesh, material).setSkin(skin);
  });
  for (const clip of model.animations) b.animation(clip, joints, meshNodes, model.meshes);

  const scene = b.doc.createScene(model.name);
  for (const root of joints.filter((_, k) => model.bones[k].parent < 0)) scene.addChild(root);
  for (const n of meshNodes) scene.addChild(n);
  b.doc.getRoot().setDefaultScene(scene);
  // Written as GLB JSON and its one binary buffer (images included), packed here after the sparse
  // morph targets are appended to that buffer.
  const { json, resources } = await new NodeIO().writeJSON(b.doc, { format: Format.GLB });
  const [buffer] = json.buffers ?? [];
  const data = resources[GLB_BUFFER];
  if (!buffer || !data) throw new Error('glTF buffer missing');
  const bin = appendSparseTargets(json, data, model.meshes.map((mesh) => ({ nodeName: meshNodeName(mesh), mesh })), METRES_PER_CM);
  buffer.byteLength = bin.reduce((sum, piece) => sum + piece.length, 0);
  return { json, bin };
}
