/**
 * Blotches on the skin the photo does not show, as the side view shows them (`sideSkinHue` in
 * tools/quality/skin-colour.ts, which `npm run quality` reports as well): per avatar, on its side view, the cheek and
 * jaw behind the face, the hue's distance from the skin tone's, mean and 90th percentile; then both averaged.
 * Usage: node --import tsx scripts/side-skin-hue.ts [photo ...] (names in test/fixtures/faces without .jpg; all of
 * them by default). Template 2.0, no features: quicker than the quality run, for the fill's work.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { decodeImage } from '../tools/decode-image.ts';
import { rgbOfHex, sideSkinHue } from '../tools/quality/skin-colour.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const photos = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const pipeline = await createPipeline();
const rows: { mean: number; p90: number }[] = [];
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
  rows.push(hue);
  console.log(`${photo.padEnd(10)} mean ${hue.mean.toFixed(4)} 90th percentile ${hue.p90.toFixed(4)}`);
}
const mean = (k: 'mean' | 'p90') => rows.reduce((s, r) => s + r[k], 0) / rows.length;
console.log(`${rows.length} avatars: mean ${mean('mean').toFixed(4)}, 90th percentile's mean ${mean('p90').toFixed(4)}`);
process.exit(0);
