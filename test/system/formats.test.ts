import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { readFbx } from '../../tools/read-fbx.ts';
import { writeFbx } from '../../src/formats/write/fbx/write.ts';
import { writeObj } from '../../src/formats/write/obj-write.ts';
import type { AvatarModel, Material } from '../../src/model/avatar.ts';
import { channelMaps } from '../../src/formats/write/fbx/channel-maps.ts';
import { buildPackages, PACKAGE_FILES } from '../../src/formats/write/packages.ts';
import { NAMED_MORPHS, buildTestAvatar } from '../fixtures/avatar.ts';
import { testViews } from '../fixtures/views.ts';

/**
 * The packages in the real tools: Blender (Debian `blender`, installed with
 * `--no-install-recommends` together with `python3-numpy`) imports each FBX, and assimp
 * (Debian `assimp-utils`) reads each FBX and GLB.
 */
const run = promisify(execFile);
const has = (tool: string, flag: string): boolean => spawnSync(tool, [flag], { stdio: 'ignore' }).status === 0;
const noBlender = has('blender', '--version') ? false : 'formats system test skipped: blender missing (apt-get install --no-install-recommends blender python3-numpy)';
const noAssimp = has('assimp', 'version') ? false : 'formats system test skipped: assimp missing (apt-get install assimp-utils)';
for (const why of [noBlender, noAssimp]) if (why) console.log(`# ${why}`);

const dir = mkdtempSync(join(tmpdir(), 'formats-system-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a file in a folder of its own. */
function alone(file: string): string {
  const folder = mkdtempSync(join(dir, 'alone-'));
  copyFileSync(file, join(folder, basename(file)));
  return join(folder, basename(file));
}

/** Each package unpacked into its own folder, as a user would. */
async function unpack(model: AvatarModel, name: string, templateNeutralObj: Uint8Array): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  for (const [platform, zip] of await buildPackages(model, ['maya', 'webviewer', 'unity'], { templateNeutralObj, views: testViews() })) {
    const folder = join(dir, name, platform);
    for (const [file, data] of Object.entries(unzipSync(zip))) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), data);
    }
    folders.set(platform, folder);
  }
  return folders;
}

/** Imports the file named after `--` and prints what Blender made of it as one JSON line. */
const blenderReport = (importer: 'fbx' | 'gltf'): string => `
import bpy, json, re, sys, numpy
numpy.bool = bool  # Blender 3.4's glTF importer still uses the alias that Debian's numpy dropped
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.${importer}(filepath=sys.argv[sys.argv.index('--') + 1])
out = {'meshes': {}, 'bones': [], 'materials': {}, 'actions': sorted(a.name for a in bpy.data.actions)}
for o in bpy.data.objects:
    # Keyed by mesh data name: Blender's glTF importer renames the object of an animated skinned mesh node.
    if o.type == 'MESH':
        out['meshes'][o.data.name] = {'vertices': len(o.data.vertices), 'faces': len(o.data.polygons), 'groups': len(o.vertex_groups),
            'armature': any(m.type == 'ARMATURE' and m.object for m in o.modifiers),
            'shape_keys': [k.name for k in o.data.shape_keys.key_blocks] if o.data.shape_keys else [], 'uv_layers': len(o.data.uv_layers),
            'dimensions_m': list(o.dimensions)}
    if o.type == 'ARMATURE':
        out['bones'] += [b.name for b in o.data.bones]
# Images without the .001 suffixes of the copies Blender makes to read one image in two colour spaces.
base = lambda name: re.sub(r'\\.\\d{3}$', '', name)
def source(socket):
    """The image feeding a socket, through any nodes: [image, its output, the channel split from it, if any]."""
    channel = None
    while socket.is_linked:
        link = socket.links[0]
        node = link.from_node
        if node.type == 'TEX_IMAGE':
            return [base(node.image.name), link.from_socket.name] + ([channel] if channel else [])
        if node.type in ('SEPARATE_COLOR', 'SEPRGB'):
            channel = link.from_socket.name
        linked = [i for i in node.inputs if i.is_linked]
        if not linked:
            return None
        socket = linked[0]
    return None
for m in bpy.data.materials:
    nodes = m.node_tree.nodes if m.use_nodes else []
    bsdf = next((n for n in nodes if n.type == 'BSDF_PRINCIPLED'), None)
    settings = next((n for n in nodes if n.type == 'GROUP' and 'Occlusion' in n.inputs), None)
    inputs = {k: source(bsdf.inputs[k]) for k in ('Base Color', 'Alpha', 'Normal', 'Roughness', 'Metallic')} if bsdf else {}
    inputs['Occlusion'] = source(settings.inputs['Occlusion']) if settings else None
    out['materials'][m.name] = {'blend': m.blend_method, 'threshold': round(m.alpha_threshold, 4), 'backface_culling': m.use_backface_culling,
        'inputs': {k: v for k, v in inputs.items() if v}}
out['images'] = sorted(set((base(i.name), i.size[0], i.has_data) for i in bpy.data.images))
print('REPORT ' + json.dumps(out))
`;

