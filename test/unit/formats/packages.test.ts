import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
import { validateBytes } from 'gltf-validator';
import { readFbx } from '../../../tools/read-fbx.ts';
import { buildBlendshapeZip, buildPackage, buildPackages, NEUTRAL_HAIR_OBJ, PACKAGE_FILES, modelFileClaims, startPackages, writeModelFiles, type ModelFiles } from '../../../src/formats/write/packages.ts';
import type { RigJson } from '../../../src/formats/write/rig-json.ts';
import { writeObj } from '../../../src/formats/write/obj-write.ts';
import { crcOfParts, preparedEntry, preparedEntryOffThread, writeZip } from '../../../src/formats/write/zip-write.ts';
import { NAMED_MORPHS, buildTestAvatar } from '../../fixtures/avatar.ts';
import { testViews } from '../../fixtures/views.ts';
import { validateUnityModel } from '../../helpers/unity-schema.ts';

const model = buildTestAvatar();
const neutral = writeObj(model.meshes[0].geometry, { name: 'template' });
const views = testViews();
const extras = { templateNeutralObj: neutral, views };
/** The views every package carries beside the model. */
const viewNames = Object.values(PACKAGE_FILES.views);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const textureNames = model.textures.map((t) => t.name);
/** The grey map the FBX takes roughness from (its own file: the model packs roughness into a channel). */
const fbxMaps = ['skin_roughness.png'];

test('maya: FBX, its textures, material state and the template neutral mesh', async () => {
  const files = unzipSync(await buildPackage(model, 'maya', extras));
  assert.deepEqual(Object.keys(files).sort(), [PACKAGE_FILES.fbx, ...fbxMaps, ...viewNames, ...textureNames, PACKAGE_FILES.materialState, PACKAGE_FILES.templateNeutral].sort());
  assert.equal(readFbx(files[PACKAGE_FILES.fbx]).version, 7400);
  model.textures.forEach((t) => assert.ok(Buffer.from(files[t.name]).equals(t.data)));
  assert.deepEqual(files[PACKAGE_FILES.templateNeutral], neutral);
  const state = JSON.parse(text(files[PACKAGE_FILES.materialState]));
  assert.deepEqual(state.materials[0].textures, {
    baseColor: 'head_baseColor.png', normal: 'head_normal.png',
    occlusion: 'head_occlusionRoughnessMetallic.png', metallicRoughness: 'head_occlusionRoughnessMetallic.png',
  });
});

test('webviewer: FBX, rig JSON with viseme mapping, a valid GLB and all textures', async () => {
  const files = unzipSync(await buildPackage(model, 'webviewer', extras));
  assert.deepEqual(Object.keys(files).sort(), [PACKAGE_FILES.fbx, ...fbxMaps, PACKAGE_FILES.rig, PACKAGE_FILES.glb, ...viewNames, ...textureNames].sort());
  const rig = JSON.parse(text(files[PACKAGE_FILES.rig])) as RigJson;
  assert.deepEqual(rig.blendshapes.map((b) => b.name), NAMED_MORPHS);
  assert.deepEqual(rig.blendshapes[0], { name: 'jawOpen', meshes: ['head'], range: [0, 1] });
  assert.deepEqual(rig.visemes, { a: 'viseme_aa', '@': 'viseme_aa' });
  assert.equal(rig.bones.length, model.bones.length);
  // The GLB stands alone (its textures embedded); the loose PNGs are the FBX's.
  const report = await validateBytes(files[PACKAGE_FILES.glb], { externalResourceFunction: (uri) => Promise.reject(new Error(uri)) });
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0);
});

test('unity: the JSON model (schema-valid) and all textures', async () => {
  const files = unzipSync(await buildPackage(model, 'unity', extras));
  assert.deepEqual(Object.keys(files).sort(), [PACKAGE_FILES.unityJson, ...viewNames, ...textureNames].sort());
  assert.ok(validateUnityModel(JSON.parse(text(files[PACKAGE_FILES.unityJson]))), JSON.stringify(validateUnityModel.errors));
});

test('every package carries the front, three-quarter and side views as given', async () => {
  for (const [platform, zip] of await buildPackages(model, ['maya', 'webviewer', 'unity'], extras)) {
    const files = unzipSync(zip);
    for (const [view, name] of Object.entries(PACKAGE_FILES.views)) assert.ok(Buffer.from(files[name]).equals(views[view as keyof typeof views]), `${platform} ${view}`);
  }
});

test('packages are byte-identical when built twice (they are cached per avatar)', async () => {
  const a = await buildPackage(model, 'webviewer', extras);
  const b = await buildPackage(model, 'webviewer', extras);
  assert.deepEqual(a, b);
});

