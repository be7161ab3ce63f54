import type { AvatarModel, Material } from '../model/avatar.ts';

/** Material description shared by `material_state.json` (maya package) and the Unity JSON model. */
export interface MaterialState {
  materials: {
    name: string;
    /** Linear RGBA. */
    color: [number, number, number, number];
    roughness: number;
    metallic: number;
    alpha_mode: Material['alphaMode'];
    /** Texture file names inside the package, by slot. */
    textures: { baseColor?: string; normal?: string };
    /** Meshes drawn with this material. */
    meshes: string[];
  }[];
}

export function materialState(model: AvatarModel): MaterialState {
  return {
    materials: model.materials.map((m) => ({
      name: m.name,
      color: m.baseColorFactor,
      roughness: m.roughness,
      metallic: m.metallic,
      alpha_mode: m.alphaMode,
      textures: {
        ...(m.baseColorTexture ? { baseColor: m.baseColorTexture } : {}),
        ...(m.normalTexture ? { normal: m.normalTexture } : {}),
      },
      meshes: model.meshes.filter((mesh) => mesh.material === m.name).map((mesh) => mesh.name),
    })),
  };
}
