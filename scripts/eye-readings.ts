/**
 * How the avatar's eyes read against the photo's (PIPELINE.md, "The white of the eye nearer the photos'"): per photo,
 * the avatar drawn with the photo's camera and expression (as the landmark error with the expression put back is) and
 * the photo itself, each read by the landmark detector. The opening: lid to lid at the eye's middle (159-145, 386-374)
 * over its width (33-133, 263-362), the avatar's over the photo's. The shade: the median luminance (linear) inside the
 * eye contours less the irises (discs 1.1 times the iris radius), over the cheeks' (discs about 50, 280, 205, 425),
 * both masks from the photo's landmarks, on the photo and on the avatar. Prints a row per photo and the medians.
 *   node --import tsx scripts/eye-readings.ts [photo ...] (names in test/fixtures/faces without .jpg; all by default)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { landmarkPoint } from '../src/pipeline/face/face-regions.ts';
import { irisDiameterPx } from '../src/pipeline/face/pose.ts';
import { LUMINANCE, srgbToLinear } from '../src/geometry/render/srgb.ts';
import type { RgbImage } from '../src/geometry/texture/rgb-image.ts';
import { detectLandmarks, renderWithPhotoCamera } from '../tools/quality/evaluate.ts';
import { eyePartMask, IRIS_GROW } from '../tools/quality/eye-parts.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
/** Per eye: the lids' middle points, then the corners. */
const EYES = [[159, 145, 33, 133], [386, 374, 263, 362]] as const;
const CHEEKS = [50, 280, 205, 425];

const photos = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const f = (x: number) => x.toFixed(2);

/** Each eye's opening over its width. */
function openings(lm: ArrayLike<number>): number[] {
  const at = (i: number) => landmarkPoint(lm, i);
  return EYES.map(([up, down, a, b]) => Math.hypot(at(up)[0] - at(down)[0], at(up)[1] - at(down)[1]) / Math.hypot(at(a)[0] - at(b)[0], at(a)[1] - at(b)[1]));
}

/** Per pixel of the photo: 1 inside the eye contours less the iris discs, 2 on the cheeks' discs (the iris disc's radius). */
function regions(width: number, height: number, lm: ArrayLike<number>): Uint8Array {
  const mask = eyePartMask(width, height, lm, 'whites');
  const r = Math.max(3, (IRIS_GROW * irisDiameterPx(lm)) / 2);
  for (let i = 0; i < mask.length; i++) {
    const x = (i % width) + 0.5, y = Math.floor(i / width) + 0.5;
    if (!mask[i] && CHEEKS.some((c) => Math.hypot(x - lm[c * 3], y - lm[c * 3 + 1]) <= r)) mask[i] = 2;
  }
  return mask;
}

/** The eyes' median luminance over the cheeks' (linear light). */
function shade(img: RgbImage, mask: Uint8Array): number {
  const eyes: number[] = [], cheeks: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const y = LUMINANCE[0] * srgbToLinear[img.data[i * 3]] + LUMINANCE[1] * srgbToLinear[img.data[i * 3 + 1]] + LUMINANCE[2] * srgbToLinear[img.data[i * 3 + 2]];
    (mask[i] === 1 ? eyes : cheeks).push(y);
  }
  return median(eyes) / median(cheeks);
}

const pipeline = new PhotoPipeline(loadTemplateView);
const ratios: number[] = [], photoShades: number[] = [], avatarShades: number[] = [];
console.log('photo'.padEnd(22), 'opening avatar / photo (L, R)'.padEnd(32), 'eyes over cheeks: photo / avatar');
for (const photo of photos) {
  const result = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: ['expressions'] }, () => {}).catch((e: Error) => e);
  if (result instanceof Error) {
    console.log(`${photo}: refused (${result.message})`);
    continue;
  }
  const { image, landmarks } = result.analysis;
  const render = await renderWithPhotoCamera(result, result.expression);
  const onRender = await detectLandmarks(render);
  if (!onRender) {
    console.log(`${photo}: no face found on the render`);
    continue;
  }
  const onPhoto = openings(landmarks);
  const ratio = openings(onRender).map((o, e) => o / onPhoto[e]);
  const mask = regions(image.width, image.height, landmarks);
  const [p, a] = [shade(image, mask), shade(render, mask)];
  ratios.push(...ratio);
  photoShades.push(p);
  avatarShades.push(a);
  console.log(photo.padEnd(22), ratio.map(f).join(', ').padEnd(32), `${f(p)} / ${f(a)}`);
}
console.log('median'.padEnd(22), `${f(median(ratios))} (${ratios.length} eyes)`.padEnd(32), `${f(median(photoShades))} / ${f(median(avatarShades))}`);
process.exit(0);
