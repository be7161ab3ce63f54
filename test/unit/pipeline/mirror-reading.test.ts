import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mirrorImage, mirroredBack, mirrorPartners } from '../../../src/pipeline/face/mirror-reading.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X } from '../../../src/pipeline/face/pose.ts';

const canonical = loadTemplateView('2.0').canonicalFace;

test("each landmark's mirror partner is the point across the canonical face, and its partner's partner is itself", () => {
  const partner = mirrorPartners(canonical);
  let midline = 0;
  for (let i = 0; i < FACE_POINTS; i++) {
    const j = partner[i];
    assert.equal(partner[j], i, `${i} -> ${j} -> ${partner[j]}`);
    assert.ok(Math.abs(canonical[i * 3] + canonical[j * 3]) < 1e-3 && Math.abs(canonical[i * 3 + 1] - canonical[j * 3 + 1]) < 1e-3, `${i} and ${j} mirror each other`);
    if (j === i) midline++;
  }
  // The face's midline (forehead, nose, lips, chin) has its own points; the eyes and the irises swap.
  assert.ok(midline > 10 && midline < 40, `midline points ${midline}`);
  assert.equal(partner[IRIS_PLUS_X], IRIS_MINUS_X);
  assert.equal(partner[IRIS_MINUS_X + 4], IRIS_PLUS_X + 4);
  assert.equal(partner[33], 263, "the right eye's outer corner is the left's");
  assert.equal(mirrorPartners(loadTemplateView('2.0').canonicalFace), partner, 'made once per template');
});

test('the mirror image of the mirror image is the image; a reading on it mirrored back lands on the same pixels', () => {
  const width = 7, height = 3;
  const data = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 37) % 251);
  const image = { width, height, data };
  const once = mirrorImage(image);
  assert.deepEqual(Array.from(once.data.subarray(0, 3)), Array.from(data.subarray((width - 1) * 3, width * 3)));
  assert.deepEqual(mirrorImage(once).data, data);
  // A "reading" of the image: landmark i at pixel (i % width, ...); on the mirror image each landmark's partner sits
  // at the mirrored pixel, as a detector would put it.
  const partner = mirrorPartners(canonical);
  const reading = Float32Array.from({ length: 478 * 3 }, (_, k) => (k % 3 === 0 ? (k / 3) % width : k % 3 === 1 ? (k / 3) % height : -k));
  const onMirror = new Float32Array(478 * 3);
  for (let i = 0; i < 478; i++) {
    const j = partner[i];
    onMirror.set([width - 1 - reading[i * 3], reading[i * 3 + 1], reading[i * 3 + 2]], j * 3);
  }
  assert.deepEqual(mirroredBack(onMirror, width, partner), reading);
});
