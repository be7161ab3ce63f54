/**
 * The closed lids as the blendshape observer sees them (docs/closed-lids.png): per photo, the eyes open, then each
 * blink drawn as the avatar is and with the head's albedo one flat colour (its maps as they are), labelled with the
 * landmark detector's change of that eye's opening (the observer asks -0.05). Where the flat head reads closed and the
 * textured one does not, the head's texture (the closed lid, and the socket's shade and brows round it) is what the
 * detector reads as an open eye.
 *   node --import tsx scripts/closed-lids-sheet.ts OUT.png PHOTO... (names in test/fixtures/faces without .jpg)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { AvatarModel } from '../src/model/avatar.ts';
import type { RgbaImage } from '../src/geometry/render/image.ts';
import { createPipeline } from '../src/pipeline/index.ts';
import { observeShapes } from '../tools/quality/observe-shapes.ts';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';

const [out, ...photos] = process.argv.slice(2);
if (!out || photos.length === 0) {
  console.error('usage: node --import tsx scripts/closed-lids-sheet.ts OUT.png PHOTO...');
  process.exit(2);
}
const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const BLINKS = ['eyeBlinkRight', 'eyeBlinkLeft'] as const;
/** The eyes' band of the observer's 768 px render. */
const EYES = { left: 104, top: 200, width: 560, height: 130 };
/** The flat albedo: a mid skin tone, sRGB. */
const FLAT = { r: 200, g: 160, b: 140 };

const eyes = async (r: RgbaImage) =>
  new Uint8Array(await sharp(Buffer.from(r.rgba), { raw: { width: r.width, height: r.height, channels: 4 } }).removeAlpha().extract(EYES).png().toBuffer());

/** The model with its head's base colour one flat colour. */
async function flatAlbedo(model: AvatarModel): Promise<AvatarModel> {
  const textures = await Promise.all(
    model.textures.map(async (t) => {
      if (!t.name.startsWith('head_baseColor')) return t;
      const { width, height } = await sharp(Buffer.from(t.data)).metadata();
      return { ...t, data: new Uint8Array(await sharp({ create: { width: width!, height: height!, channels: 3, background: FLAT } }).png().toBuffer()) };
    }),
  );
  return { ...model, textures };
}

const pipeline = await createPipeline();
const cells: SheetCell[] = [];
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: '2.0', features: ['expressions'] }, () => {});
  const drawn = await observeShapes(run.model, BLINKS);
  const flat = await observeShapes(await flatAlbedo(run.model), BLINKS);
  cells.push({ image: await eyes(drawn.neutral.render), label: `${photo}: open` });
  for (let k = 0; k < BLINKS.length; k++) {
    const side = k === 0 ? 'right' : 'left';
    const reading = (o: (typeof drawn.shapes)[number]) => (o.change ? o.change.eyeOpen[side].toFixed(3) : 'no face');
    cells.push({ image: await eyes(drawn.shapes[k].render), label: `${BLINKS[k]}: ${reading(drawn.shapes[k])}` });
    cells.push({ image: await eyes(flat.shapes[k].render), label: `flat albedo: ${reading(flat.shapes[k])}` });
  }
  run.release?.();
}
writeFileSync(
  out,
  await contactSheet(cells, {
    columns: 1 + 2 * BLINKS.length,
    cellWidth: 420,
    cellHeight: 98,
    title: "Closed lids: each blink as drawn and with the head's albedo one flat colour (the detector's eye opening change, closes by 0.05 asked)",
  }),
);
process.exit(0);