test('arrays written once per template (FBX UVs, triangles and skin clusters, the neutral OBJ) give the bytes written anew', async () => {
  const platforms = ['maya', 'webviewer', 'unity'] as const;
  // A second avatar of the same template: the template's arrays shared, its own positions and normals.
  const other = {
    ...model,
    meshes: model.meshes.map((m) => ({
      ...m,
      geometry: { ...m.geometry, positions: m.geometry.positions.map((v, k) => v + (k % 7) * 0.01), normals: m.geometry.normals.map((v) => -v) },
    })),
  };
  for (const avatar of [model, other, model, other]) {
    const shared = await buildPackages(avatar, platforms, extras);
    // Nothing shared: every array (the neutral OBJ's too) a fresh copy, written from scratch.
    const fresh = await buildPackages(structuredClone(avatar), platforms, { ...extras, templateNeutralObj: neutral.slice() });
    for (const p of platforms) assert.ok(Buffer.from(shared.get(p)!).equals(fresh.get(p)!), p);
  }
});

test('packages from model files written ahead (as the pipeline\'s helper thread does) are the packages written in one go', async () => {
  const platforms = ['maya', 'webviewer', 'unity'] as const;
  const whole = await buildPackages(model, platforms, extras);
  const ahead = await buildPackages(model, platforms, { ...extras, modelFiles: Promise.resolve(writeModelFiles(model, platforms)) });
  // Written ahead for fewer platforms: the rest is written here.
  const part = await buildPackages(model, platforms, { ...extras, modelFiles: writeModelFiles(model, ['unity']) });
  // Shared by claims: the other writer took the Unity JSON, the FBX is left to this one.
  const claims = modelFileClaims();
  const other = writeModelFiles(model, platforms.filter((p) => p === 'unity'), claims);
  const shared = await buildPackages(model, platforms, { ...extras, modelFiles: Promise.resolve(other), modelFileClaims: claims });
  assert.deepEqual([...claims], [1, 1], 'both files taken');
  for (const p of platforms) {
    assert.ok(Buffer.from(ahead.get(p)!).equals(whole.get(p)!), p);
    assert.ok(Buffer.from(part.get(p)!).equals(whole.get(p)!), p);
    assert.ok(Buffer.from(shared.get(p)!).equals(whole.get(p)!), p);
  }
});

test('this thread takes the model files the other writer has not, once its GLB is written: same packages', async () => {
  const platforms = ['maya', 'webviewer', 'unity'] as const;
  const whole = await buildPackages(model, platforms, extras);
  // Nothing taken yet: the other writer, asked later, finds both taken.
  const claims = modelFileClaims();
  let other: ModelFiles | undefined;
  const later = new Promise<ModelFiles>((resolve) => setImmediate(() => resolve((other = writeModelFiles(model, platforms, claims)))));
  const here = await buildPackages(model, platforms, { ...extras, modelFiles: later, modelFileClaims: claims });
  assert.deepEqual([...claims], [1, 1]);
  assert.deepEqual(other, {}, 'the other writer had nothing left');
  // The FBX already taken by the other writer: only the Unity JSON is written here.
  const fbxTaken = modelFileClaims();
  const fbxElsewhere = writeModelFiles(model, ['maya'], fbxTaken);
  const split = await buildPackages(model, platforms, { ...extras, modelFiles: Promise.resolve(fbxElsewhere), modelFileClaims: fbxTaken });
  for (const p of platforms) {
    assert.ok(Buffer.from(here.get(p)!).equals(whole.get(p)!), p);
    assert.ok(Buffer.from(split.get(p)!).equals(whole.get(p)!), p);
  }
});

test('startPackages settles each package when made: the Unity package while the FBX is still being written elsewhere', async () => {
  const claims = modelFileClaims();
  const fbx = writeModelFiles(model, ['maya'], claims); // the other writer took the FBX
  let give!: (files: ModelFiles) => void;
  const started = startPackages(model, ['maya', 'webviewer', 'unity'], { ...extras, modelFiles: new Promise((resolve) => (give = resolve)), modelFileClaims: claims });
  const settled: string[] = [];
  for (const [p, zip] of started) void zip.then(() => settled.push(p));
  const unity = await started.get('unity')!;
  assert.deepEqual(settled, ['unity']);
  give(fbx);
  const all = await buildPackages(model, ['maya', 'webviewer', 'unity'], extras);
  for (const [p, zip] of started) assert.ok(Buffer.concat(await zip).equals(all.get(p)!), p);
  assert.ok(Buffer.concat(unity).equals(all.get('unity')!));
});

test('an entry deflated on the thread pool is the entry deflated here (text in one pass, noise in several)', async () => {
  const text = new TextEncoder().encode(JSON.stringify(Array.from({ length: 50_000 }, (_, k) => Math.sin(k))));
  const noise = Uint8Array.from({ length: 300_000 }, (_, k) => (k * 2654435761) >>> 24);
  for (const [name, data] of [['a.json', text], ['b.png', text], ['c.bin', noise]] as const) {
    const [here, pool] = [preparedEntry(name, data), await preparedEntryOffThread(name, data)];
    assert.equal(pool.crc, here.crc);
    assert.ok(Buffer.from(pool.body).equals(here.body), name);
  }
});

