import type { Material } from '../../../model/avatar.ts';
import { int32, node, objectName, prop70, properties70, type FbxNode } from './node.ts';

/**
 * Phong material from the PBR one, in the properties Blender's importer reads (and its exporter
 * writes): colour, opacity, roughness as `Shininess` 100 (1 - roughness)^2 (Blender takes back
 * 1 - sqrt(Shininess) / 10), a dielectric's specular level, metallic as `ReflectionFactor`.
 * `SpecularColor` and `ShininessExponent` give Phong readers (Maya, three.js) a highlight of about
 * the same breadth.
 */
export function materialNode(m: Material): FbxNode[] {
  const [r, g, b, a] = m.baseColorFactor;
  const smooth = 1 - m.roughness;
  const specular = 0.04 + 0.46 * smooth * smooth;
  const shininess = 100 * smooth * smooth;
  return [
    node('Version', [int32(102)]),
    node('ShadingModel', ['phong']),
    node('MultiLayer', [int32(0)]),
    properties70([
      prop70('DiffuseColor', 'Color', '', 'A', r, g, b),
      prop70('DiffuseFactor', 'Number', '', 'A', 1),
      prop70('TransparencyFactor', 'Number', '', 'A', 1 - a),
      prop70('Opacity', 'double', 'Number', '', a),
      prop70('SpecularColor', 'Color', '', 'A', specular, specular, specular),
      // Blender's specular is twice this: 0.5, a reflectance of 4 % at normal incidence.
      prop70('SpecularFactor', 'Number', '', 'A', 0.25),
      prop70('Shininess', 'Number', '', 'A', shininess),
      prop70('ShininessExponent', 'Number', '', 'A', shininess),
      prop70('ReflectionFactor', 'Number', '', 'A', m.metallic),
      prop70('BumpFactor', 'double', 'Number', '', 1),
    ]),
  ];
}

/**
 * The material properties a texture feeds, in the names Blender's FBX importer wires up (Maya's
 * and Unity's read the same): base colour, its alpha as transparency for MASK and BLEND (Maya and
 * Unity take coverage from there; Blender links the alpha from either), the normal map,
 * roughness in `ShininessExponent` (as Blender exports and imports it) and metallic. FBX has no
 * occlusion slot that Blender or Maya read: the occlusion map is named in material_state.json.
 */
export function textureSlots(m: Material, maps: { roughness?: string; metallic?: string }): [texture: string, property: string][] {
  const slots: [string | undefined, string][] = [
    [m.baseColorTexture, 'DiffuseColor'],
    [m.alphaMode === 'OPAQUE' ? undefined : m.baseColorTexture, 'TransparentColor'],
    [m.normalTexture, 'NormalMap'],
    [maps.roughness, 'ShininessExponent'],
    [maps.metallic, 'ReflectionFactor'],
  ];
  return slots.filter((s): s is [string, string] => s[0] !== undefined);
}

/** Texture object referencing its image by a path relative to the FBX (the package keeps them side by side). */
export function textureNode(file: string): FbxNode[] {
  return [
    node('Type', ['TextureVideoClip']),
    node('Version', [int32(202)]),
    node('TextureName', [objectName(file, 'Texture')]),
    properties70([prop70('UseMaterial', 'bool', '', '', int32(1))]),
    node('Media', [objectName(file, 'Video')]),
    node('FileName', [file]),
    node('RelativeFilename', [file]),
    node('ModelUVTranslation', [0, 0]),
    node('ModelUVScaling', [1, 1]),
    node('Texture_Alpha_Source', ['None']),
    node('Cropping', [int32(0), int32(0), int32(0), int32(0)]),
  ];
}

export function videoNode(file: string): FbxNode[] {
  return [
    node('Type', ['Clip']),
    properties70([prop70('Path', 'KString', 'XRefUrl', '', file)]),
    node('UseMipMap', [int32(0)]),
    node('Filename', [file]),
    node('RelativeFilename', [file]),
  ];
}
