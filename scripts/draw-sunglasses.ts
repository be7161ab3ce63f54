/**
 * Test photos with opaque sunglasses drawn over their eyes (tools/sunglasses.ts), as JPEGs into a folder: the test
 * photos show none, and `npm run quality -- --previews` on them (before and after a change) feeds
 * scripts/before-after-sheet.ts for docs/sunglasses.png.
 *   node --import tsx scripts/draw-sunglasses.ts OUT_DIR PHOTO... (names in test/fixtures/faces without .jpg)
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodePhoto } from '../src/pipeline/face/analyse.ts';
import { detectFaces } from '../src/pipeline/face/landmark-model.ts';
import { drawSunglasses } from '../tools/sunglasses.ts';

const [out, ...photos] = process.argv.slice(2);
if (!out || photos.length === 0) {
  console.error('usage: node --import tsx scripts/draw-sunglasses.ts OUT_DIR PHOTO...');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
for (const photo of photos) {
  const { image } = await decodePhoto(new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '../test/fixtures/faces', `${photo}.jpg`))));
  const found = await detectFaces(image.data, image.width, image.height);
  const face = found.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  const drawn = drawSunglasses(image, Float32Array.from(face.mesh.flat()));
  await sharp(Buffer.from(drawn.data), { raw: { width: drawn.width, height: drawn.height, channels: 3 } }).jpeg({ quality: 92 }).toFile(path.join(out, `${photo}.jpg`));
  console.log(`wrote ${path.join(out, `${photo}.jpg`)}`);
}
process.exit(0);
