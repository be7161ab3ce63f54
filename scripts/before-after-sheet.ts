/**
 * A sheet of photo | avatar before | avatar after, one row per photo, from two folders of previews written by
 * `npm run quality -- --previews DIR` (e.g. on main and on a branch). A folder may carry its column's label as
 * `LABEL=DIR` (default "before", "after"); with six or more photos two rows share a line. `--crop X,Y,W,H` shows that
 * part of each preview (pixels of the 1024 px preview: 280,320,464,220 holds the eyes of most test photos), larger;
 * with `--photo-eyes` as well, the photo's column shows its own eyes (found by the landmark model) in the crop's shape.
 *   node --import tsx scripts/before-after-sheet.ts [--crop X,Y,W,H [--photo-eyes]] OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR "TITLE" PHOTO...
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { contactSheet } from '../tools/contact-sheet.ts';
import { decodePhoto } from '../src/pipeline/face/analyse.ts';
import { detectFaces } from '../src/pipeline/face/landmark-model.ts';
import { EYE_CONTOURS } from '../src/pipeline/face/face-regions.ts';

const args = process.argv.slice(2);
const cropAt = args.indexOf('--crop');
const crop = cropAt >= 0 ? args.splice(cropAt, 2)[1].split(',').map(Number) : undefined;
const eyesAt = args.indexOf('--photo-eyes');
const photoEyes = eyesAt >= 0 && args.splice(eyesAt, 1).length > 0;
const [out, before, after, title, ...photos] = args;
if (!out || !before || !after || photos.length === 0 || (crop && (crop.length !== 4 || crop.some((v) => !(v >= 0)))) || (photoEyes && !crop)) {
  console.error('usage: node --import tsx scripts/before-after-sheet.ts [--crop X,Y,W,H [--photo-eyes]] OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR TITLE PHOTO...');
  process.exit(2);
}
const column = (arg: string, fallback: string) => (arg.includes('=') ? { label: arg.slice(0, arg.indexOf('=')), dir: arg.slice(arg.indexOf('=') + 1) } : { label: fallback, dir: arg });
const columns = [column(before, 'before'), column(after, 'after')];
const preview = async (dir: string, photo: string) => {
  const jpg = readFileSync(path.join(dir, path.basename(photo).replace(/\.\w+$/, '.jpg')));
  return new Uint8Array(crop ? await sharp(jpg).extract({ left: crop[0], top: crop[1], width: crop[2], height: crop[3] }).png().toBuffer() : jpg);
};
/** The photo's eyes: the box of both eye contours, widened by half each way, in the crop's shape. */
const eyesOf = async (file: Uint8Array) => {
  const { image } = await decodePhoto(file);
  const face = (await detectFaces(image.data, image.width, image.height))[0];
  if (!face) return file;
  const points = EYE_CONTOURS.flat().map((i) => face.mesh[i]);
  const [x0, x1] = [Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0]))];
  const cy = (Math.min(...points.map((p) => p[1])) + Math.max(...points.map((p) => p[1]))) / 2;
  const width = Math.min(image.width, (x1 - x0) * 1.5);
  const height = Math.min(image.height, (width * crop![3]) / crop![2]);
  const left = Math.round(Math.max(0, Math.min(image.width - width, (x0 + x1) / 2 - width / 2)));
  const top = Math.round(Math.max(0, Math.min(image.height - height, cy - height / 2)));
  const raw = sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 3 } });
  return new Uint8Array(await raw.extract({ left, top, width: Math.floor(width), height: Math.floor(height) }).png().toBuffer());
};
const cells = (
  await Promise.all(photos.map(async (p) => [
    { image: photoEyes ? await eyesOf(new Uint8Array(readFileSync(p))) : new Uint8Array(readFileSync(p)), label: path.basename(p) },
    ...(await Promise.all(columns.map(async (c) => ({ image: await preview(c.dir, p), label: c.label })))),
  ]))
).flat();
// A crop is wide: one photo per row, the cells in the crop's shape.
const cell = crop ? { cellWidth: 420, cellHeight: Math.round((420 * crop[3]) / crop[2]) } : { cellWidth: 300, cellHeight: 300 };
const sheet = await contactSheet(cells, { columns: crop ? 3 : photos.length >= 6 ? 6 : 3, ...cell, title });
writeFileSync(out, await sharp(sheet).png({ palette: true, quality: 90, effort: 7 }).toBuffer());
