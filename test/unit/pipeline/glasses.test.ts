import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodePhoto } from '../../../src/pipeline/face/analyse.ts';
import { detectFaces } from '../../../src/pipeline/face/landmark-model.ts';
import { detectGlasses, glassesFrameMask, fillMasked } from '../../../src/pipeline/face/glasses.ts';

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
