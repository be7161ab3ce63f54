/**
 * Blotches on the skin the photo does not show, as the side view shows them: per avatar, on its side view (512 px,
 * the head framed as the pipeline frames it), the cheek and jaw behind the face (x 150-330, y 180-360), pixels of the
 * head at least half as light as the skin tone (meta `skin-tone`; hair and shadow below that are left out), their r/g
 * chromaticity's distance from the skin tone's: mean and 90th percentile; then both averaged over the avatars.
 * Usage: node --import tsx scripts/side-skin-hue.ts [photo ...] (names in test/fixtures/faces without .jpg; all of
 * them by default). Template 2.0, no features.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createPipeline } from '../src/pipeline/index.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const REGION = { x: [150, 330], y: [180, 360] };
const photos = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const pipeline = await createPipeline();
const rows: { photo: string; mean: number; p90: number }[] = [];
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: [] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const tone = [1, 3, 5].map((i) => parseInt(run.meta['skin-tone'].slice(i, i + 2), 16));
  const toneSum = tone[0] + tone[1] + tone[2];
  const { data, info } = await sharp(Buffer.from(run.views.side)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const off: number[] = [];
  for (let y = REGION.y[0]; y < REGION.y[1]; y++) {
    for (let x = REGION.x[0]; x < REGION.x[1]; x++) {
      const o = (y * info.width + x) * 4;
      const sum = data[o] + data[o + 1] + data[o + 2];
      if (data[o + 3] < 255 || sum < 0.5 * toneSum) continue;
      off.push(Math.hypot(data[o] / sum - tone[0] / toneSum, data[o + 1] / sum - tone[1] / toneSum));
    }
  }
  off.sort((a, b) => a - b);
  const row = { photo, mean: off.reduce((s, d) => s + d, 0) / off.length, p90: off[Math.floor(0.9 * off.length)] };
  rows.push(row);
  console.log(`${photo.padEnd(10)} mean ${row.mean.toFixed(4)} 90th percentile ${row.p90.toFixed(4)}`);
}
const mean = (k: 'mean' | 'p90') => rows.reduce((s, r) => s + r[k], 0) / rows.length;
console.log(`${rows.length} avatars: mean ${mean('mean').toFixed(4)}, 90th percentile's mean ${mean('p90').toFixed(4)}`);
process.exit(0);
