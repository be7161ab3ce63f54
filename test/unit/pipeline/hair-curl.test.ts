import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { hairCurl } from '../../../src/pipeline/hair/hair-curl.ts';
import { styleCurl } from '../../../src/pipeline/hair/choose.ts';
import { HAIRSTYLES } from '../../../src/geometry/hair/styles.ts';
import type { HairGrid } from '../../../src/pipeline/hair/hair-grid.ts';
import type { FaceFrame } from '../../../src/pipeline/hair/face-frame.ts';

/** A photo of `size` pixels square whose face is `faceWidth` wide, every pixel hair of brightness f(x, y) (x, y in face widths). */
function measure(f: (x: number, y: number) => number, size: number, faceWidth: number, hair?: (x: number, y: number) => boolean) {
  return measureData(draw(f, size, faceWidth), size, faceWidth, hair);
}

/** The same, the photo saved as a JPEG of this quality and read back, as photos arrive. */
async function measureJpeg(f: (x: number, y: number) => number, size: number, faceWidth: number, quality: number) {
  const jpeg = await sharp(draw(f, size, faceWidth), { raw: { width: size, height: size, channels: 3 } }).jpeg({ quality }).toBuffer();
  return measureData(new Uint8Array(await sharp(jpeg).raw().toBuffer()), size, faceWidth);
}

function draw(f: (x: number, y: number) => number, size: number, faceWidth: number): Uint8Array {
  const data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const v = Math.max(0, Math.min(255, f(x / faceWidth, y / faceWidth)));
      data.set([v, v * 0.8, v * 0.6], (y * size + x) * 3);
    }
  }
  return data;
}

function measureData(data: Uint8Array, size: number, faceWidth: number, hair?: (x: number, y: number) => boolean) {
  const cells = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) cells[y * size + x] = !hair || hair(x / faceWidth, y / faceWidth) ? 1 : 0;
  const grid = { step: 1, columns: size, rows: size } as HairGrid;
  const frame = { width: faceWidth, height: 1.3 * faceWidth, chin: [0, 0], centre: [0, 0], across: [1, 0], up: [0, -1] } as FaceFrame;
  return hairCurl({ width: size, height: size, data }, grid, cells, frame)!;
}

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
/** Strands 0.006 face widths apart (about 1 mm), each of its own brightness, along x = wave(y); a little pixel noise. */
/** Normally distributed, mean 0 and deviation 1. */
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const tones = Array.from({ length: 2000 }, random);
const strands = (amplitude: number, wavelength: number, dark = 40, contrast = 80) => (x: number, y: number) => {
  const u = (x - amplitude * Math.sin((2 * Math.PI * y) / wavelength)) / 0.006 + 1000;
  const i = Math.floor(u), f = u - i;
  return dark + contrast * ((1 - f) * tones[i % 2000] + f * tones[(i + 1) % 2000]) + 6 * random();
};
/** Coils seen from the front: rings 0.02-0.05 face widths across, bright hair over dark gaps (drawn at 400 px a face width). */
const COIL_RES = 400;
const coilTexture = new Uint8Array(2 * COIL_RES * 2 * COIL_RES).fill(40);
for (let k = 0; k < 900; k++) {
  const [cx, cy, r, tone] = [2 * random(), 2 * random(), 0.02 + 0.03 * random(), random()];
  for (let a = 0; a < 2 * Math.PI; a += 0.5 / (r * COIL_RES)) {
    for (const d of [-0.004, -0.002, 0, 0.002, 0.004]) {
      const x = Math.floor((cx + (r + d) * Math.cos(a)) * COIL_RES), y = Math.floor((cy + (r + d) * Math.sin(a)) * COIL_RES);
      if (x >= 0 && y >= 0 && x < 2 * COIL_RES && y < 2 * COIL_RES) coilTexture[y * 2 * COIL_RES + x] = 60 + 80 * tone;
    }
  }
}
const coils = (x: number, y: number) => coilTexture[Math.floor(y * COIL_RES) * 2 * COIL_RES + Math.floor(x * COIL_RES)] + 6 * random();
const curlOf = (name: string) => styleCurl(HAIRSTYLES.find((s) => s.name === name)!);

test('straight strands read straight, waves between, coils curly: each against the style it stands for', () => {
  const straight = measure(strands(0, 1), 480, 240);
  const slanted = measure(strands(0.02, 0.6), 480, 240);
  const coiled = measure(coils, 480, 240);
  assert.ok(straight < 0.05 && slanted < curlOf('long-wavy'), `straight ${straight}, slanted gently ${slanted}`);
  assert.ok(coiled > curlOf('short-curly'), `coils ${coiled} against short-curly's ${curlOf('short-curly')}`);
});

test('the measure is read at the face\'s scale: the same hair photographed twice as large reads alike', () => {
  for (const f of [strands(0.05, 0.35), coils]) {
    const small = measure(f, 320, 160), large = measure(f, 640, 320);
    assert.ok(Math.abs(small - large) < 0.06, `${small} against ${large}`);
  }
});

test('the hair region\'s own edge is no texture: straight strands in a round region stay straight', () => {
  // A disc of straight strands on a dark backdrop: the disc's outline turns through every direction.
  const inDisc = (x: number, y: number) => Math.hypot(x - 1, y - 1) < 0.7;
  const disc = (x: number, y: number) => (inDisc(x, y) ? strands(0, 1)(x, y) : 10);
  assert.ok(measure(disc, 480, 240, inDisc) < 0.05);
});

test('smooth dark straight hair in a noisy JPEG reads straight, and coils in one still read curly', async () => {
  // Dark brown strands of little contrast (14 to 34 of 255) under sensor noise of 4-6 levels, saved as a web photo's
  // JPEG: at single samples the noise and the JPEG's blocks turn every way (the noisiest read 0.56 there, above long-wavy's 0.32).
  const dim = strands(0, 1, 14, 20);
  for (const [size, faceWidth, noise, quality] of [[500, 250, 4, 60], [320, 160, 4, 60], [500, 250, 6, 75]]) {
    const straight = await measureJpeg((x, y) => dim(x, y) + noise * gauss(), size, faceWidth, quality);
    assert.ok(straight < curlOf('long-wavy'), `${faceWidth} px face, noise ${noise}, quality ${quality}: ${straight}`);
  }
  const coiled = await measureJpeg((x, y) => coils(x, y) + 6 * gauss(), 500, 250, 60);
  assert.ok(coiled > curlOf('short-curly'), `coils ${coiled} against short-curly's ${curlOf('short-curly')}`);
});
