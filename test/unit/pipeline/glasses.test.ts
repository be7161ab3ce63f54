import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodePhoto } from '../../../src/pipeline/face/analyse.ts';
import { detectFaces } from '../../../src/pipeline/face/landmark-model.ts';
import { detectGlasses, glassesFrameMask } from '../../../src/pipeline/face/glasses.ts';
import { fillMasked } from '../../../src/geometry/texture/fill-masked.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', faces), 'utf8')) as { photos: { file: string; person: string }[] };
/** Looked at every test photo: only this one shows a person wearing glasses. */
const WITH_GLASSES = ['p08-a.jpg'];

async function landmarksOf(file: string) {
  const { image } = await decodePhoto(new Uint8Array(readFileSync(new URL(file, faces))));
  const found = await detectFaces(image.data, image.width, image.height);
  const face = found.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  return { image, lm: Float32Array.from(face.mesh.flat()) };
}

test('glasses are found on the photo with glasses and on no other', async () => {
  for (const { file } of manifest.photos) {
    const { image, lm } = await landmarksOf(file);
    const found = detectGlasses(image, lm);
    assert.equal(found.present, WITH_GLASSES.includes(file), `${file}: ${JSON.stringify(found.evidence)}`);
  }
});

test('after the frame is filled from the skin around it, no glasses are found and the eyes are untouched', async () => {
  const { image, lm } = await landmarksOf(WITH_GLASSES[0]);
  const mask = glassesFrameMask(image, lm);
  const clean = fillMasked(image, mask);
  const after = detectGlasses(clean, lm);
  assert.equal(after.present, false, JSON.stringify(after.evidence));
  // The irises' centres keep their pixels; only masked pixels change.
  for (const iris of [468, 473]) {
    const i = (Math.round(lm[iris * 3 + 1]) * image.width + Math.round(lm[iris * 3])) * 3;
    assert.deepEqual(Array.from(clean.data.subarray(i, i + 3)), Array.from(image.data.subarray(i, i + 3)));
  }
  for (let p = 0; p < mask.length; p++) {
    if (mask[p]) continue;
    if (clean.data[p * 3] !== image.data[p * 3]) assert.fail(`pixel ${p} outside the frame changed`);
  }
});

test('the fill over a frame keeps the texture of the skin around it, not a blur', () => {
  const size = 120;
  const data = new Uint8Array(size * size * 3);
  // Skin with a pore-like grain (a fixed pseudo-random pattern), and a frame: a dark band 8 px high.
  let seed = 7;
  const grain = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 30;
  const mask = new Uint8Array(size * size);
  for (let p = 0; p < size * size; p++) {
    const y = Math.floor(p / size);
    const g = grain();
    const frame = y >= 56 && y < 64;
    data.set(frame ? [40, 30, 25] : [180 + g, 140 + g, 120 + g], p * 3);
    mask[p] = frame ? 1 : 0;
  }
  const clean = fillMasked({ width: size, height: size, data }, mask);
  const stats = (y0: number, y1: number) => {
    const v: number[] = [];
    for (let y = y0; y < y1; y++) for (let x = 10; x < size - 10; x++) v.push(clean.data[(y * size + x) * 3 + 1]);
    const mean = v.reduce((s, a) => s + a, 0) / v.length;
    return { mean, sd: Math.sqrt(v.reduce((s, a) => s + (a - mean) ** 2, 0) / v.length) };
  };
  const [band, skin] = [stats(56, 64), stats(30, 50)];
  assert.ok(Math.abs(band.mean - skin.mean) < 4, `filled ${band.mean.toFixed(1)} vs skin ${skin.mean.toFixed(1)}`);
  assert.ok(band.sd > 0.6 * skin.sd, `texture: filled sd ${band.sd.toFixed(1)} vs skin ${skin.sd.toFixed(1)}`);
});
