/**
 * Makes one test photo's avatar (template 2.0, expressions + visemes), observes every blendshape, writes
 * docs/expressions.png (a contact sheet of every shape, neutral first) and prints the measured table as
 * markdown (for docs/EXPRESSIONS.md). Usage: npm run expressions-sheet [-- <photo name, default p03-a>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { judgeShapes } from '../tools/quality/judge-shapes.ts';
import { observeShapes } from '../tools/quality/observe-shapes.ts';
import { contactSheet } from '../tools/contact-sheet.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const photo = process.argv[2] ?? 'p03-a';
const pipeline = await createPipeline();
const result = await pipeline.run(
  { inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: ['expressions', 'visemes'] },
  () => {},
);
const observed = await observeShapes(result.model);
const verdicts = judgeShapes(observed);

const sheet = await contactSheet(
  [{ image: observed.neutral.render, label: 'neutral' }, ...observed.shapes.map((s) => ({ image: s.render, label: s.name }))],
  { columns: 10, cellWidth: 180, cellHeight: 180, labelHeight: 22, title: `Every blendshape at weight 1 (photo ${photo}, template 2.0)` },
);
writeFileSync(path.resolve(import.meta.dirname, '../docs/expressions.png'), sheet);

const f = (v: number) => (Math.abs(v) < 0.005 ? '0' : v.toFixed(2));
const lr = (v: { left: number; right: number }) => `${f(v.left)} / ${f(v.right)}`;
const lines = [
  `Photo \`${photo}\`, template 2.0; changes from the neutral render in eye-centre distances (y up; L / R are the subject's sides).`,
  '',
  '| shape | must | seen by | lips open | mouth width | corners up L / R | eyes open L / R | iris out L / R | brows (inner) L / R | pixels (region) | result |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const v of verdicts) {
  const o = observed.shapes.find((s) => s.name === v.name)!;
  const c = o.change;
  const e = v.expectation;
  const region = e ? `${o.pixels[e.region].toFixed(1)} (${e.region})` : '';
  const cells = c
    ? [f(c.mouthOpen), f(c.mouthWidth), lr(c.cornerHeight), lr(c.eyeOpen), lr(c.irisOut), lr(c.browInner)]
    : ['no face', '', '', '', '', ''];
  const result = v.failures.length ? `**fails**: ${v.failures.join('; ')}` : 'ok';
  lines.push(`| \`${v.name}\` | ${e?.says ?? ''} | ${e?.seen ?? ''} | ${cells.join(' | ')} | ${region} | ${result} |`);
}
const failing = verdicts.filter((v) => v.failures.length).length;
lines.push('', `${verdicts.length - failing} of ${verdicts.length} shapes do what their name says on this photo.`);
console.log(lines.join('\n'));
