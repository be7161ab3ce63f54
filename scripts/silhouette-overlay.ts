/**
 * Where the head-silhouette figure is lost, per photo: the photo's person matte against the avatar's alpha
 * (as the quality figure compares them) over the photo inside the head region: green both, red the photo
 * only (the avatar is too small there), blue the avatar only (too big), yellow the outline of the hair
 * region the pipeline observed. Prints each photo's figure, the same figure taken from the front preview
 * (the earlier measure), the chosen style and where the misses lie (above the top of the face, beside it,
 * below it).
 *   node --import tsx scripts/silhouette-overlay.ts [--sheet out.png] [--dir DIR] PHOTO...
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PhotoPipeline, type PhotoPipelineResult } from '../src/pipeline/photo-pipeline.ts';
import { PipelineError } from '../src/pipeline/errors.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { detectFaces, landmarkModel } from '../src/pipeline/face/landmark-model.ts';
import { headSilhouetteIoU, labelsIoU, SILHOUETTE_LABEL } from '../tools/quality/head-silhouette.ts';
import { headSilhouetteLabelsOf, RENDER_BACKGROUND } from '../tools/quality/evaluate.ts';
import { faceFrame, toFace } from '../src/pipeline/hair/face-frame.ts';
import { contactSheet } from '../tools/contact-sheet.ts';

const args = process.argv.slice(2);
let sheet = '';
let dir = '';
const photos: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--sheet') sheet = args[++i];
  else if (args[i] === '--dir') dir = args[++i];
  else photos.push(args[i]);
}
if (photos.length === 0) {
  console.error('usage: node --import tsx scripts/silhouette-overlay.ts [--sheet out.png] [--dir DIR] PHOTO...');
  process.exit(2);
}

/** The earlier figure: the front preview's alpha aligned on the photo's landmarks. */
async function previewFigure(result: PhotoPipelineResult): Promise<number> {
  const { data, info } = await sharp(result.preview.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const alpha = new Uint8Array(n);
  const rgb = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const a = data[i * 4 + 3];
    alpha[i] = a;
    for (let k = 0; k < 3; k++) rgb[i * 3 + k] = Math.round((data[i * 4 + k] * a + RENDER_BACKGROUND[k] * (255 - a)) / 255);
  }
  const faces = await detectFaces(rgb, info.width, info.height);
  if (faces.length === 0) return NaN;
  const face = faces.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  return headSilhouetteIoU(result.matte, result.analysis.landmarks, { width: info.width, height: info.height, alpha }, new Float32Array(face.mesh.flat()));
}

await landmarkModel();
const pipeline = new PhotoPipeline(loadTemplateView);
const cells: { image: Uint8Array; label: string }[] = [];
const figures: number[] = [];
const previewFigures: number[] = [];
if (dir) mkdirSync(dir, { recursive: true });
for (const file of photos) {
  const name = path.basename(file);
  let result: PhotoPipelineResult;
  try {
    result = await pipeline.run({ inputType: 'photo', file: readFileSync(file), template: '2.0', features: ['basic'] }, () => {});
  } catch (e) {
    if (!(e instanceof PipelineError)) throw e;
    console.log(name.padEnd(24), 'refused:', e.message);
    continue;
  }
  const labels = await headSilhouetteLabelsOf(result);
  const img = result.analysis.image;
  const frame = faceFrame(result.analysis.landmarks);
  // Misses by place: above the face's top (t > 1), beside the face (|s| > 0.5), the rest.
  const miss = { photoTop: 0, photoSide: 0, photoLow: 0, avatarTop: 0, avatarSide: 0, avatarLow: 0 };
  let either = 0;
  const out = Buffer.alloc(img.width * img.height * 3);
  const hair = result.hair.mask.alpha;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = y * img.width + x;
      const grey = (img.data[i * 3] + img.data[i * 3 + 1] + img.data[i * 3 + 2]) / 3;
      let c: [number, number, number] = [grey * 0.35, grey * 0.35, grey * 0.35];
      const l = labels[i];
      if (l !== SILHOUETTE_LABEL.outside) {
        c = [grey * 0.6, grey * 0.6, grey * 0.6];
        const [s, t] = toFace(frame, x, y);
        const place = t > 1 ? 'Top' : Math.abs(s) > 0.5 ? 'Side' : 'Low';
        if (l === SILHOUETTE_LABEL.both) (c = [60, 200, 60]), either++;
        if (l === SILHOUETTE_LABEL.photoOnly) (c = [230, 40, 40]), either++, miss[`photo${place}`]++;
        if (l === SILHOUETTE_LABEL.avatarOnly) (c = [50, 90, 255]), either++, miss[`avatar${place}`]++;
      }
      const edge = hair[i] > 127 && ((x > 0 && hair[i - 1] <= 127) || (x < img.width - 1 && hair[i + 1] <= 127) || (y > 0 && hair[i - img.width] <= 127) || (y < img.height - 1 && hair[i + img.width] <= 127));
      if (edge) c = [255, 230, 0];
      out.set(c.map(Math.round), i * 3);
    }
  }
  const figure = labelsIoU(labels);
  const earlier = await previewFigure(result);
  figures.push(figure);
  previewFigures.push(earlier);
  const png = await sharp(out, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
  if (dir) writeFileSync(path.join(dir, name.replace(/\.\w+$/, '.png')), png);
  const h = result.hair;
  const pct = (v: number) => ((100 * v) / either).toFixed(1).padStart(5);
  const top = (result.hairChoice?.scores ?? []).slice(0, 3).map((s) => `${s.name}@${s.volume.toFixed(2)} ${s.outline.toFixed(2)}/${s.hair.toFixed(2)}/${s.score.toFixed(2)}`).join(', ');
  console.log(
    name.padEnd(24),
    figure.toFixed(3),
    `preview ${earlier.toFixed(3)}`,
    `photo-only top/side/low ${pct(miss.photoTop)} ${pct(miss.photoSide)} ${pct(miss.photoLow)}`,
    `avatar-only ${pct(miss.avatarTop)} ${pct(miss.avatarSide)} ${pct(miss.avatarLow)}`,
    `| ${result.meta.hairstyle} | obs ${h.bald ? 'bald ' : ''}${h.length} fringe ${h.fringe.toFixed(2)} ${h.parting} | ${top}`,
  );
  cells.push({ image: png, label: `${name} ${figure.toFixed(3)} ${result.meta.hairstyle}` });
}
const mean = (v: number[]) => (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3);
console.log('mean', mean(figures), 'lowest', Math.min(...figures).toFixed(3), '| preview mean', mean(previewFigures), 'lowest', Math.min(...previewFigures).toFixed(3));
if (sheet) writeFileSync(sheet, await contactSheet(cells, { columns: 5, cellWidth: 300, cellHeight: 300, title: 'Head silhouette: green both, red photo only, blue avatar only, yellow observed hair' }));
