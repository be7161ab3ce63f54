import type { AvatarModel } from '../../../model/avatar.ts';
import { addClip, takes } from './animation.ts';
import { addBlendShapes, encodeShapes } from './blendshapes.ts';
import { meshNodeName } from '../naming.ts';
import { encodeFbx } from './encode.ts';
import { meshGeometry } from './geometry.ts';
import { modelNode } from './model-node.ts';
import { definitions, preamble } from './header.ts';
import { channelMaps, type ChannelMap } from './channel-maps.ts';
import { materialNode, textureNode, textureSlots, videoNode } from './material.ts';
import { node } from './node.ts';
import { FbxScene, SCENE_ROOT } from './scene.ts';
import { addBindPose, addSkeleton, addSkin } from './skeleton.ts';

/**
 * The avatar as binary FBX 7.4: centimetres, Y up, face along +Z. Textures are referenced by
 * their file name, relative to the FBX, not embedded: the model's, and the grey roughness and
 * metallic maps split from its packed ones (channelMaps; the packages carry them).
 */
export function writeFbx(model: AvatarModel): Uint8Array {
  const scene = new FbxScene();
  const boneIds = addSkeleton(scene, model);

  const maps = channelMaps(model);
  const textureIds = new Map([...model.textures.map((t) => t.name), ...maps.map((m) => m.name)].map((name) => {
    const texture = scene.add('Texture', name, '', textureNode(name));
    const video = scene.add('Video', name, 'Clip', videoNode(name));
    scene.connect(video, texture);
    return [name, texture] as const;
  }));
  const materialIds = new Map(model.materials.map((m) => {
    const id = scene.add('Material', m.name, '', materialNode(m));
    const mapOf = (slot: ChannelMap['slot']) => maps.find((map) => map.material === m.name && map.slot === slot)?.name;
    for (const [texture, property] of textureSlots(m, { roughness: mapOf('roughness'), metallic: mapOf('metallic') })) {
      const textureId = textureIds.get(texture);
      if (textureId === undefined) throw new Error(`material ${m.name} uses unknown texture ${texture}`);
      scene.connectProperty(textureId, id, property);
    }
    return [m.name, id] as const;
  }));

  const shapes = encodeShapes(model.meshes.flatMap((mesh) => mesh.morphs));
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
    return addBlendShapes(scene, mesh, geometry, shapes);
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
