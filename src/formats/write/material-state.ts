import { DEFAULT_ALPHA_CUTOFF, type AvatarModel, type Material } from '../../model/avatar.ts';

/** Material description shared by `material_state.json` (maya package) and the Unity JSON model. */
export interface MaterialState {
  materials: {
    name: string;
    /** Linear RGBA. */
    color: [number, number, number, number];
    roughness: number;
    metallic: number;
    alpha_mode: Material['alphaMode'];
    /** MASK only: texels whose alpha is below it are not drawn. */
    alpha_cutoff?: number;
    double_sided: boolean;
    /**
     * Texture file names inside the package, by slot, with glTF's channel layout: baseColor sRGB
     * (alpha the coverage where alpha_mode is MASK or BLEND), normal tangent-space with green up,
     * occlusion in red, metallicRoughness roughness in green and metallic in blue.
     */
    textures: { baseColor?: string; normal?: string; occlusion?: string; metallicRoughness?: string };
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
      ...(m.alphaMode === 'MASK' ? { alpha_cutoff: m.alphaCutoff ?? DEFAULT_ALPHA_CUTOFF } : {}),
      double_sided: m.doubleSided ?? false,
      textures: {
        ...(m.baseColorTexture ? { baseColor: m.baseColorTexture } : {}),
        ...(m.normalTexture ? { normal: m.normalTexture } : {}),
        ...(m.occlusionTexture ? { occlusion: m.occlusionTexture } : {}),
        ...(m.metallicRoughnessTexture ? { metallicRoughness: m.metallicRoughnessTexture } : {}),
      },
      meshes: model.meshes.filter((mesh) => mesh.material === m.name).map((mesh) => mesh.name),
    })),
  };
}
