/**
 * The neutral head never crosses itself, also where the landmark detector misreads a photo: test photos turned, halved
 * or mirrored stand in for photos the tuning never saw. Each of these three gave a head whose triangles crossed (p04-a
 * turned 12 degrees: beside the nose, 2 cm from the eye, where no fold was looked for; p10-a at half its size: the
 * socket's lining behind a lid, folded by the lids' rest; p12-a mirrored: a closed lip whose fold outgrew the
 * untangling's steps). On the light template p12-a as it is folded its right ear's stem, sheared from the warp. The
 * lash cards too: cleared of the skin column by column, p10-b's folded at a lid's outer corner,
 * and p06-a's under the lids' rest. About twenty seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { checkMesh } from '../../../src/geometry/mesh/checks.ts';

const face = (name: string) => readFileSync(new URL(`../../fixtures/faces/${name}.jpg`, import.meta.url));
const MISREAD: [string, () => Promise<Buffer>][] = [
  ['p04-a turned 12 degrees', () => sharp(face('p04-a')).rotate(12, { background: '#808080' }).jpeg({ quality: 92 }).toBuffer()],
  ['p10-a at half its size', async () => sharp(face('p10-a')).resize({ width: Math.round((await sharp(face('p10-a')).metadata()).width! / 2) }).jpeg({ quality: 85 }).toBuffer()],
  ['p12-a mirrored', () => sharp(face('p12-a')).rotate().flop().jpeg({ quality: 95 }).toBuffer()],
];

test('misread photos give heads without crossing triangles (template 2.0, expressions)', { timeout: 300_000 }, async () => {
  const pipeline = new PhotoPipeline(loadTemplateView);
  for (const [name, photo] of MISREAD) {
    const result = await pipeline.run({ inputType: 'photo', file: new Uint8Array(await photo()), template: '2.0', features: ['expressions'] }, () => {});
    const head = result.model.meshes.find((m) => m.name === 'head')!;
    assert.equal(checkMesh(head.geometry).selfIntersections, 0, name);
  }
});

test("an ear's stem does not fold where the ear is placed away from the warp (p12-a, template 1.6)", { timeout: 300_000 }, async () => {
  const result = await new PhotoPipeline(loadTemplateView).run({ inputType: 'photo', file: new Uint8Array(face('p12-a')), template: '1.6', features: [] }, () => {});
  const head = result.model.meshes.find((m) => m.name === 'head')!;
  assert.equal(checkMesh(head.geometry).selfIntersections, 0);
});

test('lash cards do not cross themselves where the clearance or the lids\' rest turned their columns apart (p10-b, p06-a)', { timeout: 300_000 }, async () => {
  const pipeline = new PhotoPipeline(loadTemplateView);
  for (const name of ['p10-b', 'p06-a']) {
    const result = await pipeline.run({ inputType: 'photo', file: new Uint8Array(face(name)), template: '2.0', features: ['expressions'] }, () => {});
    const lashes = result.model.meshes.find((m) => m.name === 'eyelashes')!;
    assert.equal(checkMesh(lashes.geometry).selfIntersections, 0, name);
  }
});
