import { test } from 'node:test';
import assert from 'node:assert/strict';
import { besideFaceStep } from '../../../tools/quality/beside-face.ts';
import { srgbToLab } from '../../../tools/quality/skin-colour.ts';

/**
 * A flat head in the plane z = 0: the four cheek landmarks on the left half of a 64-texel atlas, the skin vertices on
 * its right half, the face's outline a single vertex at the origin; eyes at y = 3, mouth corners at y = -3.
 */
function head(skinAt: [number, number][]) {
  const n = 500 + skinAt.length;
  const positions = new Float32Array(n * 3), uvs = new Float32Array(n * 2);
  const place = (v: number, x: number, y: number, u: number, w: number) => {
    positions.set([x, y, 0], v * 3);
    uvs.set([u, w], v * 2);
  };
  place(0, 0, 0, 0.25, 0.5);
  [50, 280, 205, 425].forEach((v, i) => place(v, 0.5, i * 0.1, 0.2 + i * 0.02, 0.5));
  for (const v of [159, 386]) place(v, 0, 3, 0.25, 0.9);
  for (const v of [61, 291]) place(v, 0, -3, 0.25, 0.1);
  const skin = skinAt.map(([x, y], i) => {
    place(500 + i, x, y, 0.75, 0.5);
    return 500 + i;
  });
  return { positions, uvs, skin, faceOval: [0] };
}

function atlas(face: number[], beside: number[]) {
  const size = 64, data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data.set(x < size / 2 ? face : beside, (y * size + x) * 3);
  return { width: size, height: size, data };
}

test('the skin beside the face reads as the cheeks when the albedo is one colour', () => {
  const h = head([[2, 0], [-2, 1]]);
  const step = besideFaceStep(atlas([200, 160, 140], [200, 160, 140]), h.positions, h.uvs, h.skin, h.faceOval)!;
  assert.equal(step.deltaE, 0);
});

test('a darker fill beside the face reads as its Lab difference from the cheeks', () => {
  const h = head([[2, 0]]);
  const step = besideFaceStep(atlas([200, 160, 140], [150, 120, 105]), h.positions, h.uvs, h.skin, h.faceOval)!;
  const face = srgbToLab([200, 160, 140]), beside = srgbToLab([150, 120, 105]);
  step.difference.forEach((d, k) => assert.ok(Math.abs(d - (beside[k] - face[k])) < 1e-9));
  assert.ok(step.difference[0] < -10, `ΔL* ${step.difference[0]}`);
});

test('skin outside the band (too near, too far, above the eyes, below the mouth) is not read', () => {
  const h = head([[0.5, 0], [5, 0], [2, 4], [2, -4]]);
  assert.equal(besideFaceStep(atlas([200, 160, 140], [90, 60, 50]), h.positions, h.uvs, h.skin, h.faceOval), undefined);
});
