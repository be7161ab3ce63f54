/**
 * How far the photo's light still reaches the avatar's skin: each photo is run as it is and again under
 * coloured and dimmer light (its pixels multiplied per channel in linear light, as a light's colour and level
 * act), and the front preview's skin colour (skin-colour.ts, the evaluator's measure) is compared with the
 * unchanged photo's. A de-lit albedo gives the same skin whatever the light; the test pairs of the same person
 * cannot show this apart from what differs in the person (a tan, a flush), the same photo under another light can.
 * Then the light is left white and the background recoloured instead (light blue, beige; by the person matte): the
 * white balance reads the background, and a coloured one must not be taken for a light.
 *   node --import tsx scripts/skin-cast.ts [--json] [--cases warm,blue-bg,...] PHOTO...
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { PipelineError } from '../src/pipeline/errors.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS, luminance } from '../src/geometry/render/srgb.ts';
import { estimatePersonMatte, type PersonMatte } from '../src/pipeline/face/person-matte.ts';
import { renderedSkin, deltaE, type Lab } from '../tools/quality/skin-colour.ts';
import { decodeRgb } from '../tools/decode-image.ts';
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

/**
 * Background colours, as linear gains of equal luminance: a light-blue and a beige wall made from the photo's own
 * background (a white wall painted, its shading kept).
 */
const BACKGROUNDS: Record<string, Rgb> = {
  'blue-bg': [0.75, 1, 1.45],
  'beige-bg': [1.1, 1, 0.75],
};

/**
 * The photo's pixels times these linear gains, re-encoded as a JPEG (as an upload would be); with a person matte,
 * only the background's, in proportion to how much background each pixel is.
 */
async function underLight(file: Buffer, gains: Rgb, matte?: PersonMatte): Promise<Buffer> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const top = LINEAR_STEPS - 1;
  const k = matte ? 1 / luminance(gains) : 1;
  for (let i = 0; i < data.length; i++) {
    const background = matte ? 1 - matte.alpha[Math.floor(i / 3)] / 255 : 1;
    const gain = 1 + background * (gains[i % 3] * k - 1);
    data[i] = linearToSrgb[Math.min(top, Math.round(srgbToLinear[data[i]] * gain * top))];
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

async function personMatte(file: Buffer): Promise<PersonMatte> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return estimatePersonMatte({ width: info.width, height: info.height, data });
}

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const casesAt = argv.indexOf('--cases');
const cases = casesAt >= 0 ? argv[casesAt + 1].split(',') : [...Object.keys(LIGHTS), ...Object.keys(BACKGROUNDS)];
const photos = argv.filter((a, i) => a !== '--json' && i !== casesAt && i !== casesAt + 1);
if (photos.length === 0) {
  console.error('usage: node --import tsx scripts/skin-cast.ts [--json] [--cases warm,blue-bg,...] PHOTO...');
  process.exit(2);
}
const pipeline = new PhotoPipeline(loadTemplateView);
/** The preview's skin; none where the pipeline refuses the photo (a light can move the landmarks past the pose limit). */
const skinOf = async (file: Buffer): Promise<Lab | undefined> => {
  try {
    const result = await pipeline.run({ inputType: 'photo', file, template: '2.0', features: ['basic'] }, () => {});
    return (await renderedSkin(await decodeRgb(result.preview.jpg)))?.lab;
  } catch (e) {
    if (!(e instanceof PipelineError)) throw e;
    console.error(`${e.message}: left out`);
    return undefined;
  }
};
const rows: { photo: string; light: string; lab?: Lab; deltaE: number }[] = [];
for (const photo of photos) {
  const file = readFileSync(photo);
  const white = await skinOf(file);
  for (const [light, gains] of Object.entries(LIGHTS).filter(([l]) => cases.includes(l))) {
    const lab = await skinOf(await underLight(file, gains));
    rows.push({ photo: path.basename(photo), light, lab, deltaE: white && lab ? deltaE(white, lab) : NaN });
  }
  const backgrounds = Object.entries(BACKGROUNDS).filter(([b]) => cases.includes(b));
  const matte = backgrounds.length > 0 ? await personMatte(file) : undefined;
  for (const [background, gains] of backgrounds) {
    const lab = await skinOf(await underLight(file, gains, matte));
    rows.push({ photo: path.basename(photo), light: background, lab, deltaE: white && lab ? deltaE(white, lab) : NaN });
  }
}
const meanOf = (light: string) => {
  const ds = rows.filter((r) => r.light === light && Number.isFinite(r.deltaE)).map((r) => r.deltaE);
  return ds.reduce((s, d) => s + d, 0) / ds.length;
};
const means = Object.fromEntries(cases.map((light) => [light, meanOf(light)]));
if (json) console.log(JSON.stringify({ lights: LIGHTS, backgrounds: BACKGROUNDS, rows, meanDeltaE: means }, null, 1));
else {
  for (const r of rows) console.log(`${r.photo} ${r.light}: ΔE ${r.deltaE.toFixed(1)} (Lab ${r.lab?.map((v) => v.toFixed(1)).join(', ') ?? '-'})`);
  console.log(`mean ΔE against the photo as it is: ${Object.entries(means).map(([l, d]) => `${l} ${d.toFixed(1)}`).join(', ')}`);
}