interface BlenderMaterial {
  blend: 'OPAQUE' | 'CLIP' | 'HASHED' | 'BLEND';
  threshold: number;
  backface_culling: boolean;
  /** The image (and its output, and the channel split from it) feeding each input that has one. */
  inputs: Record<string, string[]>;
}

interface BlenderReport {
  meshes: Record<string, { vertices: number; faces: number; groups: number; armature: boolean; shape_keys: string[]; uv_layers: number; dimensions_m: number[] }>;
  bones: string[];
  materials: Record<string, BlenderMaterial>;
  actions: string[];
  /** Image name (without Blender's copy suffix), width, and whether its pixels were read. */
  images: [string, number, boolean][];
}

async function importInBlender(file: string): Promise<BlenderReport> {
  const script = blenderReport(file.endsWith('.glb') ? 'gltf' : 'fbx');
  const { stdout, stderr } = await run('blender', ['-b', '--factory-startup', '--python-exit-code', '1', '--python-expr', script, '--', file], { maxBuffer: 1 << 24 });
  const line = stdout.split('\n').find((l) => l.startsWith('REPORT '));
  assert.ok(line, stdout + stderr);
  assert.doesNotMatch(stdout + stderr, /warning|error|traceback/i);
  return JSON.parse(line.slice(7));
}

/**
 * What Blender's importers make of a material: every map on its input, the base colour's alpha as
 * coverage where the material has any. From the FBX roughness and metallic come as the grey maps
 * split for it and the blend mode is Blender's own choice (BLEND wherever alpha is linked); from
 * the GLB they are channels of the packed map, occlusion reaches the glTF settings group, and the
 * blend mode, cutoff and culling are the material's.
 */
function expectedInBlender(model: AvatarModel, m: Material, format: 'fbx' | 'glb'): BlenderMaterial {
  const inputs: Record<string, string[]> = {};
  const coverage = m.alphaMode !== 'OPAQUE';
  if (m.baseColorTexture) inputs['Base Color'] = [m.baseColorTexture, 'Color'];
  if (m.baseColorTexture && coverage) inputs.Alpha = [m.baseColorTexture, 'Alpha'];
  if (m.normalTexture) inputs.Normal = [m.normalTexture, 'Color'];
  const packed = m.metallicRoughnessTexture;
  if (packed && format === 'fbx') {
    for (const map of channelMaps(model).filter((c) => c.material === m.name)) inputs[map.slot === 'roughness' ? 'Roughness' : 'Metallic'] = [map.name, 'Color'];
  }
  if (packed && format === 'glb') Object.assign(inputs, { Roughness: [packed, 'Color', 'Green'], Metallic: [packed, 'Color', 'Blue'] });
  if (m.occlusionTexture && format === 'glb') inputs.Occlusion = [m.occlusionTexture, 'Color', 'Red'];
  if (format === 'fbx') return { blend: coverage && m.baseColorTexture ? 'BLEND' : 'OPAQUE', threshold: 0.5, backface_culling: false, inputs };
  const blend = ({ OPAQUE: 'OPAQUE', MASK: 'CLIP', BLEND: 'BLEND' } as const)[m.alphaMode];
  return { blend, threshold: m.alphaMode === 'MASK' ? m.alphaCutoff ?? 0.5 : 0.5, backface_culling: !m.doubleSided, inputs };
}

