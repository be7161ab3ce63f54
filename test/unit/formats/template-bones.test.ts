import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Bone, SkinnedMesh } from 'three';
import type { AvatarModel } from '../../../src/model/avatar.ts';
import { writeFbx } from '../../../src/formats/write/fbx/write.ts';
import { writeGlb } from '../../../src/formats/write/gltf.ts';
import { buildUnityModel } from '../../../src/formats/write/unity-json.ts';
import { buildRig } from '../../../src/formats/write/rig-json.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { BONE, PART_NAMES } from '../../../src/geometry/template/types.ts';
import { collect, loadFbxWithThree, loadGlbWithThree } from '../../helpers/three-loaders.ts';

/** The neutral 1.6 template as an avatar: its meshes, skins and skeleton, untextured. */
function templateAvatar(): AvatarModel {
  const tpl = buildTemplate('1.6');
  const names = ['head', ...PART_NAMES] as const;
  return {
    name: 'template',
    template: '1.6',
    meshes: names.map((name) => ({ name, geometry: name === 'head' ? tpl.head : tpl.parts[name], material: name, skin: tpl.skins[name], morphs: [] })),
    bones: tpl.bones,
    materials: names.map((name) => ({ name, baseColorFactor: [1, 1, 1, 1], roughness: 0.6, metallic: 0, alphaMode: 'OPAQUE' })),
    textures: [],
    animations: [],
  };
}

const model = templateAvatar();
const names = model.bones.map((b) => b.name);

test('the template skeleton runs root, spine, chest, neck, head and the bust is skinned to the spine and chest', () => {
  assert.deepEqual(names, ['root', 'spine', 'chest', 'neck', 'head', 'jaw', 'eyeLeft', 'eyeRight', 'tongue']);
  assert.deepEqual(model.bones.slice(1, 5).map((b) => names[b.parent]), ['root', 'spine', 'chest', 'neck']);
  const skin = buildTemplate('1.6').skins.head;
  const used = new Set<number>();
  skin.joints.forEach((j, k) => skin.weights[k] > 0 && used.add(j));
  for (const bone of [BONE.spine, BONE.chest, BONE.neck, BONE.head, BONE.jaw]) assert.ok(used.has(bone), names[bone]);
});

test('FBX, GLB, Unity JSON and the rig JSON carry the new bones', async () => {
  const fbx = await loadFbxWithThree(writeFbx(model));
  assert.deepEqual(new Set(collect(fbx, (o): o is Bone => (o as Bone).isBone === true).map((b) => b.name)), new Set(names));
  const glb = await loadGlbWithThree(await writeGlb(model));
  assert.deepEqual(new Set(collect(glb.scene, (o): o is Bone => (o as Bone).isBone === true).map((b) => b.name)), new Set(names));
  const head = collect(glb.scene, (o): o is SkinnedMesh => (o as SkinnedMesh).isSkinnedMesh === true)[0];
  assert.equal(head.skeleton.bones.length, names.length);
  assert.deepEqual(buildUnityModel(model).bones.map((b) => b.name), names);
  assert.deepEqual(buildRig(model, { glb: 'avatar.glb', fbx: 'avatar.fbx' }).bones.map((b) => b.name), names);
});
