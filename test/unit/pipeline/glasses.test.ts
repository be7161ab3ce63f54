import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodePhoto } from '../../../src/pipeline/face/analyse.ts';
import { detectFaces } from '../../../src/pipeline/face/landmark-model.ts';
import { detectGlasses, glassesFrameMask, fillMasked, opaqueLenses, opaqueLensMask, withoutOpaqueLenses } from '../../../src/pipeline/face/glasses.ts';
import { preparePhotoTextures } from '../../../src/pipeline/photo-prep.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { HIDDEN_IRIS } from '../../../src/geometry/texture/bake-parts.ts';
import { rec601Luma } from '../../../src/geometry/render/srgb.ts';
import { drawSunglasses } from '../../../tools/sunglasses.ts';
import type { RgbImage } from '../../../src/geometry/texture/rgb-image.ts';
import { BROWS, EYE_CONTOURS } from '../../../src/pipeline/face/face-regions.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', faces), 'utf8')) as { photos: { file: string; person: string }[] };
/** Looked at every test photo: only this one shows a person wearing glasses. */
const WITH_GLASSES = ['p08-a.jpg'];

async function landmarksOf(file: string) {
  const { image } = await decodePhoto(new Uint8Array(readFileSync(new URL(file, faces))));
  return { image, lm: await landmarksOn(image) };
}

/** The largest face's landmarks on an image, as the pipeline reads them. */
async function landmarksOn(image: RgbImage): Promise<Float32Array> {
  const found = await detectFaces(image.data, image.width, image.height);
  const face = found.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  return Float32Array.from(face.mesh.flat());
}

/** A test photo with sunglasses drawn over its eyes, and the landmarks read on it. */
async function withSunglasses(file: string) {
  const { image, lm } = await landmarksOf(file);
  const sun = drawSunglasses(image, lm);
  return { image: sun, lm: await landmarksOn(sun) };
}

/** The median luminance round an eye (an ellipse 0.95 x 0.7 eye widths, the lens's reach) over the cheeks' and forehead's. */
function darknessRound(image: RgbImage, lm: ArrayLike<number>, outer: number, inner: number): number {
  const at = (i: number) => [lm[i * 3], lm[i * 3 + 1]];
  const [o, n] = [at(outer), at(inner)];
  const w = Math.hypot(n[0] - o[0], n[1] - o[1]);
  const [cx, cy, ux, uy] = [(o[0] + n[0]) / 2, (o[1] + n[1]) / 2, (n[0] - o[0]) / w, (n[1] - o[1]) / w];
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1];
  const round: number[] = [];
  for (let y = Math.floor(cy - w); y <= cy + w; y++) {
    for (let x = Math.floor(cx - w); x <= cx + w; x++) {
      const [a, b] = [(x - cx) * ux + (y - cy) * uy, -(x - cx) * uy + (y - cy) * ux];
      if ((a / (0.95 * w)) ** 2 + (b / (0.7 * w)) ** 2 <= 1) round.push(rec601Luma(image.data, (y * image.width + x) * 3));
    }
  }
  const skin: number[] = [];
  for (const i of [205, 425, 151]) for (let d = -3; d <= 3; d++) skin.push(rec601Luma(image.data, (Math.round(at(i)[1]) * image.width + Math.round(at(i)[0]) + d) * 3));
  return median(round) / median(skin);
}

test('glasses are found on the photo with glasses and on no other, and no photo reads as behind opaque lenses', async () => {
  for (const { file } of manifest.photos) {
    const { image, lm } = await landmarksOf(file);
    const found = detectGlasses(image, lm);
    assert.equal(found.present, WITH_GLASSES.includes(file), `${file}: ${JSON.stringify(found.evidence)}`);
    assert.equal(opaqueLenses(image, lm), false, `${file}: opaque lenses`);
  }
});

test('sunglasses are found as opaque lenses and filled from the skin round them: the eyes read as skin, not as lenses', async () => {
  for (const file of ['p03-a.jpg', 'p10-b.jpg', 'p13-a.jpg']) {
    const { image, lm } = await withSunglasses(file);
    assert.equal(opaqueLenses(image, lm), true, `${file}: lenses found`);
    const clean = withoutOpaqueLenses(image, lm, detectGlasses(image, lm).present);
    for (const [outer, inner] of [[33, 133], [263, 362]]) {
      assert.ok(darknessRound(image, lm, outer, inner) < 0.3, `${file}: the lens is dark`);
      const after = darknessRound(clean, lm, outer, inner);
      assert.ok(after > 0.75, `${file}: round the eye at ${outer} the fill reads ${after.toFixed(2)} of the skin`);
    }
    // Only the lenses change: the nose's tip and the mouth keep their pixels.
    for (const i of [1, 13, 14]) {
      const p = (Math.round(lm[i * 3 + 1]) * image.width + Math.round(lm[i * 3])) * 3;
      assert.deepEqual(Array.from(clean.data.subarray(p, p + 3)), Array.from(image.data.subarray(p, p + 3)));
    }
  }
});