/** What Blender must show of any avatar: every mesh skinned with its shape keys, the bones, every material's maps, the images and clips. */
function assertBlenderMatches(report: BlenderReport, model: AvatarModel, file: string): void {
  const format = file.endsWith('.glb') ? 'glb' : 'fbx';
  assert.deepEqual(Object.keys(report.meshes).sort(), model.meshes.map((m) => `${m.name}_mesh`).sort());
  for (const mesh of model.meshes) {
    const got = report.meshes[`${mesh.name}_mesh`];
    // Blender's glTF importer drops vertices no triangle uses.
    const expected = format === 'glb' ? new Set(mesh.geometry.indices).size : mesh.geometry.positions.length / 3;
    assert.equal(got.vertices, expected, mesh.name);
    assert.equal(got.faces, mesh.geometry.indices.length / 3);
    assert.equal(got.uv_layers, 1);
    assert.ok(got.armature && got.groups > 0, `${mesh.name} is skinned`);
    assert.deepEqual(got.shape_keys, mesh.morphs.length > 0 ? ['Basis', ...mesh.morphs.map((m) => m.name)] : []);
  }
  assert.deepEqual([...report.bones].sort(), model.bones.map((b) => b.name).sort());
  assert.deepEqual(Object.keys(report.materials).sort(), model.materials.map((m) => m.name).sort());
  for (const m of model.materials) {
    const got = report.materials[m.name];
    assert.deepEqual({ ...got, threshold: Math.round(got.threshold * 1000) / 1000 }, expectedInBlender(model, m, format), `${format} material ${m.name}`);
  }
  const maps = format === 'fbx' ? channelMaps(model).map((m) => m.name) : [];
  const widths = new Map(model.textures.map((t) => [t.name, t.width]));
  const source = (map: string) => channelMaps(model).find((c) => c.name === map)!.source;
  const expected = [...model.textures.map((t) => t.name), ...maps].sort().map((name) => [name, widths.get(name) ?? widths.get(source(name)), true]);
  assert.deepEqual(report.images, expected);
  for (const clip of model.animations) assert.ok(report.actions.some((a) => a.includes(clip.name)), `${clip.name} in ${report.actions}`);
}

/**
 * Materials as assimp reads them (`assimp export` to its XML dump): each one's properties and the
 * texture of each usage. An embedded GLB texture (`*0`, `*1`, ...) is given as the names of the
 * model's textures with exactly its bytes, joined by `|` (two eyes may share one image's bytes).
 */
async function assimpMaterials(file: string, model: AvatarModel): Promise<Map<string, { props: Record<string, string>; textures: Record<string, string> }>> {
  const xml = join(dir, `${file.replace(/\W/g, '_')}.assxml`);
  await run('assimp', ['export', file, xml], { maxBuffer: 1 << 24 });
  const text = readFileSync(xml, 'utf8');
  const embedded = [...text.matchAll(/<Data length="\d+">([^<]*)<\/Data>/g)].map((d) => {
    const bytes = Buffer.from(d[1].trim().split(/\s+/).map((h) => parseInt(h, 16)));
    return model.textures.filter((t) => bytes.equals(t.data)).map((t) => t.name).join('|');
  });
  const out = new Map<string, { props: Record<string, string>; textures: Record<string, string> }>();
  for (const block of text.split('<Material>').slice(1)) {
    const props: Record<string, string> = {};
    const textures: Record<string, string> = {};
    for (const [, key, usage, raw] of block.matchAll(/<MatProperty key="([^"]+)"\s+type="[^"]*" tex_usage="([^"]*)"[^>]*>\s*([\s\S]*?)\s*<\/MatProperty>/g)) {
      const value = raw.replace(/^"|"$/g, '');
      if (key === '$tex.file') textures[usage] = value.startsWith('*') ? embedded[Number(value.slice(1))] : value;
      else props[key] = value;
    }
    out.set(props['?mat.name'], { props, textures });
  }
  return out;
}

/** assimp reads every map of every material; from the GLB also the alpha mode, cutoff and sides. */
async function assertAssimpMaterials(file: string, model: AvatarModel): Promise<void> {
  const got = await assimpMaterials(file, model);
  for (const m of model.materials) {
    const { props, textures } = got.get(m.name)!;
    const want: Record<string, string | undefined> = file.endsWith('.glb')
      ? { BaseColor: m.baseColorTexture, Normals: m.normalTexture, Lightmap: m.occlusionTexture, DiffuseRoughness: m.metallicRoughnessTexture, Metalness: m.metallicRoughnessTexture }
      : {
        Diffuse: m.baseColorTexture, Opacity: m.alphaMode === 'OPAQUE' ? undefined : m.baseColorTexture, Normals: m.normalTexture,
        Shininess: channelMaps(model).find((c) => c.material === m.name && c.slot === 'roughness')?.name,
      };
    for (const [usage, name] of Object.entries(want)) {
      const found = textures[usage]?.split('|');
      assert.ok(name === undefined ? found === undefined : found?.includes(name), `${file} ${m.name} ${usage}: ${textures[usage]} for ${name}`);
    }
    if (file.endsWith('.glb')) {
      assert.equal(props['$mat.gltf.alphaMode'], m.alphaMode, m.name);
      if (m.alphaMode === 'MASK') assert.equal(Number(props['$mat.gltf.alphaCutoff']), m.alphaCutoff ?? 0.5);
      assert.equal(props['$mat.twosided'].trim(), m.doubleSided ? '1' : '0', m.name);
    }
  }
}

