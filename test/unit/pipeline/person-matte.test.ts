import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodePhoto } from '../../../src/pipeline/face/analyse.ts';
import { detectFaces } from '../../../src/pipeline/face/landmark-model.ts';
import { estimatePersonMatte, innerMatte, type PersonMatte } from '../../../src/pipeline/face/person-matte.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', faces), 'utf8')) as { photos: { file: string; person: string }[] };
const portraits = manifest.photos.filter((p) => p.person !== 'multi').map((p) => p.file);

/** Mean alpha (0..1) over a rectangle of the matte. */
function meanAlpha(m: PersonMatte, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(m.height, Math.ceil(y1)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(m.width, Math.ceil(x1)); x++) {
      sum += m.alpha[y * m.width + x];
      n++;
    }
  }
  return sum / n / 255;
}

test('the person matte covers the face and leaves the top corners of every portrait out', async () => {
  for (const file of portraits) {
    const { image } = await decodePhoto(new Uint8Array(readFileSync(new URL(file, faces))));
    const matte = await estimatePersonMatte(image);
    assert.equal(matte.width, image.width);
    assert.equal(matte.height, image.height);
    assert.equal(matte.alpha.length, image.width * image.height);

    const [face] = await detectFaces(image.data, image.width, image.height);
    const xs = face.mesh.slice(0, 468).map((p) => p[0]);
    const ys = face.mesh.slice(0, 468).map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // The inner half of the landmarks' box: forehead, eyes, nose, mouth.
    const [w, h] = [x1 - x0, y1 - y0];
    const inner = meanAlpha(matte, x0 + w / 4, y0 + h / 4, x1 - w / 4, y1 - h / 4);
    assert.ok(inner > 0.95, `${file}: the face is ${inner.toFixed(2)} person`);
    const c = Math.round(Math.min(image.width, image.height) * 0.08);
    for (const [cx, cy] of [[0, 0], [image.width - c, 0]]) {
      const corner = meanAlpha(matte, cx, cy, cx + c, cy + c);
      assert.ok(corner < 0.1, `${file}: the corner at ${cx},${cy} is ${corner.toFixed(2)} person`);
    }
  }
});

test('the inner matte drops a band of one network cell and a pixel along the edge, and keeps the rest', () => {
  // 512 wide: one cell of the 256 grid is 2 pixels, so the band is 3 pixels.
  const [width, height] = [512, 40];
  const alpha = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 100; x < 300; x++) alpha[y * width + x] = x < 200 ? 255 : 150;
  const inner = innerMatte({ width, height, alpha });
  const at = (x: number) => inner[20 * width + x];
  assert.deepEqual([at(102), at(103), at(150), at(196), at(197)], [0, 255, 255, 255, 150]);
  assert.deepEqual([at(296), at(297), at(299)], [150, 0, 0]);
});
