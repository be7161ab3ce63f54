import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitShLight, shEvaluate } from '../../../src/geometry/texture/sh-light.ts';
import { estimatePhotoLight } from '../../../src/geometry/texture/photo-light.ts';
import { quatToMat3 } from '../../../src/geometry/fit/similarity.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS } from '../../../src/geometry/render/srgb.ts';

const R = 5;
const RINGS = 40;
const SEGMENTS = 64;
/** A sphere (radius 5 cm) with its pole towards the camera (+z): ring k at polar angle k/RINGS * 180°, front hemisphere fitted. */
function hemisphere() {
  const positions: number[] = [0, 0, R];
  for (let k = 1; k <= 2 * RINGS; k++) {
    const t = (k / RINGS) * (Math.PI / 2);
    for (let s = 0; s < SEGMENTS; s++) {
      const p = (2 * Math.PI * s) / SEGMENTS;
      positions.push(R * Math.sin(t) * Math.cos(p), R * Math.sin(t) * Math.sin(p), R * Math.cos(t));
    }
  }
  const pos = Float32Array.from(positions);
  const normals = pos.map((v) => v / R);
  return { positions: pos, normals };
}

const light = [0.5, 0, 0.866];
const len = Math.hypot(...light);
/** Lambertian irradiance: ambient plus a light 30° to the image's right (it reaches the whole oval). */
const shading = (n: ArrayLike<number>) => 0.4 + 0.6 * Math.max(0, (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len);
const ALBEDO = [0.55, 0.36, 0.27];

/**
 * The sphere photographed by a front camera (15 px/cm, centre at 100,100): every pixel the albedo times `light`
 * at its normal and for its channel (default: the shading alone).
 */
function photo(light: (n: number[], channel: number) => number = shading) {
  const size = 200;
  const data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const nx = (x + 0.5 - 100) / 15 / R;
      const ny = -(y + 0.5 - 100) / 15 / R;
      const nz = Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny));
      for (let c = 0; c < 3; c++) data[(y * size + x) * 3 + c] = linearToSrgb[Math.min(LINEAR_STEPS - 1, Math.round(ALBEDO[c] * light([nx, ny, nz], c) * (LINEAR_STEPS - 1)))];
    }
  }
  return { width: size, height: size, data };
}

/** The face oval (the ring at 60° from the camera axis) and the front camera the photos are taken with. */
const FACE_OVAL = Array.from({ length: SEGMENTS }, (_, s) => 1 + (Math.round((RINGS * 60) / 90) - 1) * SEGMENTS + s);
const CAMERA = { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] as [number, number] };
/** The ring on the equator's plane at polar angle 45°, where the tests compare mirrored points. */
const MID_RING = Math.round(RINGS / 2);

/** At a sphere vertex (ring, segment): the photo's linear colour and the albedo its gains make of it, per channel. */
function sampleAt(sphere: { positions: Float32Array }, img: ReturnType<typeof photo>, gains: Float32Array, ring: number, segment: number) {
  const v = 1 + (ring - 1) * SEGMENTS + segment;
  const x = 100 + 15 * sphere.positions[v * 3];
  const y = 100 - 15 * sphere.positions[v * 3 + 1];
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 3;
  const seen = [0, 1, 2].map((c) => srgbToLinear[img.data[i + c]]);
  return { photo: seen, albedo: seen.map((p, c) => p * gains[v * 3 + c]) };
}

test('second-order spherical harmonics fit Lambertian shading closely', () => {
  const { normals } = hemisphere();
  const values = new Float32Array(normals.length / 3).map((_, i) => shading(normals.subarray(i * 3, i * 3 + 3)));
  const sh = fitShLight(normals, values);
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += (shEvaluate(sh, normals[i * 3], normals[i * 3 + 1], normals[i * 3 + 2]) - values[i]) ** 2;
  // Order two cannot follow the clamped cosine's kink exactly (a few per cent of the range).
  const rms = Math.sqrt(sq / values.length);
  assert.ok(rms < 0.05, `rms error ${rms}`);
});

