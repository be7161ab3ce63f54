/**
 * The parts of glTF 2.0's JSON the GLB writer makes (gltf.ts, gltf-morphs.ts), and the numeric codes it uses, as the
 * specification names them.
 */

/** Accessor component types. */
export const FLOAT = 5126, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125;
/** Buffer view targets: vertex attributes and indices. */
export const ARRAY_BUFFER = 34962, ELEMENT_ARRAY_BUFFER = 34963;
export const TRIANGLES = 4;
/** Sampler wrap mode. */
export const REPEAT = 10497;

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';

export interface GltfBufferView {
  buffer: 0;
  byteOffset: number;
  byteLength: number;
  target?: number;
}

export interface GltfAccessor {
  bufferView?: number;
  componentType: number;
  count: number;
  type: AccessorType;
  name?: string;
  min?: number[];
  max?: number[];
  sparse?: { count: number; indices: { bufferView: number; componentType: number }; values: { bufferView: number } };
}

export interface TextureRef {
  index: number;
}

export interface GltfMaterial {
  name: string;
  pbrMetallicRoughness: {
    baseColorFactor?: number[];
    baseColorTexture?: TextureRef;
    metallicFactor?: number;
    roughnessFactor?: number;
    metallicRoughnessTexture?: TextureRef;
  };
  normalTexture?: TextureRef;
  occlusionTexture?: TextureRef;
  alphaMode?: 'MASK' | 'BLEND';
  alphaCutoff?: number;
  doubleSided?: true;
}

export interface GltfMesh {
  name: string;
  primitives: { attributes: Record<string, number>; indices: number; material: number; mode: number; targets?: Record<string, number>[] }[];
  weights?: number[];
  extras?: { targetNames: string[] };
}

export interface GltfNode {
  name: string;
  translation?: number[];
  rotation?: number[];
  children?: number[];
  mesh?: number;
  skin?: number;
}

export interface GltfAnimation {
  name: string;
  samplers: { input: number; output: number; interpolation: 'LINEAR' }[];
  channels: { sampler: number; target: { node: number; path: 'rotation' | 'weights' } }[];
}

/** The glTF JSON this writer makes. */
export interface GltfJson {
  asset: { version: '2.0'; generator: string };
  scene: number;
  scenes: { name: string; nodes: number[] }[];
  nodes: GltfNode[];
  meshes: GltfMesh[];
  materials: GltfMaterial[];
  textures: { source: number; sampler: number }[];
  samplers: { wrapS: number; wrapT: number }[];
  images: { name: string; mimeType: string; bufferView: number }[];
  skins: { name: string; inverseBindMatrices: number; skeleton: number; joints: number[] }[];
  animations: GltfAnimation[];
  accessors: GltfAccessor[];
  bufferViews: GltfBufferView[];
  buffers: { byteLength: number }[];
}