test('blendshape zip: neutral (and the neutral hair) plus one OBJ per head blendshape, same topology, shapes moved by their deltas', () => {
  const files = unzipSync(buildBlendshapeZip(model));
  assert.deepEqual(Object.keys(files), ['neutral.obj', NEUTRAL_HAIR_OBJ, ...NAMED_MORPHS.map((n) => `${n}.obj`)]);
  const hair = model.meshes.find((m) => m.name === 'hair')!;
  assert.equal(text(files[NEUTRAL_HAIR_OBJ]).split('\n').filter((l) => l.startsWith('v ')).length, hair.geometry.positions.length / 3);
  assert.deepEqual(Object.keys(unzipSync(buildBlendshapeZip({ ...model, meshes: model.meshes.filter((m) => m !== hair) }))), ['neutral.obj', ...NAMED_MORPHS.map((n) => `${n}.obj`)]);
  const vertices = (name: string): number[][] =>
    text(files[name]).split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number));
  const faces = (name: string): string[] => text(files[name]).split('\n').filter((l) => l.startsWith('f '));
  const base = vertices('neutral.obj');
  const jaw = vertices('jawOpen.obj');
  const head = model.meshes[0];
  assert.equal(base.length, head.geometry.positions.length / 3);
  assert.deepEqual(faces('jawOpen.obj'), faces('neutral.obj'));
  let moved = 0;
  jaw.forEach((p, v) => {
    for (let a = 0; a < 3; a++) assert.ok(Math.abs(p[a] - base[v][a] - head.morphs[0].deltas[v * 3 + a]) < 1e-4);
    if (p[1] !== base[v][1]) moved++;
  });
  assert.ok(moved > 0);
  assert.throws(() => buildBlendshapeZip({ ...model, meshes: model.meshes.slice(1) }));
});

test('OBJ writer: 1-based faces, with normals as v/vt/vn and without as v/vt', () => {
  const mesh = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), uvs: Float32Array.of(0, 0, 1, 0, 0, 1), indices: Uint32Array.of(0, 1, 2) };
  const plain = text(writeObj(mesh, { name: 'tri' })).split('\n');
  assert.ok(plain.includes('o tri') && plain.includes('v 1 0 0') && plain.includes('vt 0 1') && plain.includes('f 1/1 2/2 3/3'));
  const lit = text(writeObj({ ...mesh, normals: Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1) }, { name: 'tri' })).split('\n');
  assert.ok(lit.includes('vn 0 0 1') && lit.includes('f 1/1/1 2/2/2 3/3/3'));
});

test('buildPackages makes each asked platform, sharing one FBX between maya and webviewer', async () => {
  const all = await buildPackages(model, ['maya', 'webviewer', 'unity'], extras);
  assert.deepEqual([...all.keys()], ['maya', 'webviewer', 'unity']);
  const fbx = [unzipSync(all.get('maya')!)[PACKAGE_FILES.fbx], unzipSync(all.get('webviewer')!)[PACKAGE_FILES.fbx]];
  assert.ok(Buffer.from(fbx[0]).equals(fbx[1]));
  assert.ok(Buffer.from(all.get('unity')!).equals(await buildPackage(model, 'unity', extras)));
});

test('zip writer: deflated and stored entries read back by fflate; duplicate names refused', () => {
  const data = new TextEncoder().encode('blendshape '.repeat(100));
  const files = unzipSync(writeZip([{ name: 'a.json', data }, { name: 'b.png', data: Uint8Array.of(1, 2, 3) }]));
  assert.deepEqual([...files['a.json']], [...data]);
  assert.deepEqual([...files['b.png']], [1, 2, 3]);
  assert.throws(() => writeZip([{ name: 'a', data }, { name: 'a', data }]));
});

test('zip writer: a stored entry given as its parts is the archive of the parts joined; parts of a deflated type refused', () => {
  const parts = [Uint8Array.of(1, 2, 3), new Uint8Array(0), Uint8Array.from({ length: 1000 }, (_, k) => k * 7)];
  const joined = Buffer.concat(parts);
  const other = { name: 'a.json', data: new TextEncoder().encode('{"a":1}') };
  const whole = writeZip([other, { name: 'm.glb', data: joined }, { name: 'n.png', data: joined }]);
  assert.equal(crcOfParts(parts), crc32(joined));
  assert.ok(Buffer.from(writeZip([other, { name: 'm.glb', parts }, { name: 'n.png', parts, crc: crcOfParts(parts) }])).equals(whole));
  assert.throws(() => writeZip([{ name: 'a.json', parts }]), /parts/);
});
