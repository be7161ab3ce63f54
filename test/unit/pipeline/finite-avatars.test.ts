/**
 * Every number an avatar carries is finite, on every test photo, with every feature: one NaN or Infinity in a
 * morph's deltas makes the GLB's accessor bounds null, and Blender's importer then refuses the whole package
 * (tongueOut on p01-a's wide mouth did). No triangle has two corners at one point: assimp reads such triangles as
 * lines, in a mesh of their own. About half a minute: the pipeline runs on each photo.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { PipelineError } from '../../../src/pipeline/errors.ts';

const dir = new URL('../../fixtures/faces/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as { photos: { file: string }[] };

/** Triangles two of whose corners lie at one point: importers read them as lines (assimp makes a mesh of them). */
function collapsedTriangles(g: { positions: Float32Array; indices: Uint32Array }): number {
  const p = g.positions, same = (a: number, b: number) => p[3 * a] === p[3 * b] && p[3 * a + 1] === p[3 * b + 1] && p[3 * a + 2] === p[3 * b + 2];
  let count = 0;
  for (let t = 0; t < g.indices.length; t += 3) {
    const [a, b, c] = [g.indices[t], g.indices[t + 1], g.indices[t + 2]];
    if (same(a, b) || same(b, c) || same(a, c)) count++;
  }
  return count;
}

test('every avatar of a test photo has finite positions, normals, UVs and morph deltas, and no triangle collapsed to a line (template 2.0, all features)', { timeout: 600_000 }, async () => {
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
      // p01-a's hair had 24, a bun's pole rings pushed out of the skull onto one point each (fit-hair.ts).
      if (collapsedTriangles(g) > 0) bad.push(`${m.name}: ${collapsedTriangles(g)} triangles collapsed to a line`);
    }
    assert.deepEqual(bad, [], file);
  }
  assert.ok(made >= 18, `${made} avatars made`);
});
