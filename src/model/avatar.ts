/**
 * The avatar document: everything the pipeline produces and every format writer reads.
 * Pure data, no I/O. Units are centimetres, Y up, the face looks along +Z (right-handed).
 * UV origin is bottom-left (v up), as in FBX, OBJ and Maya; writers for top-left formats (glTF) flip v.
 */
import type { TemplateVersion } from './product.ts';

export type Vec3 = [number, number, number];
/** Unit quaternion x, y, z, w. */
export type Quat = [number, number, number, number];

export interface MeshData {
  /** xyz per vertex, centimetres. */
  positions: Float32Array;
  /** Unit normal per vertex. */
  normals: Float32Array;
  /** uv per vertex in [0,1], v up. */
  uvs: Float32Array;
  /** Triangles, counter-clockwise seen from outside. */
  indices: Uint32Array;
}

/** Four influences per vertex; weights of a vertex sum to 1, unused slots have weight 0. */
export interface Skin {
  joints: Uint16Array;
  weights: Float32Array;
}

export interface MorphTarget {
  /** Blendshape name, e.g. the ARKit name `jawOpen` or a viseme name. */
  name: string;
  /** Position deltas, xyz per vertex (same length as the mesh positions). */
  deltas: Float32Array;
}

export interface AvatarMesh {
  /** Unique within the model: `head`, `eyeLeft`, `eyeRight`, `teeth`, `tongue`, ... */
  name: string;
  geometry: MeshData;
  /** Name of an entry of AvatarModel.materials. */
  material: string;
  skin: Skin;
  /** Same names in the same order on every mesh that has morphs; a mesh may have none. */
  morphs: MorphTarget[];
}

export interface Bone {
  /** `root`, `neck`, `head`, `jaw`, `eyeLeft`, `eyeRight`, ... */
  name: string;
  /** Index of the parent bone, -1 for the root. Parents come before children. */
  parent: number;
  /** Rest pose relative to the parent. */
  translation: Vec3;
  rotation: Quat;
}

export interface Texture {
  /** File name inside packages, e.g. `head_baseColor.png`. */
  name: string;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Material {
  name: string;
  /** Linear RGBA multiplier. */
  baseColorFactor: [number, number, number, number];
  /** sRGB colour; where alphaMode is MASK or BLEND its alpha channel is the coverage (hair cards, lashes). */
  baseColorTexture?: string;
  /** Tangent-space normal map, OpenGL convention (green towards +v), as glTF defines it. */
  normalTexture?: string;
  /** Ambient occlusion in the red channel (linear). */
  occlusionTexture?: string;
  /** Roughness in green, metallic in blue (linear), as glTF packs them; may be the occlusion texture's image. */
  metallicRoughnessTexture?: string;
  /** Multiplies the metallicRoughnessTexture's green channel, or stands alone without it. */
  roughness: number;
  metallic: number;
  /** MASK draws texels whose alpha reaches alphaCutoff; BLEND blends by alpha over what is behind. */
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  /** For MASK, default DEFAULT_ALPHA_CUTOFF. */
  alphaCutoff?: number;
  /** Drawn from both sides (cards and shells without a back); default false. */
  doubleSided?: boolean;
}

/** The alpha cutoff of a MASK material that gives none (glTF's default). */
export const DEFAULT_ALPHA_CUTOFF = 0.5;

export interface BoneTrack {
  bone: number;
  /** Seconds. */
  times: Float32Array;
  /** xyzw per key, local rotation replacing the rest rotation. */
  rotations: Float32Array;
}

export interface MorphTrack {
  /** Blendshape name; drives the morph of that name on every mesh that has it. */
  morph: string;
  times: Float32Array;
  weights: Float32Array;
}

export interface AnimationClip {
  name: string;
  /** Seconds. */
  duration: number;
  loop: boolean;
  boneTracks: BoneTrack[];
  morphTracks: MorphTrack[];
}

// Re-exported for the many geometry modules that read it with the document; the definition is the product's.
export type { TemplateVersion };

export interface AvatarModel {
  name: string;
  template: TemplateVersion;
  meshes: AvatarMesh[];
  bones: Bone[];
  materials: Material[];
  textures: Texture[];
  animations: AnimationClip[];
}
