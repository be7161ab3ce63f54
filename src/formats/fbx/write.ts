import type { AvatarModel } from '../../model/avatar.ts';
import { addClip, takes } from './animation.ts';
import { addBlendShapes } from './blendshapes.ts';
import { meshNodeName } from '../naming.ts';
import { encodeFbx } from './encode.ts';
import { meshGeometry } from './geometry.ts';
import { modelNode } from './model-node.ts';
import { definitions, preamble } from './header.ts';
import { materialNode, textureNode, videoNode } from './material.ts';
import { node } from './node.ts';
import { FbxScene, SCENE_ROOT } from './scene.ts';
import { addBindPose, addSkeleton, addSkin } from './skeleton.ts';

/** FBX material properties the avatar's texture slots feed. */
const TEXTURE_SLOTS = [['baseColorTexture', 'DiffuseColor'], ['normalTexture', 'NormalMap']] as const;

/**
 * The avatar as binary FBX 7.4: centimetres, Y up, face along +Z. Textures are referenced by
 * their file name, relative to the FBX, not embedded.
 */
export function writeFbx(model: AvatarModel): Uint8Array {
  const scene = new FbxScene();
  const boneIds = addSkeleton(scene, model);

  const textureIds = new Map(model.textures.map((t) => {
    const texture = scene.add('Texture', t.name, '', textureNode(t));
    const video = scene.add('Video', t.name, 'Clip', videoNode(t));
    scene.connect(video, texture);
    return [t.name, texture] as const;
  }));
  const materialIds = new Map(model.materials.map((m) => {
    const id = scene.add('Material', m.name, '', materialNode(m));
    for (const [slot, property] of TEXTURE_SLOTS) {
      const texture = m[slot];
      const textureId = texture === undefined ? undefined : textureIds.get(texture);
      if (textureId !== undefined) scene.connectProperty(textureId, id, property);
    }
    return [m.name, id] as const;
  }));

  const meshIds: bigint[] = [];
  const channels = model.meshes.map((mesh) => {
    const geometry = scene.add('Geometry', meshNodeName(mesh), 'Mesh', meshGeometry(mesh));
    const meshModel = scene.add('Model', meshNodeName(mesh), 'Mesh', modelNode([0, 0, 0], [0, 0, 0]));
    meshIds.push(meshModel);
    scene.connect(meshModel, SCENE_ROOT);
    scene.connect(geometry, meshModel);
    const material = materialIds.get(mesh.material);
    if (material === undefined) throw new Error(`mesh ${mesh.name} uses unknown material ${mesh.material}`);
    scene.connect(material, meshModel);
    addSkin(scene, model, mesh, geometry, boneIds);
    return addBlendShapes(scene, mesh, geometry);
  });
  addBindPose(scene, model, meshIds, boneIds);
  for (const clip of model.animations) addClip(scene, clip, boneIds, channels);

  const longest = Math.max(0, ...model.animations.map((c) => c.duration));
  return encodeFbx([
    ...preamble(longest),
    definitions(scene.counts()),
    node('Objects', [], scene.objects),
    node('Connections', [], scene.connections),
    takes(model.animations),
  ]);
}
