import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import type { Bone, Mesh, MeshPhongMaterial, SkinnedMesh } from 'three';
import { encodeFbx } from '../../../src/formats/write/fbx/encode.ts';
import { findChild, findChildren, int32, node, type FbxNode } from '../../../src/formats/write/fbx/node.ts';
import { readFbx } from '../../../tools/read-fbx.ts';
import { writeFbx } from '../../../src/formats/write/fbx/write.ts';
import { channelMaps, channelMapTextures } from '../../../src/formats/write/fbx/channel-maps.ts';
import { BONE_NAMES, NAMED_MORPHS, buildTestAvatar } from '../../fixtures/avatar.ts';
import { collect, restPoseError, loadFbxWithThree } from '../../helpers/three-loaders.ts';

const model = buildTestAvatar();
const bytes = writeFbx(model);
const doc = readFbx(bytes);
const top = (name: string): FbxNode => {
  const n = doc.nodes.find((x) => x.name === name);
  assert.ok(n, `top-level ${name}`);
  return n;
};
const objects = top('Objects').children;
const ofClass = (kind: string, subclass: string): FbxNode[] => objects.filter((o) => o.name === kind && o.props[2] === subclass);
const shortName = (o: FbxNode): string => String(o.props[1]).split('\x00')[0];
const value = (n: FbxNode | undefined, child: string): unknown => n && findChild(n, child)?.props[0];
const setting = (name: string): unknown =>
  findChildren(findChild(top('GlobalSettings'), 'Properties70')!, 'P').find((p) => p.props[0] === name)?.props[4];

test('every property type survives encode and read, small arrays raw and large ones deflated', () => {
  const large = Float64Array.from({ length: 500 }, (_, k) => k * 0.5);
  const tree = [node('Root', ['text', int32(-7), { type: 'Y', value: 12 }, { type: 'F', value: 1.5 }, 2.25, 1234567890123n, true,
    Uint8Array.of(1, 2, 3), Int32Array.of(1, -2), Float32Array.of(0.5), BigInt64Array.of(5n), large], [node('Empty'), node('Leaf', [int32(1)])])];
  const back = readFbx(encodeFbx(tree));
  assert.deepEqual(back.nodes, tree);
  assert.equal(back.version, 7400);
});

test('header, global settings and footer are those of FBX 7.4 in centimetres, Y up, +Z front', () => {
  assert.equal(doc.version, 7400);
  assert.deepEqual(value(top('FBXHeaderExtension'), 'FBXVersion'), int32(7400));
  assert.deepEqual([setting('UpAxis'), setting('UpAxisSign'), setting('FrontAxis'), setting('FrontAxisSign'), setting('CoordAxis')],
    [int32(1), int32(1), int32(2), int32(1), int32(0)]);
  assert.equal(setting('UnitScaleFactor'), 1);
  // readFbx checks the footer; a truncated file must fail.
  assert.throws(() => readFbx(bytes.subarray(0, bytes.length - 1)));
});

test('definitions count exactly the objects written', () => {
  const defined = new Map(findChildren(top('Definitions'), 'ObjectType').map((t) => [t.props[0], (value(t, 'Count') as { value: number }).value]));
  const actual = new Map<unknown, number>([['GlobalSettings', 1]]);
  for (const o of objects) actual.set(o.name, (actual.get(o.name) ?? 0) + 1);
  assert.deepEqual(defined, actual);
});

test('geometry: vertices, triangles with negated last index, per-corner normals, indexed UVs', () => {
  for (const mesh of model.meshes) {
    const g = ofClass('Geometry', 'Mesh').find((o) => shortName(o) === `${mesh.name}_mesh`)!;
    const vertices = value(g, 'Vertices') as Float64Array;
    const polygons = value(g, 'PolygonVertexIndex') as Int32Array;
    assert.equal(vertices.length, mesh.geometry.positions.length);
    assert.equal(polygons.length, mesh.geometry.indices.length);
    polygons.forEach((p, k) => assert.equal(k % 3 === 2 ? ~p : p, mesh.geometry.indices[k]));
    assert.equal((value(findChild(g, 'LayerElementNormal'), 'Normals') as Float64Array).length, polygons.length * 3);
    assert.equal((value(findChild(g, 'LayerElementUV'), 'UVIndex') as Int32Array).length, polygons.length);
  }
});

