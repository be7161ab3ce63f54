import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildRig } from '../../../src/formats/write/rig-json.ts';
import { OCULUS_FOR_POLLY, visemeMapping } from '../../../src/formats/write/visemes.ts';
import { POLLY_VISEMES } from '../../../src/geometry/expressions/visemes.ts';
import { buildTestAvatar } from '../../fixtures/avatar.ts';

const POLLY = ['sil', 'p', 't', 'S', 'T', 'f', 'k', 'i', 'r', 's', 'u', '@', 'a', 'e', 'E', 'o', 'O'];

test('every Polly viseme value has its own shape and an Oculus viseme of the same mouth', () => {
  assert.deepEqual(Object.keys(OCULUS_FOR_POLLY).sort(), [...POLLY].sort());
  assert.deepEqual(Object.keys(POLLY_VISEMES).sort(), [...POLLY].sort());
  assert.equal(new Set(Object.values(OCULUS_FOR_POLLY)).size, 14); // all but viseme_nn, which Polly folds into t
});

test('the mapping lists only the blendshapes the avatar has', () => {
  const model = buildTestAvatar();
  assert.deepEqual(visemeMapping(model), { a: 'viseme_aa', '@': 'viseme_aa' });
  const head = model.meshes[0];
  const oculus = { ...model, meshes: [{ ...head, morphs: Object.values(OCULUS_FOR_POLLY).map((name) => ({ name, deltas: head.morphs[0].deltas })) }] };
  assert.equal(Object.keys(visemeMapping(oculus)).length, POLLY.length);
  const both = { ...model, meshes: [{ ...head, morphs: [...oculus.meshes[0]!.morphs, ...Object.values(POLLY_VISEMES).map(({ name }) => ({ name, deltas: head.morphs[0].deltas }))] }] };
  const mapping = visemeMapping(both);
  assert.equal(mapping.S, 'polly_sh', 'a value with its own shape uses it');
  assert.equal(mapping['@'], 'polly_schwa');
  assert.equal(Object.keys(mapping).length, POLLY.length);
  const none = { ...model, meshes: model.meshes.map((m) => ({ ...m, morphs: [] })) };
  assert.deepEqual(visemeMapping(none), {});
  assert.deepEqual(buildRig(none, { glb: 'a.glb', fbx: 'a.fbx' }).blendshapes, []);
});

test('the rig lists bones, clips and the meshes of each blendshape', () => {
  const model = buildTestAvatar();
  const teeth = { ...model.meshes[1], name: 'teeth', morphs: [model.meshes[0].morphs[0]] };
  const rig = buildRig({ ...model, meshes: [...model.meshes, teeth] }, { glb: 'a.glb', fbx: 'a.fbx' });
  assert.deepEqual(rig.blendshapes[0], { name: 'jawOpen', meshes: ['head', 'teeth'], range: [0, 1] });
  assert.deepEqual(rig.animations, [{ name: 'idle', duration: 2, loop: true }, { name: 'talk', duration: 1, loop: false }]);
  assert.deepEqual(rig.bones.map((b) => b.parent), model.bones.map((b) => b.parent));
});
