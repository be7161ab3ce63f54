/**
 * Every number an avatar carries is finite, on every test photo, with every feature: one NaN or Infinity in a
 * morph's deltas makes the GLB's accessor bounds null, and Blender's importer then refuses the whole package
 * (tongueOut on p01-a's wide mouth did). About half a minute: the pipeline runs on each photo.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { PipelineError } from '../../../src/pipeline/errors.ts';

const dir = new URL('../../fixtures/faces/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as { photos: { file: string }[] };

test('every avatar of a test photo has finite positions, normals, UVs and morph deltas (template 2.0, all features)', { timeout: 600_000 }, async () => {
  const pipeline = new PhotoPipeline(loadTemplateView);
  let made = 0;
  for (const { file } of manifest.photos) {
    const bytes = new Uint8Array(readFileSync(new URL(file, dir)));
    let result;
    try {
      result = await pipeline.run({ inputType: 'photo', file: bytes, template: '2.0', features: ['basic', 'expressions', 'visemes'] }, () => {});
    } catch (e) {
      if (e instanceof PipelineError) continue; // a documented refusal (the quality test names it)
      throw e;
    }
    made++;
    const bad: string[] = [];
    for (const m of result.model.meshes) {
      const g = m.geometry;
      if (![g.positions, g.normals, g.uvs].every((a) => a.every(Number.isFinite))) bad.push(`${m.name} geometry`);
      for (const t of m.morphs) if (!t.deltas.every(Number.isFinite)) bad.push(`${m.name} ${t.name}`);
    }
    assert.deepEqual(bad, [], file);
  }
  assert.ok(made >= 18, `${made} avatars made`);
});