test('skeleton, clusters, blendshape channels, textures and clips are all present', () => {
  assert.deepEqual(ofClass('Model', 'LimbNode').map(shortName), BONE_NAMES);
  assert.equal(ofClass('NodeAttribute', 'LimbNode').length, BONE_NAMES.length);
  assert.deepEqual(ofClass('Deformer', 'BlendShapeChannel').map(shortName), NAMED_MORPHS);
  assert.deepEqual(ofClass('Geometry', 'Shape').map(shortName), NAMED_MORPHS);
  assert.deepEqual(objects.filter((o) => o.name === 'Texture').map((t) => value(t, 'RelativeFilename')), [...model.textures.map((t) => t.name), 'skin_roughness.png']);
  assert.deepEqual(objects.filter((o) => o.name === 'AnimationStack').map(shortName), ['idle', 'talk']);
  const pose = objects.find((o) => o.name === 'Pose')!;
  assert.equal(findChildren(pose, 'PoseNode').length, BONE_NAMES.length + model.meshes.length);

  // Cluster weights add up to the skin weights of every vertex of the head.
  const head = model.meshes[0];
  const sums = new Float64Array(head.geometry.positions.length / 3);
  const skinId = ofClass('Deformer', 'Skin').find((o) => shortName(o) === 'head')!.props[0];
  const clusterIds = new Set(top('Connections').children.filter((c) => c.props[2] === skinId).map((c) => c.props[1]));
  for (const cluster of ofClass('Deformer', 'Cluster').filter((c) => clusterIds.has(c.props[0]))) {
    const idx = value(cluster, 'Indexes') as Int32Array | undefined;
    const w = value(cluster, 'Weights') as Float64Array | undefined;
    idx?.forEach((v, k) => { sums[v] += w![k]; });
  }
  sums.forEach((s) => assert.ok(Math.abs(s - 1) < 1e-5));

  // Every connection joins known objects (0 is the scene root).
  const ids = new Set<unknown>([0n, ...objects.map((o) => o.props[0])]);
  for (const c of top('Connections').children) assert.ok(ids.has(c.props[1]) && ids.has(c.props[2]), `connection ${c.props.join(' ')}`);
});

/** The texture file feeding each property of a material, from the OP connections. */
function materialSlots(material: string): Record<string, string> {
  const id = objects.find((o) => o.name === 'Material' && shortName(o) === material)!.props[0];
  const textures = new Map(objects.filter((o) => o.name === 'Texture').map((t) => [t.props[0], value(t, 'RelativeFilename') as string]));
  const links = top('Connections').children.filter((c) => c.props[0] === 'OP' && c.props[2] === id);
  return Object.fromEntries(links.map((c) => [c.props[3] as string, textures.get(c.props[1])!]));
}

const materialProperty = (material: string, name: string): unknown => {
  const m = objects.find((o) => o.name === 'Material' && shortName(o) === material)!;
  return findChildren(findChild(m, 'Properties70')!, 'P').find((p) => p.props[0] === name)?.props[4];
};

test('material slots as Blender wires them: colour, coverage, normal map, roughness; Shininess carries the roughness back', () => {
  assert.deepEqual(materialSlots('skin'), { DiffuseColor: 'head_baseColor.png', NormalMap: 'head_normal.png', ShininessExponent: 'skin_roughness.png' });
  // Hair and lashes: the base colour's alpha is the coverage, connected as transparency too.
  assert.deepEqual(materialSlots('hair'), { DiffuseColor: 'hair_baseColor.png', TransparentColor: 'hair_baseColor.png' });
  assert.deepEqual(materialSlots('eyelashes'), { DiffuseColor: 'eyelashes_baseColor.png', TransparentColor: 'eyelashes_baseColor.png' });
  assert.deepEqual(materialSlots('eye'), {});
  // Blender reads roughness back as 1 - sqrt(Shininess) / 10.
  for (const m of model.materials) assert.ok(Math.abs(1 - Math.sqrt(materialProperty(m.name, 'Shininess') as number) / 10 - m.roughness) < 1e-9, m.name);
});

