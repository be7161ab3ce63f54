import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignedIoU, alignedLabels, avatarLandmarks, labelsIoU, SILHOUETTE_LABEL, fitSimilarity2, headSilhouetteIoU, invertSimilarity2, STABLE_LANDMARKS, type Mask, type Similarity2 } from '../../../tools/quality/head-silhouette.ts';
import type { PhotoCamera } from '../../../src/geometry/texture/photo-camera.ts';

const apply = (m: Similarity2, [x, y]: [number, number]): [number, number] => [m.a * x - m.b * y + m.tx, m.b * x + m.a * y + m.ty];
const identity: Similarity2 = { a: 1, b: 0, tx: 0, ty: 0 };
const everywhere = () => true;

function mask(width: number, height: number, inside: (x: number, y: number) => boolean): Mask {
  const alpha = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) alpha[y * width + x] = inside(x, y) ? 255 : 0;
  return { width, height, alpha };
}
const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

test('the similarity fit recovers a known scale, rotation and translation', () => {
  const angle = (30 * Math.PI) / 180;
  const truth: Similarity2 = { a: 1.7 * Math.cos(angle), b: 1.7 * Math.sin(angle), tx: 12, ty: -40 };
  const from: [number, number][] = [[0, 0], [10, 3], [4, 17], [-6, 9], [20, -5]];
  const fit = fitSimilarity2(from, from.map((p) => apply(truth, p)));
  for (const k of ['a', 'b', 'tx', 'ty'] as const) assert.ok(Math.abs(fit[k] - truth[k]) < 1e-9, `${k}: ${fit[k]} vs ${truth[k]}`);
  const back = invertSimilarity2(fit);
  const [x, y] = apply(back, apply(fit, [3, 4]));
  assert.ok(Math.abs(x - 3) < 1e-9 && Math.abs(y - 4) < 1e-9);
});

test('IoU of masks: 1 for the same mask, 0 for disjoint ones, the lens area for two overlapping discs', () => {
  const a = mask(200, 200, disc(100, 100, 40));
  assert.equal(alignedIoU(a, a, identity, everywhere), 1);
  assert.equal(alignedIoU(a, mask(200, 200, disc(20, 20, 10)), identity, everywhere), 0);
  // Two discs of radius r with centres r apart: lens area (2π/3 - √3/2) r², union 2πr² minus it.
  const b = mask(200, 200, disc(140, 100, 40));
  const lens = (2 * Math.PI) / 3 - Math.sqrt(3) / 2;
  const expected = lens / (2 * Math.PI - lens);
  assert.ok(Math.abs(alignedIoU(a, b, identity, everywhere) - expected) < 0.01, `${alignedIoU(a, b, identity, everywhere)} vs ${expected}`);
});

test('per-pixel labels: both, photo only, avatar only, neither and outside the region; their IoU is the figure', () => {
  const photo = mask(10, 1, (x) => x < 6);
  const avatar = mask(10, 1, (x) => x >= 3 && x < 8);
  const labels = alignedLabels(photo, avatar, identity, (x) => x < 9);
  const L = SILHOUETTE_LABEL;
  assert.deepEqual([...labels], [L.photoOnly, L.photoOnly, L.photoOnly, L.both, L.both, L.both, L.avatarOnly, L.avatarOnly, L.neither, L.outside]);
  assert.equal(labelsIoU(labels), 3 / 8);
  assert.equal(alignedIoU(photo, avatar, identity, (x) => x < 9), 3 / 8);
});

