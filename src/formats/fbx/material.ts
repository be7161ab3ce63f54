import type { Material, Texture } from '../../model/avatar.ts';
import { int32, node, objectName, prop70, properties70, type FbxNode } from './node.ts';

/** Phong material from the PBR one: colour and opacity kept, roughness mapped to a specular exponent. */
export function materialNode(m: Material): FbxNode[] {
  const [r, g, b, a] = m.baseColorFactor;
  const smooth = 1 - m.roughness;
  const specular = 0.04 + 0.46 * smooth * smooth;
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
      prop70('ShininessExponent', 'Number', '', 'A', 2 + 98 * smooth * smooth),
      prop70('ReflectionFactor', 'Number', '', 'A', m.metallic),
    ]),
  ];
}

/** Texture object referencing its image by a path relative to the FBX (the package keeps them side by side). */
export function textureNode(t: Texture): FbxNode[] {
  return [
    node('Type', ['TextureVideoClip']),
    node('Version', [int32(202)]),
    node('TextureName', [objectName(t.name, 'Texture')]),
    properties70([prop70('UseMaterial', 'bool', '', '', int32(1))]),
    node('Media', [objectName(t.name, 'Video')]),
    node('FileName', [t.name]),
    node('RelativeFilename', [t.name]),
    node('ModelUVTranslation', [0, 0]),
    node('ModelUVScaling', [1, 1]),
    node('Texture_Alpha_Source', ['None']),
    node('Cropping', [int32(0), int32(0), int32(0), int32(0)]),
  ];
}

export function videoNode(t: Texture): FbxNode[] {
  return [
    node('Type', ['Clip']),
    properties70([prop70('Path', 'KString', 'XRefUrl', '', t.name)]),
    node('UseMipMap', [int32(0)]),
    node('Filename', [t.name]),
    node('RelativeFilename', [t.name]),
  ];
}
