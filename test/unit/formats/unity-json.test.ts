import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildUnityModel, writeUnityJson, type UnityModel, type UnityNode } from '../../../src/formats/write/unity-json.ts';
import type { AvatarModel } from '../../../src/model/avatar.ts';
import { validateUnityModel } from '../../helpers/unity-schema.ts';
import { BONE_NAMES, NAMED_MORPHS, buildTestAvatar } from '../../fixtures/avatar.ts';

const model = buildTestAvatar();
const json = JSON.parse(new TextDecoder().decode(writeUnityJson(model))) as UnityModel;

test('the Unity JSON\'s bytes are JSON.stringify of its model, digit for digit, for any number the model may hold', () => {
  const same = (m: AvatarModel, label: string) =>
    assert.ok(Buffer.from(writeUnityJson(m)).equals(Buffer.from(JSON.stringify(buildUnityModel(m)), 'utf8')), label);
  same(model, 'the test avatar');
  // A head whose vertices, normals, deltas and weights take the edge values: -0, values that round to 0 (or to
  // -0), the smallest kept decimals, large centimetre values, and values that are not finite.
  const edges = [-0, 0.4e-6, -0.4e-6, -0.00004, 1e-6, -1e-5, 0.123456789, 99999.99995, -123456.78905, 3e8, 3e10, 1e21, NaN, Infinity, -Infinity];
  const fill = (a: Float32Array) => a.map((_, k) => edges[k % edges.length] * (k % 3 === 2 ? -1 : 1));
  const [head, ...rest] = model.meshes;
  const edgy: AvatarModel = {
    ...model,
    meshes: [{
      ...head,
      geometry: { ...head.geometry, positions: fill(head.geometry.positions), normals: fill(head.geometry.normals), uvs: fill(head.geometry.uvs) },
      skin: { ...head.skin, weights: fill(head.skin.weights) },
      morphs: head.morphs.map((t) => ({ name: t.name, deltas: fill(t.deltas.map(() => 1)) })),
    }, ...rest],
  };
  same(edgy, 'edge values');
});

test('the Unity JSON validates against its schema, and the schema rejects a broken one', () => {
  assert.ok(validateUnityModel(json), JSON.stringify(validateUnityModel.errors));
  assert.equal(validateUnityModel({ ...json, version: 1 }), false);
  const noFaces = { ...json, meshes: [{ ...json.meshes[0], faces: undefined }] };
  assert.equal(validateUnityModel(JSON.parse(JSON.stringify(noFaces))), false);
});

test('the material state carries every map, the alpha mode with its cutoff and the double-sided flag', () => {
  const byName = new Map(json.material_state.materials.map((m) => [m.name, m]));
  assert.deepEqual(byName.get('skin'), {
    name: 'skin', color: [1, 1, 1, 1], roughness: 1, metallic: 0, alpha_mode: 'OPAQUE', double_sided: false,
    textures: {
      baseColor: 'head_baseColor.png', normal: 'head_normal.png',
      occlusion: 'head_occlusionRoughnessMetallic.png', metallicRoughness: 'head_occlusionRoughnessMetallic.png',
    },
    meshes: ['head'],
  });
  assert.deepEqual(byName.get('hair'), {
    name: 'hair', color: [1, 1, 1, 1], roughness: 0.5, metallic: 0, alpha_mode: 'BLEND', double_sided: true,
    textures: { baseColor: 'hair_baseColor.png' }, meshes: ['hair'],
  });
  const lashes = byName.get('eyelashes')!;
  assert.deepEqual([lashes.alpha_mode, lashes.alpha_cutoff, lashes.double_sided], ['MASK', 0.4, true]);
  // A MASK material without a cutoff gets glTF's 0.5.
  const plain = buildUnityModel({ ...model, materials: model.materials.map((m) => ({ ...m, alphaCutoff: undefined })) });
  assert.equal(plain.material_state.materials.find((m) => m.name === 'eyelashes')!.alpha_cutoff, 0.5);
  // The schema wants the cutoff exactly on MASK materials.
  const state = (edit: (m: UnityModel['material_state']['materials'][number]) => object) =>
    JSON.parse(JSON.stringify({ ...json, material_state: { materials: json.material_state.materials.map(edit) } }));
  assert.equal(validateUnityModel(state((m) => ({ ...m, alpha_cutoff: undefined }))), false);
  assert.equal(validateUnityModel(state((m) => ({ ...m, alpha_cutoff: 0.5 }))), false);
  assert.equal(validateUnityModel(state((m) => ({ ...m, double_sided: undefined }))), false);
});

test('arrays have consistent lengths and refer to existing bones and vertices', () => {
  assert.equal(json.version, 2);
  assert.equal(json.unitsPerMeter, 100);
  for (const [k, m] of json.meshes.entries()) {
    const n = model.meshes[k].geometry.positions.length / 3;
    assert.deepEqual([m.vertices.length, m.normals.length, m.uvs.length, m.skin_indices.length, m.skin_weights.length], [n * 3, n * 3, n * 2, n * 4, n * 4]);
    assert.equal(m.faces.length % 3, 0);
    assert.ok(m.faces.every((f) => f < n));
    assert.ok(m.skin_indices.every((b) => b < BONE_NAMES.length));
    for (const b of m.blendshapes) assert.equal(b.deltas.length, b.indices.length * 3);
  }
  assert.deepEqual(json.meshes[0].blendshapes.map((b) => b.name), NAMED_MORPHS);
  assert.deepEqual(json.bones.map((b) => b.name), BONE_NAMES);
});

test('root_node holds the bone hierarchy and one node per mesh; constraints follow the rig', () => {
  const unity = buildUnityModel(model);
  const names: string[] = [];
  const walk = (n: UnityNode): void => { names.push(n.name); n.children.forEach(walk); };
  walk(unity.root_node);
  assert.deepEqual(names, ['fixture', 'root', 'neck', 'head', 'jaw', 'eyeLeft', 'eyeRight', 'head_mesh', 'eyeLeft_mesh', 'eyeRight_mesh', 'hair_mesh', 'eyelashes_mesh']);
  assert.deepEqual(unity.constraints.filter((c) => c.type === 'parent'), [
    { type: 'parent', node: 'eyeLeft_mesh', target: 'eyeLeft' },
    { type: 'parent', node: 'eyeRight_mesh', target: 'eyeRight' },
    { type: 'parent', node: 'hair_mesh', target: 'head' },
    { type: 'parent', node: 'eyelashes_mesh', target: 'head' },
  ]);
  // The eye bones sit under a neck tilted by 8° and a head tilted back by 8°: at rest they aim along +Z.
  const aim = unity.constraints.find((c) => c.type === 'aim' && c.bone === 'eyeLeft');
  assert.deepEqual(aim && aim.type === 'aim' ? aim.aim_axis.map((x) => Math.round(x * 1000) / 1000) : null, [0, 0, 1]);
});
