import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { contactSheet } from '../../../tools/contact-sheet.ts';

const solid = (r: number, g: number, b: number) =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: { r, g, b } } }).png().toBuffer();

test('a contact sheet lays images out in a grid with labels under them', async () => {
  const images = [await solid(255, 0, 0), await solid(0, 255, 0), await solid(0, 0, 255)];
  const png = await contactSheet(
    images.map((img, i) => ({ image: new Uint8Array(img), label: `cell <${i}> & more` })),
    { columns: 2, cellWidth: 100, cellHeight: 100, labelHeight: 20, gap: 10, title: 'Gallery' },
  );
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  // Two columns of 100 with 10 px gaps; title 32 px, then two rows of 100 + 20 label + 10 gap.
  assert.equal(info.width, 10 + 2 * 110);
  assert.equal(info.height, 10 + 32 + 2 * 130);
  const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
  // Images are scaled to fit (40x20 -> 100x50) and centred in their box.
  assert.deepEqual(at(10 + 50, 42 + 50), [255, 0, 0]);
  assert.deepEqual(at(120 + 50, 42 + 50), [0, 255, 0]);
  assert.deepEqual(at(10 + 50, 42 + 130 + 50), [0, 0, 255]);
  assert.deepEqual(at(10 + 50, 42 + 10), [255, 255, 255], 'letterbox keeps the background');
  // Some dark text pixels in the first label strip and the title.
  const dark = (y0: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = 10; x < 110; x++) if (at(x, y)[0] < 128) n++;
    return n;
  };
  assert.ok(dark(142, 162) > 20, 'label drawn');
  assert.ok(dark(10, 42) > 20, 'title drawn');
  assert.equal(dark(42 + 130 + 100, 42 + 130 + 120) > 0, true, 'second row label drawn');
});