test('a metallic material gets a metallic map; roughness and metallic maps are the packed channels times their factors', async () => {
  const metal = { ...model, materials: model.materials.map((m) => (m.name === 'skin' ? { ...m, roughness: 0.5, metallic: 0.5 } : m)) };
  assert.deepEqual(channelMaps(metal).map((m) => [m.name, m.channel, m.factor]), [['skin_roughness.png', 'green', 0.5], ['skin_metallic.png', 'blue', 0.5]]);
  const fbx = readFbx(writeFbx(metal));
  const textures = fbx.nodes.find((n) => n.name === 'Objects')!.children.filter((o) => o.name === 'Texture').map((t) => value(t, 'RelativeFilename'));
  assert.ok(textures.includes('skin_metallic.png'));
  const [roughness, metallic] = await channelMapTextures(metal);
  const packed = await sharp(model.textures.find((t) => t.name === 'head_occlusionRoughnessMetallic.png')!.data).raw().toBuffer({ resolveWithObject: true });
  assert.equal((await sharp(roughness.data).metadata()).channels, 1);
  const grey = await sharp(roughness.data).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([grey.info.width, grey.info.height], [packed.info.width, packed.info.height]);
  for (let i = 0; i < grey.data.length; i += 97) assert.ok(Math.abs(grey.data[i] - packed.data[i * 3 + 1] * 0.5) <= 1, `texel ${i}`);
  assert.equal((await sharp(metallic.data).stats()).channels[0].max, 0);
  // A derived map never replaces a texture of the model.
  assert.throws(() => channelMaps({ ...metal, textures: [...metal.textures, { ...metal.textures[0], name: 'skin_roughness.png' }] }), /would replace/);
});

test('grey maps are encoded once per packed source array, channel and factor; the same bytes as encoded anew', async () => {
  const metal = { ...model, materials: model.materials.map((m) => (m.name === 'skin' ? { ...m, roughness: 0.5, metallic: 0.5 } : m)) };
  const [first, again] = [await channelMapTextures(metal), await channelMapTextures(metal)];
  first.forEach((map, k) => assert.equal(again[k].data, map.data, `${map.name} kept`));
  // A copy of the packed texture (another avatar's) is encoded anew, to the same bytes.
  const copied = { ...metal, textures: metal.textures.map((t) => ({ ...t, data: t.data.slice() })) };
  const fresh = await channelMapTextures(copied);
  fresh.forEach((map, k) => {
    assert.notEqual(map.data, first[k].data);
    assert.deepEqual(map.data, first[k].data);
  });
  // Another factor is another map.
  const rougher = { ...metal, materials: metal.materials.map((m) => (m.name === 'skin' ? { ...m, roughness: 0.25 } : m)) };
  const [roughness] = await channelMapTextures(rougher);
  assert.notDeepEqual(roughness.data, first[0].data);
});

test("three's FBXLoader reads meshes, skin, morph names, textures and clips", async () => {
  const scene = await loadFbxWithThree(bytes);
  const meshes = collect(scene, (o): o is SkinnedMesh => (o as Mesh).isMesh === true);
  assert.deepEqual(meshes.map((m) => m.name), model.meshes.map((m) => `${m.name}_mesh`));
  meshes.forEach((m, k) => {
    assert.equal(m.geometry.attributes.position.count, model.meshes[k].geometry.indices.length);
    assert.equal(m.skeleton.bones.length, BONE_NAMES.length);
  });
  assert.deepEqual(Object.keys(meshes[0].morphTargetDictionary!), NAMED_MORPHS);
  // Bones at rest reproduce the bind matrices the skin was bound with.
  assert.ok(restPoseError(scene) < 1e-9);
  const skin = meshes[0].material as MeshPhongMaterial;
  assert.equal(skin.map?.name, 'head_baseColor.png');
  assert.equal(skin.normalMap?.name, 'head_normal.png');
  // Transparency connected: three reads it as an alpha map and blends (its FBX path reads the map's green, not its alpha: use the GLB).
  const hair = meshes[3].material as MeshPhongMaterial;
  assert.deepEqual([hair.map?.name, hair.alphaMap?.name, hair.transparent], ['hair_baseColor.png', 'hair_baseColor.png', true]);
  assert.deepEqual(new Set(collect(scene, (o): o is Bone => (o as Bone).isBone === true).map((b) => b.name)), new Set(BONE_NAMES));
  assert.deepEqual(scene.animations.map((a) => a.name), ['idle', 'talk']);
  assert.ok(scene.animations[1].tracks.some((t) => t.name === 'head_mesh.morphTargetInfluences[2]'));
  // Euler curves come back as the clip's quaternions (up to sign).
  model.animations.forEach((clip, c) => {
    for (const track of clip.boneTracks) {
      const got = scene.animations[c].tracks.find((t) => t.name === `${BONE_NAMES[track.bone]}.quaternion`)!;
      assert.deepEqual(Array.from(got.times), Array.from(track.times));
      for (let k = 0; k < track.times.length; k++) {
        const [a, b] = [got.values.subarray(k * 4, k * 4 + 4), track.rotations.subarray(k * 4, k * 4 + 4)];
        const dot = a.reduce((s, x, i) => s + x * b[i], 0);
        assert.ok(Math.abs(Math.abs(dot) - 1) < 1e-5, `${clip.name} ${BONE_NAMES[track.bone]} key ${k}`);
      }
    }
  });
});
