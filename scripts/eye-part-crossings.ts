/**
 * The tear lines and caruncles against the head, the eyeballs, the corneas and the lashes on the avatars of the test
 * photos (issue 20 item 3): per avatar, the pairs of crossing triangles at rest and in the shape with the most, then
 * those two summed over the avatars per pair of meshes (PIPELINE.md, "the tear lines and the caruncles laid on the
 * fitted eyeballs").
 * Usage: node --import tsx scripts/eye-part-crossings.ts [--template 1.6|2.0] [photo ...]
 * (names in test/fixtures/faces without .jpg; all of them by default). Expressions and visemes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { countIntersectionsBetween } from '../src/geometry/mesh/checks.ts';
import type { MeshData } from '../src/model/avatar.ts';
import type { TemplateVersion } from '../src/model/product.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const PARTS = ['tearLine', 'caruncle'];
const OTHERS = ['head', 'eyeLeft', 'eyeRight', 'cornea', 'eyelashes'];
const args = process.argv.slice(2);
const at = args.indexOf('--template');
const version = (at >= 0 ? args.splice(at, 2)[1] : '2.0') as TemplateVersion;
const photos = args.length > 0 ? args : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const pipeline = await createPipeline();
const totals: Record<string, number> = {};
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: version, features: ['expressions', 'visemes'] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const mesh = (name: string) => run.model.meshes.find((m) => m.name === name)!;
  const shaped = (name: string, shape?: string): MeshData => {
    const d = shape ? mesh(name).morphs.find((t) => t.name === shape)?.deltas : undefined;
    return d ? { ...mesh(name).geometry, positions: mesh(name).geometry.positions.map((x, i) => x + d[i]) } : mesh(name).geometry;
  };
  const found: string[] = [];
  for (const part of PARTS) for (const other of OTHERS) {
    const rest = countIntersectionsBetween(shaped(other), shaped(part));
    let worst = 0, worstAt = '';
    for (const { name } of mesh('head').morphs) {
      const n = countIntersectionsBetween(shaped(other, name), shaped(part, name));
      if (n > worst) [worst, worstAt] = [n, name];
    }
    if (rest || worst) found.push(`${part} x ${other} ${rest} at rest, ${worst}${worstAt ? ` at ${worstAt}` : ''}`);
    totals[`${part} x ${other}`] = (totals[`${part} x ${other}`] ?? 0) + rest + worst;
  }
  console.log(`${photo}: ${found.join('; ') || 'clear'}`);
}
console.log('summed (at rest + the worst shape):', Object.entries(totals).map(([k, n]) => `${k} ${n}`).join(', '));
process.exit(0);
