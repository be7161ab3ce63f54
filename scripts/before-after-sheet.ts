/**
 * A sheet of photo | avatar before | avatar after, one row per photo, from two folders of previews written by
 * `npm run quality -- --previews DIR` (e.g. on main and on a branch). A folder may carry its column's label as
 * `LABEL=DIR` (default "before", "after"); with six or more photos two rows share a line.
 *   node --import tsx scripts/before-after-sheet.ts OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR "TITLE" PHOTO...
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { contactSheet } from '../tools/contact-sheet.ts';

const [out, before, after, title, ...photos] = process.argv.slice(2);
if (!out || !before || !after || photos.length === 0) {
  console.error('usage: node --import tsx scripts/before-after-sheet.ts OUT.png [LABEL=]BEFORE_DIR [LABEL=]AFTER_DIR TITLE PHOTO...');
  process.exit(2);
}
const column = (arg: string, fallback: string) => (arg.includes('=') ? { label: arg.slice(0, arg.indexOf('=')), dir: arg.slice(arg.indexOf('=') + 1) } : { label: fallback, dir: arg });
const columns = [column(before, 'before'), column(after, 'after')];
const preview = (dir: string, photo: string) => new Uint8Array(readFileSync(path.join(dir, path.basename(photo).replace(/\.\w+$/, '.jpg'))));
const cells = photos.flatMap((p) => [
  { image: new Uint8Array(readFileSync(p)), label: path.basename(p) },
  ...columns.map((c) => ({ image: preview(c.dir, p), label: c.label })),
]);
const sheet = await contactSheet(cells, { columns: photos.length >= 6 ? 6 : 3, cellWidth: 300, cellHeight: 300, title });
writeFileSync(out, await sharp(sheet).png({ palette: true, quality: 90, effort: 7 }).toBuffer());