test('a sphere lit from one side comes out even from side to side, and the light is found on that side', () => {
  const sphere = hemisphere();
  const img = photo();
  const est = estimatePhotoLight({ ...sphere, photo: img, camera: CAMERA, faceOval: FACE_OVAL, gains: [1, 1, 1], sideLight: 1, evenSides: 0 });
  const dot = (est.direction[0] * light[0] + est.direction[1] * light[1] + est.direction[2] * light[2]) / len;
  assert.ok(dot > 0.98, `direction ${est.direction}`);
  // Green at mirrored points left and right of the centre.
  const right = sampleAt(sphere, img, est.vertexGain, MID_RING, 0);
  const left = sampleAt(sphere, img, est.vertexGain, MID_RING, SEGMENTS / 2);
  assert.ok(right.photo[1] / left.photo[1] > 1.5, `the photo is lit from the right: ${right.photo[1]} vs ${left.photo[1]}`);
  assert.ok(Math.abs(right.albedo[1] / left.albedo[1] - 1) < 0.1, `albedo right ${right.albedo[1]} vs left ${left.albedo[1]}`);
  // Half of it divided out: half the contrast (in the exponent) is left.
  const half = estimatePhotoLight({ ...sphere, photo: img, camera: CAMERA, faceOval: FACE_OVAL, gains: [1, 1, 1], sideLight: 0.5, evenSides: 0 });
  assert.ok(half.vertexGain.every(Number.isFinite), 'every vertex has a finite gain, the back of the sphere included');
  const halfRatio = sampleAt(sphere, img, half.vertexGain, MID_RING, 0).albedo[1] / sampleAt(sphere, img, half.vertexGain, MID_RING, SEGMENTS / 2).albedo[1];
  const fullRatio = right.photo[1] / left.photo[1];
  assert.ok(Math.abs(Math.log(halfRatio) - Math.log(fullRatio) / 2) < 0.1, `half ${halfRatio}, photo ${fullRatio}`);
});

/** A cast shadow over the sphere's left half (x < 0 in the head frame, the image's left): a step across 1 cm, darkening to SHADOW. */
const SHADOW = 0.35;
const castShadow = (x: number) => SHADOW + (1 - SHADOW) * Math.min(1, Math.max(0, (x + 0.5) / 1));
/** A dark mark of radius 0.4 cm on the right cheek only (polar angle 45°, on the equator's plane): a real feature. */
const MARK = [R * Math.SQRT1_2, 0, R * Math.SQRT1_2];
const inMark = (p: number[]) => Math.hypot(p[0] - MARK[0], p[1] - MARK[1], p[2] - MARK[2]) < 0.4;

/** The sphere under the side light and the cast shadow, with the mark. */
const castShadowPhoto = () => photo(([nx, ny, nz]) => shading([nx, ny, nz]) * castShadow(nx * R) * (inMark([nx * R, ny * R, nz * R]) ? 0.5 : 1));

test('a shadow the harmonics cannot describe is evened out from side to side, and a mark on one side stays', () => {
  const sphere = hemisphere();
  const img = castShadowPhoto();
  // The pipeline's share of the harmonics' side light.
  const est = estimatePhotoLight({ ...sphere, photo: img, camera: CAMERA, faceOval: FACE_OVAL, gains: [1, 1, 1], sideLight: 0.5, evenSides: 1 });
  const green = (segment: number) => {
    const at = sampleAt(sphere, img, est.vertexGain, MID_RING, segment);
    return { photo: at.photo[1], albedo: at.albedo[1] };
  };
  // Mirrored points on the cheeks, above the mark (34° round from the equator's plane).
  const right = green(6);
  const left = green(SEGMENTS / 2 - 6);
  assert.ok(right.photo / left.photo > 3, `the photo's left is in shadow: ${right.photo} vs ${left.photo}`);
  assert.ok(Math.abs(right.albedo / left.albedo - 1) < 0.15, `albedo right ${right.albedo} vs left ${left.albedo}`);
  // The mark keeps its contrast against the same place on the other side.
  const mark = green(0);
  const mirror = green(SEGMENTS / 2);
  assert.ok(Math.abs(mark.albedo / mirror.albedo - 0.5) < 0.1, `mark ${mark.albedo} vs the other side ${mirror.albedo}`);
});

