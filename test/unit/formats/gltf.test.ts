import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DoubleSide, FrontSide, type Bone, type Mesh, type MeshStandardMaterial, type SkinnedMesh } from 'three';
import { validateBytes } from 'gltf-validator';
import { sampleTrack, writeGlb, writeGlbParts } from '../../../src/formats/write/gltf.ts';
import { BONE_NAMES, NAMED_MORPHS, buildTestAvatar } from '../../fixtures/avatar.ts';
import { collect, restPoseError, loadGlbWithThree } from '../../helpers/three-loaders.ts';

const model = buildTestAvatar();
const glb = await writeGlb(model);

test('gltf-validator reports no error and no warning on the GLB alone: its textures are embedded', async () => {
  const report = await validateBytes(glb, { maxIssues: 50, externalResourceFunction: (uri) => Promise.reject(new Error(`the GLB asked for ${uri}`)) });
  const bad = report.issues.messages.filter((m) => m.severity <= 1);
  assert.deepEqual(bad, []);
  assert.equal(report.issues.numErrors, 0);
  assert.equal(report.issues.numWarnings, 0);
  // Every texture is read from the GLB itself, as the PNG it is.
  assert.deepEqual(report.info.resources.filter((r) => r.pointer.startsWith('/images/')).map((r) => [r.storage, r.mimeType, r.image?.width]),
    model.textures.map((t) => ['buffer-view', 'image/png', t.width]));
});

test("three's GLTFLoader reads skinned meshes in metres, morph names, textures, bones and clips", async () => {
  const { scene, animations } = await loadGlbWithThree(glb);
  const meshes = collect(scene, (o): o is SkinnedMesh => (o as Mesh).isMesh === true);
  assert.deepEqual(meshes.map((m) => m.name), model.meshes.map((m) => `${m.name}_mesh`));
  meshes.forEach((m, k) => {
    assert.equal(m.geometry.attributes.position.count, model.meshes[k].geometry.positions.length / 3);
    assert.equal(m.skeleton.bones.length, BONE_NAMES.length);
  });
  assert.deepEqual(Object.keys(meshes[0].morphTargetDictionary!), NAMED_MORPHS);
  // Bones at rest reproduce the bind matrices the skin was bound with.
  assert.ok(restPoseError(scene) < 1e-6);
  // Sparse targets expand to every morph's deltas, in metres.
  model.meshes[0].morphs.forEach((morph, k) => {
    const got = meshes[0].geometry.morphAttributes.position![k].array;
    assert.equal(got.length, morph.deltas.length);
    got.forEach((x, i) => assert.ok(Math.abs(x - morph.deltas[i] * 0.01) < 1e-7, `${morph.name}[${i}]`));
  });
  // Centimetres become metres: the 9 cm head radius is 0.09.
  meshes[0].geometry.computeBoundingBox();
  assert.ok(Math.abs(meshes[0].geometry.boundingBox!.max.x - 0.09) < 1e-4);
  // v is flipped for glTF's top-left UV origin.
  assert.ok(Math.abs(meshes[0].geometry.attributes.uv.getY(0) - (1 - model.meshes[0].geometry.uvs[1])) < 1e-6);
  const skin = meshes[0].material as MeshStandardMaterial;
  assert.equal(skin.map?.name, 'head_baseColor.png');
  assert.equal(skin.normalMap?.name, 'head_normal.png');
  assert.equal(skin.aoMap?.name, 'head_occlusionRoughnessMetallic.png');
  assert.equal(skin.roughnessMap?.name, 'head_occlusionRoughnessMetallic.png');
  assert.equal(skin.metalnessMap?.name, 'head_occlusionRoughnessMetallic.png');
  assert.deepEqual([skin.transparent, skin.alphaTest, skin.side], [false, 0, FrontSide]);
  // Hair blends and lashes cut out at their cutoff; both are drawn from both sides.
  const hair = meshes[3].material as MeshStandardMaterial;
  assert.equal(hair.map?.name, 'hair_baseColor.png');
  assert.deepEqual([hair.transparent, hair.depthWrite, hair.alphaTest, hair.side], [true, false, 0, DoubleSide]);
  const lashes = meshes[4].material as MeshStandardMaterial;
  assert.deepEqual([lashes.transparent, lashes.alphaTest, lashes.side], [false, 0.4, DoubleSide]);
  assert.deepEqual(collect(scene, (o): o is Bone => (o as Bone).isBone === true).map((b) => b.name), BONE_NAMES);
  assert.deepEqual(animations.map((a) => a.name), ['idle', 'talk']);
});

test("the GLB's tangent frame puts the normal map's green towards +v: up the front of the head", async () => {
  const { scene } = await loadGlbWithThree(glb);
  const head = collect(scene, (o): o is SkinnedMesh => o.name === 'head_mesh')[0];
  const { normal, tangent } = head.geometry.attributes;
  // The vertex facing +z most squarely: there u runs along +x and v (up in the texture) along +y.
  let front = 0;
  for (let v = 0; v < normal.count; v++) if (normal.getZ(v) > normal.getZ(front)) front = v;
  const [nx, nz] = [normal.getX(front), normal.getZ(front)];
  const [tx, ty, tz, w] = [tangent.getX(front), tangent.getY(front), tangent.getZ(front), tangent.getW(front)];
  assert.ok(tx > 0.99, `tangent along +x: ${tx}`);
  // three (and glTF) rebuild the bitangent as w * cross(normal, tangent).
  const by = w * (nz * tx - nx * tz);
  assert.ok(by > 0.99, `bitangent along +y: ${by} (ty ${ty})`);
});

test('morph tracks are sampled linearly and clamped at the ends', () => {
  const track = { morph: 'm', times: Float32Array.of(0, 1), weights: Float32Array.of(0, 0.5) };
  assert.equal(sampleTrack(track, 0.5), 0.25);
  assert.equal(sampleTrack(track, 2), 0.5);
  assert.equal(sampleTrack(track, -1), 0);
});

test('the GLB as its parts is the GLB: the parts joined, the binary chunk padded to 4 bytes', async () => {
  const parts = await writeGlbParts(model);
  assert.ok(parts.length > 2);
  assert.ok(Buffer.concat(parts).equals(glb));
  assert.equal(glb.length % 4, 0);
});
