import type { Figure } from './figure.ts';
import { measure as measureRuns } from './timing.ts';
import type { AvatarModel } from '../src/model/avatar.ts';
import { buildPackage, buildPackages } from '../src/formats/write/packages.ts';
import { writeZip } from '../src/formats/write/zip-write.ts';
import { writeObj } from '../src/formats/write/obj-write.ts';
import { buildTestAvatar } from '../test/fixtures/avatar.ts';
import { testViews } from '../test/fixtures/views.ts';
import { PACKAGE_VIEW_SIZE } from '../src/pipeline/output.ts';

const RUNS = 5;

const measure = (fn: () => unknown) => measureRuns(fn, RUNS);

/**
 * All three packages (maya, webviewer, unity) of a template-2.0-sized avatar: a 12,221-vertex
 * head with 65 blendshapes, two eyes, 6 bones, two 2048x2048 photo-like PNG textures, two clips.
 * Baseline: one plain zip of the same input bytes (textures and the raw geometry and morph arrays).
 */
export default async function (): Promise<Figure[]> {
  const model = buildTestAvatar({ rings: 100, segments: 120, extraMorphs: 62, textureSize: 2048, textureNoise: true });
  const neutral = writeObj(model.meshes[0].geometry, { name: 'template' });
  // Views the size the pipeline renders them.
  const extras = { templateNeutralObj: neutral, views: testViews(PACKAGE_VIEW_SIZE) };
  const raw = model.meshes.flatMap((m) => [m.geometry.positions, m.geometry.normals, m.geometry.uvs, m.geometry.indices, ...m.morphs.map((t) => t.deltas)]);
  const baselineEntries = [
    ...model.textures.map((t) => ({ name: t.name, data: t.data })),
    ...raw.map((a, k) => ({ name: `array${k}.bin`, data: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) })),
  ];
  // New morph objects each run: the writers share sparse shapes per morph within one avatar, and a
  // run must not reuse those of the previous run.
  const fresh = (): AvatarModel => ({ ...model, meshes: model.meshes.map((m) => ({ ...m, morphs: m.morphs.map((t) => ({ ...t })) })) });
  const zip = await measure(() => writeZip(baselineEntries));
  const all = await measure(() => buildPackages(fresh(), ['maya', 'webviewer', 'unity'], extras));
  const per = async (p: 'maya' | 'webviewer' | 'unity'): Promise<number> => (await measure(() => buildPackage(fresh(), p, extras))).wall;
  return [
    { key: 'formats.plain_zip_same_bytes', value: zip.wall, unit: 'ms' },
    { key: 'formats.all_three_packages_template2', value: all.wall, unit: 'ms', baseline: 'formats.plain_zip_same_bytes', goal: '<= 300 ms' },
    { key: 'formats.plain_zip_same_bytes_cpu', value: zip.cpu, unit: 'ms cpu' },
    { key: 'formats.all_three_packages_template2_cpu', value: all.cpu, unit: 'ms cpu', baseline: 'formats.plain_zip_same_bytes_cpu' },
    { key: 'formats.maya_package', value: await per('maya'), unit: 'ms', baseline: 'formats.plain_zip_same_bytes' },
    { key: 'formats.webviewer_package', value: await per('webviewer'), unit: 'ms', baseline: 'formats.plain_zip_same_bytes' },
    { key: 'formats.unity_package', value: await per('unity'), unit: 'ms', baseline: 'formats.plain_zip_same_bytes' },
  ];
}
