import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outlineOnPerson } from '../../../src/pipeline/face/outline-on-person.ts';
import { mirrorPartners } from '../../../src/pipeline/face/mirror-reading.ts';
import { FACE_OVAL } from '../../../src/pipeline/face/face-regions.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { signedPolygonDistance } from '../../../src/geometry/spatial/polygon-distance.ts';

const canonical = loadTemplateView('2.0').canonicalFace;
const partners = mirrorPartners(canonical);
/** 256 px square: one matte cell a pixel. The face 10 px per cm around (128, 128), image y down. */
const SIZE = 256;
const toImage = (i: number) => [128 + 10 * canonical[i * 3], 128 - 10 * canonical[i * 3 + 1]];

/**
 * The landmark model's reading with the outline's points right of the face's middle `out` px further out (and 1 cm
 * further right in the head frame), and a matte of the face as it is: the person up to 1 px beyond the true outline.
 */
function reading(out: number) {
  const landmarks = new Float32Array(478 * 3), head = new Float32Array(478 * 3);
  for (let i = 0; i < 468; i++) {
    const [x, y] = toImage(i);
    landmarks.set([x, y, 0], i * 3);
    head.set([canonical[i * 3], canonical[i * 3 + 1], canonical[i * 3 + 2]], i * 3);
  }
  const outline = FACE_OVAL.map((i) => toImage(i) as [number, number]);
  const right = FACE_OVAL.filter((i) => canonical[i * 3] > 1);
  const [cx, cy] = [0, 1].map((k) => outline.reduce((sum, p) => sum + p[k], 0) / outline.length);
  for (const i of right) {
    const [x, y] = toImage(i), d = Math.hypot(x - cx, y - cy);
    landmarks[i * 3] += ((x - cx) / d) * out;
    landmarks[i * 3 + 1] += ((y - cy) / d) * out;
    head[i * 3] += out > 0 ? 1 : 0;
  }
  const alpha = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) alpha[y * SIZE + x] = signedPolygonDistance(outline, x, y) > -1 ? 255 : 0;
  return { landmarks, head, matte: { width: SIZE, height: SIZE, alpha }, right };
}

test("an outline the landmark model put on the background takes its mirror partner's place, mirrored, and the face beside it goes along", () => {
  const { landmarks, head, matte, right } = reading(20);
  const fitted = outlineOnPerson(landmarks, head, matte, partners);
  for (const i of right) {
    const j = partners[i];
    assert.ok(Math.abs(fitted[i * 3] + canonical[j * 3]) < 1e-5, `${i} across from ${j}: x ${fitted[i * 3]}`);
    assert.equal(fitted[i * 3 + 1], head[j * 3 + 1]);
    assert.equal(fitted[i * 3 + 2], head[j * 3 + 2]);
  }
  // The face's points beside them go along (the outline alone would fold the cheek inside it), those far off stay, and
  // the irises are not the face's.
  let beside = 0;
  for (let k = 0; k < 478; k++) {
    if (right.includes(k)) continue;
    const near = Math.min(...right.map((i) => Math.hypot(canonical[k * 3] - canonical[i * 3], canonical[k * 3 + 1] - canonical[i * 3 + 1], canonical[k * 3 + 2] - canonical[i * 3 + 2])));
    const moved = Math.hypot(fitted[k * 3] - head[k * 3], fitted[k * 3 + 1] - head[k * 3 + 1], fitted[k * 3 + 2] - head[k * 3 + 2]);
    if (k < 468 && near < 1) {
      beside++;
      assert.ok(moved > 0.5, `${k}, ${near.toFixed(2)} cm from the outline, moved ${moved.toFixed(2)} cm of its 1`);
    }
    if (k >= 468 || near > 8) assert.ok(moved < 0.01, `${k}, ${near.toFixed(2)} cm off, moved ${moved.toFixed(3)} cm`);
  }
  assert.ok(beside >= 2, `${beside} points within 1 cm`);
  // The reading given is left as it was.
  assert.notEqual(fitted, head);
  assert.ok(Math.abs(head[right[0] * 3] - (canonical[right[0] * 3] + 1)) < 1e-5);
});

test("an outline within the matte's two cells of the person, or on it, is the landmark model's", () => {
  for (const out of [0, 2]) {
    const { landmarks, head, matte } = reading(out);
    assert.equal(outlineOnPerson(landmarks, head, matte, partners), head, `${out} px out`);
  }
});
