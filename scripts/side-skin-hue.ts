/**
 * Blotches on the skin the photo does not show, as the side view shows them (`sideSkinHue` in
 * tools/quality/skin-colour.ts, which `npm run quality` reports as well): per avatar, on its side view, the cheek and
 * jaw behind the face, the hue's distance from the skin tone's, mean and 90th percentile; and the skin filled in beside
 * the face against the cheeks on the albedo (`modelBesideFace` in tools/quality/beside-face.ts: ΔL*, ΔE); then each
 * averaged.
 * Usage: node --import tsx scripts/side-skin-hue.ts [photo ...] (names in test/fixtures/faces without .jpg; all of
 * them by default). Template 2.0, no features: quicker than the quality run, for the fill's work.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { decodeImage } from '../tools/decode-image.ts';
import { rgbOfHex, sideSkinHue } from '../tools/quality/skin-colour.ts';
import { modelBesideFace } from '../tools/quality/beside-face.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const photos = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const pipeline = await createPipeline();
const rows: { mean: number; p90: number; lightness: number; deltaE: number }[] = [];
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: [] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const hue = sideSkinHue(await decodeImage(run.views.side), rgbOfHex(run.meta['skin-tone']));
  if (!hue) {
    console.log(`${photo}: no skin in the region`);
    continue;
  }
  const beside = await modelBesideFace(run.model);
  const row = { ...hue, lightness: beside?.difference[0] ?? NaN, deltaE: beside?.deltaE ?? NaN };
  rows.push(row);
  console.log(`${photo.padEnd(10)} mean ${hue.mean.toFixed(4)} 90th percentile ${hue.p90.toFixed(4)}; beside the face ΔL* ${row.lightness.toFixed(1)} ΔE ${row.deltaE.toFixed(1)}`);
}
const mean = (k: keyof (typeof rows)[number]) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
console.log(
  `${rows.length} avatars: mean ${mean('mean').toFixed(4)}, 90th percentile's mean ${mean('p90').toFixed(4)}; ` +
    `beside the face mean ΔL* ${mean('lightness').toFixed(1)}, ΔE ${mean('deltaE').toFixed(1)}`,
);
process.exit(0);
