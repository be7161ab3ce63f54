/**
 * Where the mouth's gap and corner lift on the front preview come from (PIPELINE.md, "where the corner lift and the
 * gap come from"): per photo, the landmark detector's reading of the mouth on the preview against the neutral head's
 * own face vertices seen by the preview's camera. Prints, in mouth widths up from the mesh's inner lips' middle, each
 * point as detected / on the mesh (the corners 61 and 291, the inner lips' middle 13 and 14, the lips' outer middle 0
 * and 17, the inner corners 78 and 308), and the detected mouth's width over the mesh's. Writes each preview's mouth,
 * magnified, with the mesh's lip points (green) and the detected ones (red) as DIR/NAME.png.
 *   node --import tsx scripts/mouth-readings.ts DIR PHOTO...
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createPipeline } from '../src/pipeline/index.ts';
import { detectFaces } from '../src/pipeline/face/landmark-model.ts';
import { previewCamera, PREVIEW_SIZE } from '../src/geometry/render/preview.ts';
import { cameraFrame, projectPoint } from '../src/geometry/render/camera.ts';
import { decodeRgb } from '../tools/decode-image.ts';

const READ = [61, 291, 13, 14, 0, 17, 78, 308];
/** Both lip contours, as the detector numbers them. */
const LIPS = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146, 78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95];
/** Margin around the lips (preview pixels) and magnification of the written crops. */
const MARGIN = 40;
const SCALE = 4;

const [dir, ...photos] = process.argv.slice(2);
if (!dir || photos.length === 0) {
  console.error('usage: node --import tsx scripts/mouth-readings.ts DIR PHOTO...');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const pipeline = await createPipeline();
for (const file of photos) {
  const result = await pipeline.run({ inputType: 'photo', file: readFileSync(file), template: '2.0', features: ['basic', 'expressions', 'visemes'] }, () => {});
  const preview = await decodeRgb(result.preview.jpg);
  const faces = await detectFaces(preview.data, preview.width, preview.height);
  const name = path.basename(file, path.extname(file));
  if (faces.length === 0) {
    console.log(`${name}: no face on the preview`);
    continue;
  }
  const detected = faces.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a)).mesh;
  const head = result.model.meshes.find((m) => m.name === 'head')!.geometry.positions;
  const frame = cameraFrame(previewCamera(result.model), PREVIEW_SIZE, PREVIEW_SIZE);
  const onMesh = (i: number): [number, number] => {
    const p = projectPoint(frame, [head[i * 3], head[i * 3 + 1], head[i * 3 + 2]]);
    return [p.x, p.y];
  };
  const width = Math.abs(onMesh(291)[0] - onMesh(61)[0]);
  const middle = (onMesh(13)[1] + onMesh(14)[1]) / 2;
  const up = (y: number) => ((middle - y) / width).toFixed(3);
  const readings = READ.map((i) => `${i} ${up(detected[i][1])} / ${up(onMesh(i)[1])}`);
  console.log(`${name}: ${readings.join(', ')}; width ${((detected[291][0] - detected[61][0]) / width).toFixed(3)}`);

  const xs = LIPS.map((i) => onMesh(i)[0]), ys = LIPS.map((i) => onMesh(i)[1]);
  const x0 = Math.max(0, Math.round(Math.min(...xs) - MARGIN)), y0 = Math.max(0, Math.round(Math.min(...ys) - MARGIN));
  const x1 = Math.min(preview.width, Math.round(Math.max(...xs) + MARGIN)), y1 = Math.min(preview.height, Math.round(Math.max(...ys) + MARGIN));
  const dot = (p: readonly number[], colour: string) => `<circle cx="${(p[0] - x0) * SCALE}" cy="${(p[1] - y0) * SCALE}" r="3" fill="${colour}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${(x1 - x0) * SCALE}" height="${(y1 - y0) * SCALE}">${LIPS.map((i) => dot(onMesh(i), 'lime') + dot(detected[i], 'red')).join('')}</svg>`;
  await sharp(Buffer.from(preview.data), { raw: { width: preview.width, height: preview.height, channels: 3 } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize((x1 - x0) * SCALE, (y1 - y0) * SCALE, { kernel: 'nearest' })
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
    .png()
    .toFile(path.join(dir, `${name}.png`));
}
process.exit(0);
