import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exposeImage, exposureGain, faceBrightEnd, UNDER_EXPOSED } from '../../../src/pipeline/face/exposure.ts';
import { FACE_OVAL } from '../../../src/pipeline/face/face-regions.ts';

/** Landmarks with the face oval on a circle of radius 40 about (50, 50) in a 100 x 100 image. */
function ovalLandmarks(): Float32Array {
  const lm = new Float32Array(478 * 3);
  FACE_OVAL.forEach((v, k) => {
    const a = (2 * Math.PI * k) / FACE_OVAL.length;
    lm.set([50 + 40 * Math.cos(a), 50 + 40 * Math.sin(a), 0], v * 3);
  });
  return lm;
}

test("the face's bright end is the 99th percentile of its pixels' brightest channel, inside the oval only", () => {
  const data = new Uint8Array(100 * 100 * 3);
  let bright = 0;
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 100; x++) {
      const o = (y * 100 + x) * 3;
      const inFace = Math.hypot(x + 0.5 - 50, y + 0.5 - 50) < 42;
      // Skin at (120, 90, 80) a little past the oval; one face pixel in 200 a highlight at 180 in green alone; white beyond.
      const highlight = inFace && (y * 100 + x) % 200 === 37;
      if (highlight) bright++;
      data.set(!inFace ? [255, 255, 255] : highlight ? [100, 180, 100] : [120, 90, 80], o);
    }
  }
  assert.ok(bright > 10);
  assert.equal(faceBrightEnd({ width: 100, height: 100, data }, ovalLandmarks()), 120);
  // Highlights on 2 % of the face: the bright end is theirs.
  for (let i = 0; i < 100 * 100; i += 50) if (Math.hypot((i % 100) + 0.5 - 50, Math.floor(i / 100) + 0.5 - 50) < 38) data.set([100, 180, 100], i * 3);
  assert.equal(faceBrightEnd({ width: 100, height: 100, data }, ovalLandmarks()), 180);
});

test('an under-exposed face is brightened in linear light until its bright end reaches the bar; a well-exposed one is not', () => {
  assert.equal(exposureGain(UNDER_EXPOSED), 1);
  assert.equal(exposureGain(250), 1);
  const gain = exposureGain(114);
  assert.ok(gain > 3 && gain < 4, `gain ${gain}`);
  const image = exposeImage({ width: 3, height: 1, data: new Uint8Array([114, 114, 114, 57, 30, 20, 200, 230, 255]) }, gain);
  assert.ok(Math.abs(image.data[0] - UNDER_EXPOSED) <= 1, `114 -> ${image.data[0]}`);
  // Hue kept: each channel times the same gain in linear light, so a darker pixel stays the same colour, lighter.
  assert.ok(image.data[3] > 100 && image.data[3] > image.data[4] && image.data[4] > image.data[5], `${image.data.subarray(3, 6)}`);
  // Past white: clipped.
  assert.deepEqual([...image.data.subarray(6)], [255, 255, 255]);
});