/** `assimp info` of a file: no error or warning, all meshes, clips and bones. */
async function assertAssimpReads(file: string, model: AvatarModel): Promise<void> {
  const { stdout, stderr } = await run('assimp', ['info', file], { maxBuffer: 1 << 24 });
  assert.doesNotMatch(stdout + stderr, /error|warn/i);
  assert.match(stdout, new RegExp(`Meshes:\\s+${model.meshes.length}\\n`));
  assert.match(stdout, new RegExp(`Animations:\\s+${model.animations.length}\\n`));
  assert.match(stdout, /Bones:\s+[1-9]/);
  for (const bone of model.bones) assert.match(stdout, new RegExp(`[╴ ]${bone.name}\\b`));
}

const fixture = buildTestAvatar();
const fixturePackages = unpack(fixture, 'fixture', writeObj(fixture.meshes[0].geometry, { name: 'template' }));
const cases = [['maya', PACKAGE_FILES.fbx], ['webviewer', PACKAGE_FILES.fbx], ['webviewer', PACKAGE_FILES.glb]] as const;

for (const [platform, file] of cases) {
  test(`Blender imports the ${platform} ${file} with meshes, armature, shape keys, every map and alpha of the materials, and images`, { skip: noBlender }, async () => {
    // The GLB on its own, as dropped into a viewer: its textures can only come from inside it.
    const path = join((await fixturePackages).get(platform)!, file);
    const report = await importInBlender(file === PACKAGE_FILES.glb ? alone(path) : path);
    assertBlenderMatches(report, fixture, file);
    assert.deepEqual(report.meshes.head_mesh.shape_keys, ['Basis', ...NAMED_MORPHS]);
    // Centimetres in the FBX and metres in the GLB both become 18 cm in Blender.
    assert.ok(Math.abs(report.meshes.head_mesh.dimensions_m[0] - 0.18) < 1e-3, String(report.meshes.head_mesh.dimensions_m));
  });
  test(`assimp reads the ${platform} ${file} without error, with meshes, bones, clips and every material's maps`, { skip: noAssimp }, async () => {
    const path = join((await fixturePackages).get(platform)!, file);
    await assertAssimpReads(path, fixture);
    await assertAssimpMaterials(path, fixture);
  });
}

test('packages made from a test photo open in Blender and assimp', { skip: noBlender || noAssimp }, async () => {
  const { createPipeline } = await import('../../src/pipeline/index.ts');
  const photo = readFileSync(new URL('../fixtures/faces/p01-a.jpg', import.meta.url));
  const { model } = await (await createPipeline()).run({ inputType: 'photo', file: photo, template: '2.0', features: ['basic', 'expressions', 'visemes'] }, () => {});
  const neutral = readFileSync(new URL('../../assets/templates/2.0/neutral.obj', import.meta.url));
  // The photo's hair: its own mesh and material, coverage in the texture's alpha (Blender and assimp must read it).
  const hair = model.meshes.find((m) => m.name === 'hair');
  assert.ok(hair, 'the avatar of a photo with hair has a hair mesh');
  const hairMaterial = model.materials.find((m) => m.name === hair.material)!;
  assert.equal(hairMaterial.alphaMode, 'MASK');
  assert.equal(hairMaterial.doubleSided, true);
  const hairTexture = model.textures.find((t) => t.name === hairMaterial.baseColorTexture)!;
  assert.equal((await sharp(hairTexture.data).metadata()).hasAlpha, true);
  const folders = await unpack(model, 'photo', neutral);
  for (const [platform, file] of cases) {
    const path = join(folders.get(platform)!, file);
    assertBlenderMatches(await importInBlender(file === PACKAGE_FILES.glb ? alone(path) : path), model, file);
    await assertAssimpReads(path, model);
    await assertAssimpMaterials(path, model);
  }
});

test("the project's strict FBX reader reads Blender's own FBX export: same header, footer and top-level layout", { skip: noBlender }, async () => {
  const file = join(dir, 'blender-cube.fbx');
  await run('blender', ['-b', '--factory-startup', '--python-exit-code', '1', '--python-expr', `import bpy\nbpy.ops.export_scene.fbx(filepath=${JSON.stringify(file)})`]);
  const theirs = readFbx(readFileSync(file));
  const ours = readFbx(writeFbx(fixture));
  assert.equal(theirs.version, ours.version);
  assert.deepEqual(ours.nodes.map((n) => n.name), theirs.nodes.map((n) => n.name));
});
