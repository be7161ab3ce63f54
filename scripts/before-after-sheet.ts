/**
 * A sheet of photo | avatar before | avatar after, one row per photo, from two folders of previews written by
 * `npm run quality -- --previews DIR` (e.g. on main and on a branch). A folder may carry its column's label as
 * `LABEL=DIR` (default "before", "after"); with six or more photos two rows share a line. `--crop X,Y,W,H` shows that
 * part of each preview (pixels of the 1024 px preview: 280,320,464,220 holds the eyes of most test photos), larger.
 *   node --import tsx scripts/before-after-sheet.ts [--crop X,Y,W,H] OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR "TITLE" PHOTO...
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { contactSheet } from '../tools/contact-sheet.ts';

const args = process.argv.slice(2);
const cropAt = args.indexOf('--crop');
const crop = cropAt >= 0 ? args.splice(cropAt, 2)[1].split(',').map(Number) : undefined;
const [out, before, after, title, ...photos] = args;
if (!out || !before || !after || photos.length === 0 || (crop && (crop.length !== 4 || crop.some((v) => !(v >= 0))))) {
  console.error('usage: node --import tsx scripts/before-after-sheet.ts [--crop X,Y,W,H] OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR TITLE PHOTO...');
  process.exit(2);
}
const column = (arg: string, fallback: string) => (arg.includes('=') ? { label: arg.slice(0, arg.indexOf('=')), dir: arg.slice(arg.indexOf('=') + 1) } : { label: fallback, dir: arg });
const columns = [column(before, 'before'), column(after, 'after')];
const preview = async (dir: string, photo: string) => {
  const jpg = readFileSync(path.join(dir, path.basename(photo).replace(/\.\w+$/, '.jpg')));
  return new Uint8Array(crop ? await sharp(jpg).extract({ left: crop[0], top: crop[1], width: crop[2], height: crop[3] }).png().toBuffer() : jpg);
};
const cells = (
  await Promise.all(photos.map(async (p) => [
    { image: new Uint8Array(readFileSync(p)), label: path.basename(p) },
    ...(await Promise.all(columns.map(async (c) => ({ image: await preview(c.dir, p), label: c.label })))),
  ]))
).flat();
// A crop is wide: one photo per row, the cells in the crop's shape.
const cell = crop ? { cellWidth: 420, cellHeight: Math.round((420 * crop[3]) / crop[2]) } : { cellWidth: 300, cellHeight: 300 };
const sheet = await contactSheet(cells, { columns: crop ? 3 : photos.length >= 6 ? 6 : 3, ...cell, title });
writeFileSync(out, await sharp(sheet).png({ palette: true, quality: 90, effort: 7 }).toBuffer());