test('the avatar mask is mapped onto the photo before counting, and only the region counts', () => {
  const photo = mask(300, 300, (x, y) => x > 100 && x < 200 && y > 50 && y < 250);
  // The same rectangle at half the size, shifted: mapped back by its similarity it matches exactly.
  const avatar = mask(200, 200, (x, y) => x > 20 && x < 70 && y > 5 && y < 105);
  const avatarToPhoto: Similarity2 = { a: 2, b: 0, tx: 60, ty: 40 };
  assert.ok(alignedIoU(photo, avatar, avatarToPhoto, everywhere) > 0.97);
  assert.ok(alignedIoU(photo, avatar, identity, everywhere) < 0.2);
  // Cut the avatar's lower half: over the whole image the IoU halves, over the upper half it stays whole.
  const upper = mask(200, 200, (x, y) => x > 20 && x < 70 && y > 5 && y < 55);
  assert.ok(Math.abs(alignedIoU(photo, upper, avatarToPhoto, everywhere) - 0.5) < 0.03);
  assert.ok(alignedIoU(photo, upper, avatarToPhoto, (_x, y) => y < 150) > 0.97);
});

test('the head figure aligns on the stable landmarks and counts above the chin only', () => {
  // Landmarks of a face 100 px wide, chin at y 200, top of the face mesh at y 60, eyes level.
  const photoLm = new Float32Array(478 * 3);
  const set = (lm: Float32Array, i: number, x: number, y: number) => lm.set([x, y, 0], i * 3);
  set(photoLm, 152, 150, 200);
  set(photoLm, 10, 150, 60);
  set(photoLm, 234, 100, 130);
  set(photoLm, 454, 200, 130);
  STABLE_LANDMARKS.forEach((i, k) => set(photoLm, i, 120 + (k % 5) * 15, 100 + Math.floor(k / 5) * 30));
  set(photoLm, 33, 115, 100);
  set(photoLm, 263, 185, 100);
  const head = (x: number, y: number) => (x - 150) ** 2 / 70 ** 2 + (y - 120) ** 2 / 100 ** 2 <= 1;
  const photo = mask(300, 320, (x, y) => head(x, y) || (y > 230 && x > 40 && x < 260)); // head and shoulders
  // The preview: the head alone (no shoulders) at 0.8 the size and turned 10 degrees.
  const angle = (10 * Math.PI) / 180;
  const toPreview: Similarity2 = { a: 0.8 * Math.cos(angle), b: 0.8 * Math.sin(angle), tx: 30, ty: 10 };
  const toPhoto = invertSimilarity2(toPreview);
  const previewLm = new Float32Array(478 * 3);
  for (let i = 0; i < 478; i++) {
    const [x, y] = apply(toPreview, [photoLm[i * 3], photoLm[i * 3 + 1]]);
    set(previewLm, i, x, y);
  }
  const preview = mask(300, 300, (x, y) => head(...apply(toPhoto, [x, y])));
  assert.ok(headSilhouetteIoU(photo, photoLm, preview, previewLm) > 0.97, 'the shoulders below the chin do not count');
  // A preview whose head lacks the top (a bald avatar for a person with hair) scores lower.
  const cropped = mask(300, 300, (x, y) => {
    const [px, py] = apply(toPhoto, [x, y]);
    return head(px, py) && py > 60;
  });
  const score = headSilhouetteIoU(photo, photoLm, cropped, previewLm);
  assert.ok(score < 0.85 && score > 0.5, `${score}`);
});

test("the avatar's landmarks are its face vertices seen by the photo's camera", () => {
  // 500 vertices: the first 468 are the face's landmarks, the rest of the head must be left out.
  const head = new Float32Array(500 * 3);
  for (let v = 0; v < 500; v++) head.set([v % 20, Math.floor(v / 20), v % 7], v * 3);
  // Turned 90 degrees about the vertical: the image x is the head's -z; 10 px a cm, origin at (100, 200).
  const camera: PhotoCamera = { rotation: [0, 0, -1, 0, 1, 0, 1, 0, 0], pixelsPerCm: 10, translation: [100, 200] };
  const lm = avatarLandmarks(camera, head);
  assert.equal(lm.length, 468 * 3);
  for (const v of [0, 33, 263, 467]) {
    assert.ok(Math.abs(lm[v * 3] - (100 - 10 * (v % 7))) < 1e-4, `x of ${v}`);
    assert.ok(Math.abs(lm[v * 3 + 1] - (200 - 10 * Math.floor(v / 20))) < 1e-4, `y of ${v}`);
    assert.equal(lm[v * 3 + 2], 0);
  }
});