test('a deep, reddened shadow is evened out in colour: bounded in lightness only, the same hue on both sides', () => {
  const sphere = hemisphere();
  // Deeper than the side light's bound (4x between the sides) in green and blue, not in red: skin lit through.
  const depth = [0.35, 0.12, 0.1];
  const shadowed = (x: number, c: number) => depth[c] + (1 - depth[c]) * Math.min(1, Math.max(0, (x + 0.5) / 1));
  const img = photo(([nx, ny, nz], c) => shading([nx, ny, nz]) * shadowed(nx * R, c));
  const est = estimatePhotoLight({ ...sphere, photo: img, camera: CAMERA, faceOval: FACE_OVAL, gains: [1, 1, 1], sideLight: 0.5, evenSides: 1 });
  const right = sampleAt(sphere, img, est.vertexGain, MID_RING, 6).albedo;
  const left = sampleAt(sphere, img, est.vertexGain, MID_RING, SEGMENTS / 2 - 6).albedo;
  // The albedo's chromaticity (red and blue over green) is the same on both sides.
  for (const c of [0, 2]) {
    const ratio = right[c] / right[1] / (left[c] / left[1]);
    assert.ok(Math.abs(Math.log(ratio)) < 0.1, `channel ${c} over green, right over left: ${ratio} (${right} vs ${left})`);
  }
});

/**
 * A beard on one side: the sphere under an even light, its lower left (x < -1 cm, y < 0) dark and grainy (a
 * checkerboard at 10 % and 25 % of the skin's linear light, pixel by pixel), as a beard on one cheek photographs.
 */
const beardPhoto = () => {
  const img = photo(() => 1);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (x >= 85 || y < 100) continue;
      const k = (x + y) % 2 === 0 ? 0.1 : 0.25;
      for (let c = 0; c < 3; c++) img.data[(y * img.width + x) * 3 + c] = linearToSrgb[Math.round(ALBEDO[c] * k * (LINEAR_STEPS - 1))];
    }
  }
  return img;
};

test("a beard on one side is hair, not the light: the light is read on the skin, and the beard keeps its darkness", () => {
  const sphere = hemisphere();
  const img = beardPhoto();
  const skin = ALBEDO.map((c) => linearToSrgb[Math.round(c * (LINEAR_STEPS - 1))]) as [number, number, number];
  const beardOverMirror = (gains: Float32Array) => {
    // Segment 40 is at 225 degrees (lower left, in the beard), 56 at 315 (lower right, its mirror image).
    const beard = sampleAt(sphere, img, gains, MID_RING, 40), mirror = sampleAt(sphere, img, gains, MID_RING, 56);
    return beard.albedo[1] / mirror.albedo[1];
  };
  const args = { ...sphere, photo: img, camera: CAMERA, faceOval: FACE_OVAL, gains: [1, 1, 1] as [number, number, number], sideLight: 0.5, evenSides: 1 };
  const photoRatio = beardOverMirror(new Float32Array(sphere.positions.length).fill(1));
  assert.ok(photoRatio < 0.55, `the photo's beard is dark: ${photoRatio}`);
  // Read as light, the beard was brightened towards its mirror image (the side light's grid evens the two sides).
  const asLight = beardOverMirror(estimatePhotoLight(args).vertexGain);
  assert.ok(asLight > photoRatio * 1.3, `without the skin tone the beard is taken for shadow: ${asLight} against ${photoRatio}`);
  const asHair = beardOverMirror(estimatePhotoLight({ ...args, skin }).vertexGain);
  assert.ok(Math.abs(asHair / photoRatio - 1) < 0.1, `with it the beard keeps its darkness: ${asHair} against ${photoRatio}`);
});