test('behind opaque lenses the photo gives no iris: the avatar takes the hidden eyes\' brown, and meta glasses is true', async () => {
  const { image, lm } = await withSunglasses('p03-a.jpg');
  const matte = { width: image.width, height: image.height, alpha: new Uint8Array(image.width * image.height).fill(255) };
  const prep = preparePhotoTextures(loadTemplateView('2.0'), { image, landmarks: lm, cmPerPixel: 0.05, matte });
  assert.equal(prep.glasses, true);
  assert.deepEqual(prep.iris, HIDDEN_IRIS);
  // The lenses' pixels were filled before anything was taken from the photo.
  const mask = opaqueLensMask(image, lm);
  let changed = 0, masked = 0;
  for (let p = 0; p < mask.length; p++) if (mask[p]) (masked++, (changed += prep.photo.data[p * 3] !== image.data[p * 3] ? 1 : 0));
  assert.ok(changed > 0.9 * masked, `${changed} of the ${masked} lens pixels filled`);
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

/**
 * A face drawn with glasses whose top bar runs through the landmark outline of a brow (the detector takes the bar for
 * the brow's lower edge, as on p08-a), and a frame's corner out by the hinge. With `bandedBrows` the brows have a
 * lower band of hair that ends with them, and the bar runs lower, under the outlines.
 */
function drawnFace({ bandedBrows = false } = {}) {
  const [width, height] = [320, 200];
  const data = new Uint8Array(width * height * 3);
  const dark = new Set<number>();
  const paint = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) dark.add(y * width + x);
  };
  // The right eye (image left) about (100, 110), the left about (220, 110), each 60 px wide.
  const lm = new Float32Array(478 * 3);
  // Each eye's contour and brow outline start at its outer corner.
  const eyes = [{ outer: 70, inner: 130 }, { outer: 250, inner: 190 }];
  eyes.forEach(({ outer, inner }, e) => {
    const contour = EYE_CONTOURS[e];
    // The lid margins: an ellipse from the outer corner round to it again.
    contour.forEach((i, k) => {
      const t = (2 * Math.PI * k) / contour.length;
      lm.set([(outer + inner) / 2 + ((outer - inner) / 2) * Math.cos(t), 110 - 10 * Math.sin(t), 0], i * 3);
    });
    // The brow's outline from y 60 to 83, its upper edge outer to inner, then its lower edge back.
    const [a, b] = [outer + (outer < inner ? 0 : 5), inner + (outer < inner ? 5 : 0)];
    const xs = [0, 0.25, 0.5, 0.75, 1].map((f) => a + (b - a) * f);
    BROWS[e].forEach((i, k) => lm.set(k < 5 ? [xs[k], 60, 0] : [xs[9 - k], 83, 0], i * 3));
    // The brow's hair, 8 px, and under it the frame's top bar, 5 px, which runs on beyond the brow to the lens's corners.
    paint(Math.min(a, b) + 2, Math.max(a, b) - 2, 62, 69);
    if (bandedBrows) paint(Math.min(a, b) + 2, Math.max(a, b) - 2, 74, 78);
    const bar = bandedBrows ? 86 : 76;
    paint(Math.min(outer, inner) - 30, Math.max(outer, inner) + 30, bar, bar + 4);
  });
  // The right lens's outer top corner, by the hinge, at (12..20, 60..70).
  paint(12, 20, 60, 70);
  for (let p = 0; p < width * height; p++) data.set(dark.has(p) ? [35, 28, 25] : [200, 160, 140], p * 3);
  return { image: { width, height, data }, lm, at: (x: number, y: number) => y * width + x };
}

test('the frame\'s top bar is taken out where it runs through a brow\'s outline, and the brow\'s hair is kept', () => {
  const { image, lm, at } = drawnFace();
  const mask = glassesFrameMask(image, lm);
  for (const x of [90, 100, 110, 210, 220, 230]) {
    assert.equal(mask[at(x, 78)], 1, `the bar at (${x}, 78), inside the brow's outline, is frame`);
    assert.equal(mask[at(x, 65)], 0, `the brow's hair at (${x}, 65) is kept`);
  }
  const clean = fillMasked(image, mask);
  assert.ok(clean.data[at(100, 78) * 3] > 150, `the bar filled from the skin (red ${clean.data[at(100, 78) * 3]})`);
  assert.equal(clean.data[at(100, 65) * 3], 35, 'the brow\'s hair unchanged');
});

test('a frame\'s corner out by the hinge is in the lenses\' reach', () => {
  const { image, lm, at } = drawnFace();
  assert.equal(glassesFrameMask(image, lm)[at(16, 65)], 1);
});

test('a brow\'s lower band of hair, which ends with the brow, is kept', () => {
  const { image, lm, at } = drawnFace({ bandedBrows: true });
  const mask = glassesFrameMask(image, lm);
  for (const x of [90, 100, 110, 210, 220, 230]) {
    assert.equal(mask[at(x, 76)], 0, `the brow's lower band at (${x}, 76) is kept`);
    assert.equal(mask[at(x, 88)], 1, `the bar at (${x}, 88), under the outline, is frame`);
  }
});

test("a hinge's pale metal by the frame, and a patch of skin the frame rings, are the frame's; the eye is kept", () => {
  const { image, lm, at } = drawnFace();
  const set = (x0: number, x1: number, y0: number, y1: number, rgb: number[]) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) image.data.set(rgb, at(x, y) * 3);
  };
  // The hinge: a pale grey block where the right lens's bar ends (the bar runs x 40..160 at y 76..80).
  set(35, 39, 75, 81, [235, 235, 235]);
  // A small ring of frame under the right eye with skin inside (a screw's collar, a nose pad's arm).
  set(88, 112, 134, 158, [35, 28, 25]);
  set(91, 109, 137, 155, [200, 160, 140]);
  const mask = glassesFrameMask(image, lm);
  assert.equal(mask[at(37, 78)], 1, 'the hinge is frame');
  assert.equal(mask[at(100, 146)], 1, 'the skin the frame rings is frame');
  assert.equal(mask[at(100, 110)], 0, 'the eye the lens rings is kept');
});
