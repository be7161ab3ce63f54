/**
 * How mouthClose on jawOpen (as ARKit rigs use it) keeps the lips' red, on the avatars of test photos: per avatar, the
 * height of the upper and lower lips (outer to inner contour at the centre and half way to each corner) and the
 * lower lip to the chin, neutral -> posed, and the largest change of a lip's height over all of them (EXPRESSIONS.md).
 * Usage: node --import tsx scripts/mouth-close-lips.ts [--template 1.6|2.0] photo ... (names in test/fixtures/faces
 * without .jpg).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { TEMPLATES, type TemplateVersion } from '../src/model/product.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const args = process.argv.slice(2);
const at = args.indexOf('--template');
const template = (at >= 0 ? args.splice(at, 2)[1] : '2.0') as TemplateVersion;
if (!TEMPLATES.includes(template)) throw new Error(`--template: one of ${TEMPLATES.join(', ')}`);
/** [name, outer, inner] landmark vertices; the chin last. */
const SPANS: [string, number, number][] = [['upper', 0, 13], ['lower', 17, 14], ['lower L', 314, 317], ['lower R', 84, 87], ['lip to chin', 17, 152]];
const pipeline = await createPipeline();
let worst = 1;
for (const photo of args) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template, features: ['expressions'] }, () => {});
  const head = run.model.meshes.find((m) => m.name === 'head')!;
  const deltas = (name: string) => head.morphs.find((m) => m.name === name)!.deltas;
  const jaw = deltas('jawOpen'), close = deltas('mouthClose');
  const rest = head.geometry.positions, posed = rest.map((x, i) => x + jaw[i] + close[i]);
  const span = (p: ArrayLike<number>, a: number, b: number) => Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
  const row = SPANS.map(([name, a, b]) => {
    const ratio = span(posed, a, b) / span(rest, a, b);
    if (name !== 'lip to chin' && Math.abs(ratio - 1) > Math.abs(worst - 1)) worst = ratio;
    return `${name} ${span(rest, a, b).toFixed(2)} -> ${span(posed, a, b).toFixed(2)} cm (x${ratio.toFixed(2)})`;
  });
  console.log(`${photo}: ${row.join(', ')}`);
}
console.log(`template ${template}: the lips' height changes at most x${worst.toFixed(3)}`);
// The pipeline's helper thread keeps the process alive.
process.exit(0);
