import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { readFbx } from '../../src/formats/fbx/read.ts';
import { writeFbx } from '../../src/formats/fbx/write.ts';
import { writeObj } from '../../src/formats/obj-write.ts';
import type { AvatarModel } from '../../src/model/avatar.ts';
import { buildPackages, PACKAGE_FILES } from '../../src/formats/packages.ts';
import { NAMED_MORPHS, buildTestAvatar } from '../fixtures/avatar.ts';

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

/** Each package unpacked into its own folder, as a user would. */
async function unpack(model: AvatarModel, name: string, templateNeutralObj: Uint8Array): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  for (const [platform, zip] of await buildPackages(model, ['maya', 'webviewer', 'unity'], { templateNeutralObj })) {
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
import bpy, json, sys, numpy
numpy.bool = bool  # Blender 3.4's glTF importer still uses the alias that Debian's numpy dropped
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.${importer}(filepath=sys.argv[sys.argv.index('--') + 1])
out = {'meshes': {}, 'bones': [], 'materials': sorted(m.name for m in bpy.data.materials), 'actions': sorted(a.name for a in bpy.data.actions)}
for o in bpy.data.objects:
    # Keyed by mesh data name: Blender's glTF importer renames the object of an animated skinned mesh node.
    if o.type == 'MESH':
        out['meshes'][o.data.name] = {'vertices': len(o.data.vertices), 'faces': len(o.data.polygons), 'groups': len(o.vertex_groups),
            'armature': any(m.type == 'ARMATURE' and m.object for m in o.modifiers),
            'shape_keys': [k.name for k in o.data.shape_keys.key_blocks] if o.data.shape_keys else [], 'uv_layers': len(o.data.uv_layers),
            'dimensions_m': list(o.dimensions)}
    if o.type == 'ARMATURE':
        out['bones'] += [b.name for b in o.data.bones]
out['images'] = sorted([i.name, i.size[0], i.has_data] for i in bpy.data.images)
print('REPORT ' + json.dumps(out))
`;

interface BlenderReport {
  meshes: Record<string, { vertices: number; faces: number; groups: number; armature: boolean; shape_keys: string[]; uv_layers: number; dimensions_m: number[] }>;
  bones: string[];
  materials: string[];
  actions: string[];
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

/** What Blender must show of any avatar: every mesh skinned with its shape keys, the bones, materials, images and clips. */
function assertBlenderMatches(report: BlenderReport, model: AvatarModel, file: string): void {
  assert.deepEqual(Object.keys(report.meshes).sort(), model.meshes.map((m) => `${m.name}_mesh`).sort());
  for (const mesh of model.meshes) {
    const got = report.meshes[`${mesh.name}_mesh`];
    // Blender's glTF importer drops vertices no triangle uses.
    const expected = file.endsWith('.glb') ? new Set(mesh.geometry.indices).size : mesh.geometry.positions.length / 3;
    assert.equal(got.vertices, expected, mesh.name);
    assert.equal(got.faces, mesh.geometry.indices.length / 3);
    assert.equal(got.uv_layers, 1);
    assert.ok(got.armature && got.groups > 0, `${mesh.name} is skinned`);
    assert.deepEqual(got.shape_keys, mesh.morphs.length > 0 ? ['Basis', ...mesh.morphs.map((m) => m.name)] : []);
  }
  assert.deepEqual([...report.bones].sort(), model.bones.map((b) => b.name).sort());
  assert.deepEqual(report.materials, model.materials.map((m) => m.name).sort());
  assert.deepEqual(report.images, model.textures.map((t) => [t.name, t.width, true]).sort());
  for (const clip of model.animations) assert.ok(report.actions.some((a) => a.includes(clip.name)), `${clip.name} in ${report.actions}`);
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
  test(`Blender imports the ${platform} ${file} with meshes, armature, shape keys, materials and images`, { skip: noBlender }, async () => {
    const report = await importInBlender(join((await fixturePackages).get(platform)!, file));
    assertBlenderMatches(report, fixture, file);
    assert.deepEqual(report.meshes.head_mesh.shape_keys, ['Basis', ...NAMED_MORPHS]);
    // Centimetres in the FBX and metres in the GLB both become 18 cm in Blender.
    assert.ok(Math.abs(report.meshes.head_mesh.dimensions_m[0] - 0.18) < 1e-3, String(report.meshes.head_mesh.dimensions_m));
  });
  test(`assimp reads the ${platform} ${file} without error, with meshes, bones and clips`, { skip: noAssimp }, async () => {
    await assertAssimpReads(join((await fixturePackages).get(platform)!, file), fixture);
  });
}

test('packages made from a test photo open in Blender and assimp', { skip: noBlender || noAssimp }, async () => {
  const { createPipeline } = await import('../../src/pipeline/index.ts');
  const photo = readFileSync(new URL('../fixtures/faces/p01-a.jpg', import.meta.url));
  const { model } = await (await createPipeline()).run({ inputType: 'photo', file: photo, template: '2.0', features: ['basic', 'expressions', 'visemes'] }, () => {});
  const neutral = readFileSync(new URL('../../assets/templates/2.0/neutral.obj', import.meta.url));
  const folders = await unpack(model, 'photo', neutral);
  for (const [platform, file] of cases) {
    const path = join(folders.get(platform)!, file);
    assertBlenderMatches(await importInBlender(path), model, file);
    await assertAssimpReads(path, model);
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
