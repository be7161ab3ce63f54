/**
 * docs/subject-matte.png: photos of several people, each drawn with the person matte as the pipeline read it before
 * the subject's share was cut out (every person) and after (subject-matte.ts): what is not the subject's dimmed to
 * blue, the hair region read on that matte tinted red, and the faces the detector found ringed (the modelled one
 * white, the others yellow), with the avatar's front preview beside them.
 *   node --import tsx scripts/subject-matte-sheet.ts [OUT.png] [PHOTO...] (names in test/fixtures/faces without .jpg)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { analyseFace } from '../src/pipeline/face/analyse.ts';
import { estimatePersonMatte, PERSON_ALPHA, type PersonMatte } from '../src/pipeline/face/person-matte.ts';
import { faceSpot, subjectMatte, type FaceSpot } from '../src/pipeline/face/subject-matte.ts';
import { observeHair } from '../src/pipeline/hair/observe.ts';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import type { RgbImage } from '../src/geometry/texture/rgb-image.ts';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';

const here = path.resolve(import.meta.dirname, '..');
const [outArg, ...named] = process.argv.slice(2);
const out = outArg ?? path.join(here, 'docs', 'subject-matte.png');
const photos = named.length ? named : ['couple', 'selfie-many-people'];
const canonical = loadTemplateView('2.0').canonicalFace;
const pipeline = new PhotoPipeline(loadTemplateView);

/** The photo with what is not `matte`'s person dimmed to blue, `hair` tinted red and the faces ringed. */
async function overlay(image: RgbImage, matte: PersonMatte, hair: Uint8Array, subject: FaceSpot, others: FaceSpot[]): Promise<Uint8Array> {
  const { width, height, data } = image;
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    let [r, g, b] = [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]];
    if (matte.alpha[i] < PERSON_ALPHA) [r, g, b] = [r * 0.4, g * 0.4, b * 0.4 + 80];
    if (hair[i]) [r, g, b] = [r * 0.5 + 127, g * 0.5, b * 0.5];
    rgb.set([r, g, b], i * 3);
  }
  const ring = (f: FaceSpot, colour: string) =>
    `<circle cx="${f.centre[0]}" cy="${f.centre[1]}" r="${f.size / 2}" fill="none" stroke="${colour}" stroke-width="${Math.max(2, width / 300)}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${ring(subject, 'white')}${others.map((f) => ring(f, 'yellow')).join('')}</svg>`;
  return new Uint8Array(await sharp(rgb, { raw: { width, height, channels: 3 } }).composite([{ input: Buffer.from(svg) }]).png().toBuffer());
}

const cells: SheetCell[] = [];
for (const name of photos) {
  const file = new Uint8Array(readFileSync(path.join(here, 'test/fixtures/faces', `${name}.jpg`)));
  const a = await analyseFace(file, canonical);
  const everyone = await estimatePersonMatte(a.image);
  const subject = faceSpot(a.landmarks);
  const own = subjectMatte(everyone, subject, a.otherFaces);
  for (const [matte, label] of [[everyone, 'every person'], [own, "the subject's share"]] as const) {
    const hair = observeHair(a.image, a.landmarks, matte);
    cells.push({ image: await overlay(a.image, matte, hair.mask.alpha, subject, a.otherFaces), label: `${name}: ${label} (hair ${hair.length})` });
  }
  const r = await pipeline.run({ inputType: 'photo', file, template: '2.0', features: [] }, () => {});
  cells.push({ image: r.preview.png, label: `avatar: ${r.meta.hairstyle}` });
  console.log(name, a.otherFaces.length, 'other faces');
}
writeFileSync(out, await contactSheet(cells, { columns: 3, cellWidth: 480, cellHeight: 400, title: "The person matte cut to the subject's share: other found faces (yellow) keep theirs" }));
console.log(`wrote ${out}`);
