/**
 * The head crossing itself in the blendshapes of the test photos' avatars (issue 20: mesh checks on each part): per
 * avatar, every shape at weight 1 (mouthClose on jawOpen, as it is used) whose face, mouth-bag and socket triangles
 * cross each other, with the vertices of its crossing triangles; then the totals, and per shape on how many avatars it
 * crosses (docs/EXPRESSIONS.md, "Limits"). The neutral is checked first: a shape's crossings count only from a head that
 * had none. Exits 1 if a neutral head crosses itself.
 * Usage: node --import tsx scripts/shape-crossings.ts [--template 1.6|2.0] [photo ...]
 * (names in test/fixtures/faces without .jpg; all of them by default). Expressions and visemes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { intersectingVertices } from '../src/geometry/fit/untangle.ts';
import { MADE_ON, type ArkitName } from '../src/geometry/expressions/arkit.ts';
import type { TemplateVersion } from '../src/model/product.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const args = process.argv.slice(2);
const at = args.indexOf('--template');
const version = (at >= 0 ? args.splice(at, 2)[1] : '2.0') as TemplateVersion;
const photos = args.length > 0 ? args : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const { faceTriangles } = loadTemplateView(version);
const pipeline = await createPipeline();
const avatarsPerShape = new Map<string, number>();
let shapes = 0, crossing = 0, vertices = 0, foldedNeutral = 0;
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: version, features: ['expressions', 'visemes'] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const head = run.model.meshes.find((m) => m.name === 'head')!;
  const { positions, indices } = head.geometry;
  const neutral = intersectingVertices(positions, indices, faceTriangles).size;
  if (neutral > 0) {
    foldedNeutral++;
    console.log(`${photo}: the neutral head crosses itself (${neutral} vertices)`);
    continue;
  }
  const found: string[] = [];
  for (const morph of head.morphs) {
    const base = MADE_ON[morph.name as ArkitName];
    const under = base && head.morphs.find((m) => m.name === base)!.deltas;
    const shaped = positions.map((x, i) => x + morph.deltas[i] + (under ? under[i] : 0));
    const count = intersectingVertices(shaped, indices, faceTriangles).size;
    shapes++;
    if (count === 0) continue;
    crossing++;
    vertices += count;
    avatarsPerShape.set(morph.name, (avatarsPerShape.get(morph.name) ?? 0) + 1);
    found.push(`${morph.name} ${count}`);
  }
  console.log(`${photo}: ${found.length} of ${head.morphs.length} shapes cross${found.length > 0 ? `: ${found.join(', ')}` : ''}`);
}
console.log(`${crossing} of ${shapes} shapes cross, ${vertices} vertices of crossing triangles in all`);
console.log([...avatarsPerShape].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', '));
process.exit(foldedNeutral > 0 ? 1 : 0);
