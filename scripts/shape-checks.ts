/**
 * The shape observer over every test photo (`observed-shapes.test.ts` observes three): per photo, each shape that
 * fails a check and why, with the iris's and the eyes' readings; then how many of the observed shapes failed.
 * Usage: node --import tsx scripts/shape-checks.ts [--shapes name,name] [photo ...] (names in test/fixtures/faces
 * without .jpg; all of them by default; every shape by default). Template 2.0, expressions and visemes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { judgeShapes } from '../tools/quality/judge-shapes.ts';
import { observeShapes } from '../tools/quality/observe-shapes.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const args = process.argv.slice(2);
const at = args.indexOf('--shapes');
const shapes = at >= 0 ? args.splice(at, 2)[1].split(',') : undefined;
const photos = args.length > 0 ? args : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const f = (v: number) => v.toFixed(3);
const pipeline = await createPipeline();
let observedShapes = 0, failing = 0;
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: ['expressions', 'visemes'] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const observed = await observeShapes(run.model, shapes);
  for (const v of judgeShapes(observed)) {
    const o = observed.shapes.find((s) => s.name === v.name)!;
    observedShapes++;
    if (v.failures.length === 0) continue;
    failing++;
    const c = o.change;
    const readings = c ? ` (iris up L / R ${f(c.irisUp.left)} / ${f(c.irisUp.right)}, out ${f(c.irisOut.left)} / ${f(c.irisOut.right)}, eyes open ${f(c.eyeOpen.left)} / ${f(c.eyeOpen.right)})` : ' (no face found)';
    console.log(`${photo} ${v.name}: ${v.failures.join('; ')}${readings}`);
  }
}
console.log(`${failing} of ${observedShapes} observed shapes fail a check`);
process.exit(0);
