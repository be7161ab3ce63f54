/**
 * How far the photo's light still reaches the avatar's skin: each photo is run as it is and again under
 * coloured and dimmer light (its pixels multiplied per channel in linear light, as a light's colour and level
 * act), and the front preview's skin colour (skin-colour.ts, the evaluator's measure) is compared with the
 * unchanged photo's. A de-lit albedo gives the same skin whatever the light; the test pairs of the same person
 * cannot show this apart from what differs in the person (a tan, a flush), the same photo under another light can.
 *   node --import tsx scripts/skin-cast.ts [--json] PHOTO...
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS } from '../src/geometry/render/srgb.ts';
import { renderedSkin, deltaE, type Lab } from '../tools/quality/skin-colour.ts';
import { jpegToRgb } from '../tools/quality/evaluate.ts';
import type { Rgb } from '../src/geometry/texture/rgb-image.ts';

/**
 * The lights, as linear gains: stage and tungsten colours of moderate strength (about what a camera's auto white
 * balance leaves of them), and the same white light at 60 % (an exposure the pipeline keeps by design: one photo
 * cannot tell a darker skin from less light).
 */
const LIGHTS: Record<string, Rgb> = {
  warm: [1.25, 1, 0.7],
  cool: [0.8, 1, 1.3],
  magenta: [1.2, 0.8, 1.15],
  green: [0.85, 1.15, 0.85],
  dim: [0.6, 0.6, 0.6],
};

/** The photo's pixels under a light of these linear gains, re-encoded as a JPEG (as an upload would be). */
async function underLight(file: Buffer, gains: Rgb): Promise<Buffer> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const top = LINEAR_STEPS - 1;
  for (let i = 0; i < data.length; i++) data[i] = linearToSrgb[Math.min(top, Math.round(srgbToLinear[data[i]] * gains[i % 3] * top))];
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const photos = argv.filter((a) => a !== '--json');
if (photos.length === 0) {
  console.error('usage: node --import tsx scripts/skin-cast.ts [--json] PHOTO...');
  process.exit(2);
}
const pipeline = new PhotoPipeline(loadTemplateView);
const skinOf = async (file: Buffer): Promise<Lab | undefined> => {
  const result = await pipeline.run({ inputType: 'photo', file, template: '2.0', features: ['basic'] }, () => {});
  return (await renderedSkin(await jpegToRgb(result.preview.jpg)))?.lab;
};
const rows: { photo: string; light: string; lab?: Lab; deltaE: number }[] = [];
for (const photo of photos) {
  const file = readFileSync(photo);
  const white = await skinOf(file);
  for (const [light, gains] of Object.entries(LIGHTS)) {
    const lab = await skinOf(await underLight(file, gains));
    rows.push({ photo: path.basename(photo), light, lab, deltaE: white && lab ? deltaE(white, lab) : NaN });
  }
}
const meanOf = (light: string) => {
  const ds = rows.filter((r) => r.light === light && Number.isFinite(r.deltaE)).map((r) => r.deltaE);
  return ds.reduce((s, d) => s + d, 0) / ds.length;
};
const means = Object.fromEntries(Object.keys(LIGHTS).map((light) => [light, meanOf(light)]));
if (json) console.log(JSON.stringify({ lights: LIGHTS, rows, meanDeltaE: means }, null, 1));
else {
  for (const r of rows) console.log(`${r.photo} ${r.light}: ΔE ${r.deltaE.toFixed(1)} (Lab ${r.lab?.map((v) => v.toFixed(1)).join(', ') ?? '-'})`);
  console.log(`mean ΔE against the photo as it is: ${Object.entries(means).map(([l, d]) => `${l} ${d.toFixed(1)}`).join(', ')}`);
}
