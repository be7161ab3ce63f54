import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { observeHair } from '../../../src/pipeline/hair/observe.ts';
import { faceFrame, toFace } from '../../../src/pipeline/hair/face-frame.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

const head = loadTemplateView('2.0').meshes[0].geometry;
const W = 400, H = 480;
/** The template's landmarks in a frontal photo, 10 pixels a centimetre. */
const landmarks = new Float32Array(468 * 3);
for (let i = 0; i < 468; i++) landmarks.set([200 + head.positions[i * 3] * 10, 200 - head.positions[i * 3 + 1] * 10, head.positions[i * 3 + 2] * 10], i * 3);
const frame = faceFrame(landmarks);

/**
 * A photo of a person with short dark hair ending above the ears, before a plain backdrop: skin with a little
 * noise, hair in vertical strands, a smooth blue shirt. With `tail`, a strip of the same hair hangs beside the
 * neck on the image's right, outside the person matte (as a tail behind the neck is); with `collar`, a white
 * collar lies between the neck and that strip, which is then a dark lapel.
 */
function photo(tail: { inner: number; outer: number } | undefined, collar = false) {
  const random = seededRandom(7);
  const data = new Uint8Array(W * H * 3);
  const alpha = new Uint8Array(W * H);
  const strand = (x: number) => (x % 3 === 0 ? -30 : x % 3 === 1 ? 10 : 25);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [s, t] = toFace(frame, x, y);
      const skull = (s / 0.62) ** 2 + ((t - 0.85) / 0.85) ** 2 < 1;
      const neck = Math.abs(s) < 0.32 && t < 0.3;
      const shoulders = t < -0.7 && Math.abs(s) < 1.6;
      const hair = (skull && t > 0.95) || (skull && t > 0.55 && Math.abs(s) > 0.5);
      const inTail = tail !== undefined && s > tail.inner && s < tail.outer && t > -0.65 && t < 0.3;
      const noise = (random() - 0.5) * 6;
      let rgb: number[];
      const inCollar = collar && tail !== undefined && s > 0.32 && s < tail.inner && t < 0.3;
      if (hair || inTail) rgb = [70, 45, 30].map((v) => v + strand(x) + noise);
      else if (inCollar) rgb = [235, 235, 235].map((v) => v + noise);
      else if (shoulders) rgb = [40, 60, 130].map((v) => v + noise);
      else if (skull || neck) rgb = [205, 155, 125].map((v) => v + noise);
      else rgb = [150, 150, 150].map((v) => v + noise);
      data.set(rgb.map((v) => Math.max(0, Math.min(255, Math.round(v)))), (y * W + x) * 3);
      alpha[y * W + x] = skull || neck || shoulders || inCollar ? 255 : 0;
    }
  }
  return { image: { width: W, height: H, data }, matte: { width: W, height: H, alpha } };
}

test('short hair whose tail shows beside the neck is tied back; the same hair without it is not', () => {
  const observe = (p: ReturnType<typeof photo>) => observeHair(p.image, landmarks, p.matte);
  const loose = observe(photo(undefined));
  assert.equal(loose.bald, false);
  assert.equal(loose.length, 'short');
  assert.equal(loose.tiedBack, false);
  const tied = observe(photo({ inner: 0.32, outer: 0.48 }));
  assert.equal(tied.length, 'short');
  assert.equal(tied.tiedBack, true);
  // A thin dark line beside the neck (a necklace's chain, a collar's seam) is no tail.
  assert.equal(observe(photo({ inner: 0.32, outer: 0.34 })).tiedBack, false);
  // The same hair-coloured strip beyond a white collar, away from the neck's skin, is a lapel.
  assert.equal(observe(photo({ inner: 0.56, outer: 0.72 }, true)).tiedBack, false);
});
