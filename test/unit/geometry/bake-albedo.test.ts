import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bakeAlbedo } from '../../../src/geometry/texture/bake-albedo.ts';
import { FEATURE } from '../../../src/geometry/texture/photo-features.ts';
import { quatToMat3 } from '../../../src/geometry/fit/similarity.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';
import { luminance, srgbToLinear } from '../../../src/geometry/render/srgb.ts';

/** A 21x21 vertex grid in the plane z = 0 facing +z, 10 cm wide, UVs spanning the whole atlas. */
function plane() {
  const n = 21;
  const positions = new Float32Array(n * n * 3);
  const normals = new Float32Array(n * n * 3);
  const uvs = new Float32Array(n * n * 2);
  const indices: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = j * n + i;
      positions.set([(i / (n - 1)) * 10 - 5, (j / (n - 1)) * 10 - 5, 0], v * 3);
      normals.set([0, 0, 1], v * 3);
      uvs.set([i / (n - 1), j / (n - 1)], v * 2);
      if (i < n - 1 && j < n - 1) indices.push(v, v + 1, v + n + 1, v, v + n + 1, v + n);
    }
  }
  // Outer ring as the "face oval", walked counter-clockwise.
  const oval: number[] = [];
  for (let i = 0; i < n - 1; i++) oval.push(i);
  for (let j = 0; j < n - 1; j++) oval.push(j * n + n - 1);
  for (let i = n - 1; i > 0; i--) oval.push((n - 1) * n + i);
  for (let j = n - 1; j > 0; j--) oval.push(j * n);
  return { positions, normals, uvs, indices: Uint32Array.from(indices), oval, n };
}

/** A photo 200x200 whose left half is red and right half blue (image x grows to the right). */
function photo() {
  const data = new Uint8Array(200 * 200 * 3);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) data.set(x < 100 ? [200, 40, 40] : [40, 40, 200], (y * 200 + x) * 3);
  return { width: 200, height: 200, data };
}

/** Bakes the plane seen by a camera with this rotation (the plane faces it when identity). */
function bake(size: number, rotation = quatToMat3(1, 0, 0, 0), visible?: Uint8Array) {
  const p = plane();
  return bakeAlbedo({ size, ...p, photo: photo(), camera: { rotation, pixelsPerCm: 15, translation: [100, 100] }, faceOval: p.oval, skin: [200, 160, 140], visible });
}

test('the photo is projected onto the visible surface with the camera, in the right orientation', () => {
  const res = bake(64);
  const at = (u: number, v: number) => {
    const o = (Math.floor((1 - v) * 64) * 64 + Math.floor(u * 64)) * 4;
    return Array.from(res.rgba.subarray(o, o + 3));
  };
  // Well inside the face: photo colours, red on the head's -x side (image left).
  assert.deepEqual(at(0.3, 0.5), [200, 40, 40]);
  assert.deepEqual(at(0.7, 0.5), [40, 40, 200]);
  // The rim takes the fill colour, not the photo's exact pixels.
  assert.ok(res.photoWeight[0] === 0);
});

test('surfaces turned away from the camera take no photo colour', () => {
  const half = (85 * Math.PI) / 360;
  // 85 degrees about y: the plane still projects to an area.
  const res = bake(32, quatToMat3(Math.cos(half), 0, Math.sin(half), 0));
  assert.ok(res.photoWeight.every((w) => w === 0));
});

test('vertices the camera did not see take no photo colour', () => {
  const n = plane().n;
  const visible = new Uint8Array(n * n).fill(1);
  const hidden = n * 10 + 5;
  visible[hidden] = 0;
  const res = bake(32, undefined, visible);
  assert.equal(res.photoWeight[hidden], 0);
  assert.ok(res.photoWeight[hidden + 5] > 0.5);
});

test('pixels the person matte marks as background give no colour: the face takes the skin fill there', () => {
  const p = plane();
  // The photo's right half (blue) is background.
  const matte = new Uint8Array(200 * 200);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 100; x++) matte[y * 200 + x] = 255;
  const res = bakeAlbedo({ size: 64, ...p, photo: photo(), camera: { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] }, faceOval: p.oval, skin: [200, 160, 140], matte });
  for (let i = 0; i < 64 * 64; i++) {
    const [r, , b] = res.rgba.subarray(i * 4, i * 4 + 3);
    assert.ok(!(b > 100 && r < 100), `texel ${i} is the background's blue`);
  }
  const at = (u: number) => Array.from(res.rgba.subarray((32 * 64 + Math.floor(u * 64)) * 4, (32 * 64 + Math.floor(u * 64)) * 4 + 3));
  assert.deepEqual(at(0.3), [200, 40, 40]);
});

test('photo colours are multiplied by the per-vertex gains (linear light)', () => {
  const p = plane();
  const gain = new Float32Array((p.positions.length / 3) * 3);
  for (let v = 0; v < gain.length / 3; v++) gain.set([0.5, 1, 1], v * 3);
  const res = bakeAlbedo({ size: 64, ...p, photo: photo(), camera: { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] }, faceOval: p.oval, skin: [200, 160, 140], photoGain: gain });
  const o = (32 * 64 + Math.floor(0.3 * 64)) * 4;
  // sRGB 200 at half the linear light is about 146.
  assert.ok(Math.abs(res.rgba[o] - 146) <= 1, `red ${res.rgba[o]}`);
  assert.equal(res.rgba[o + 1], 40);
});

/**
 * The plane baked from a photo of skin with a highlight stripe (image columns 40-59), every vertex's gains `gain`:
 * the linear luminance, over the skin's, of a texel on the skin and of one on the stripe.
 */
function highlightUnderGain(gain: number, stripeFeature: number = FEATURE.skin): { skin: number; highlight: number } {
  const p = plane();
  const skin: [number, number, number] = [200, 160, 140];
  const data = new Uint8Array(200 * 200 * 3);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) data.set(x >= 40 && x < 60 ? [250, 235, 225] : skin, (y * 200 + x) * 3);
  const gains = new Float32Array(p.positions.length).fill(gain);
  const res = bakeAlbedo({
    size: 64, ...p, photo: { width: 200, height: 200, data }, camera: { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] },
    faceOval: p.oval, skin, photoGain: gains, highlights: { skin, features: stripeMask(stripeFeature) },
  });
  // Image column x is u = (x - 100) / 150 + 0.5: the stripe's middle (x 50) at u 0.167, skin at u 0.6; v in the middle.
  const lum = (u: number) => {
    const o = (32 * 64 + Math.floor(u * 64)) * 4;
    return luminance([0, 1, 2].map((c) => srgbToLinear[res.rgba[o + c]]));
  };
  const skinLum = luminance(skin.map((c) => srgbToLinear[c]));
  return { skin: lum(0.6) / skinLum, highlight: lum(0.167) / skinLum };
}

/** A feature mask of the 200 px photo: `feature` on the stripe (image columns 40-59), skin elsewhere. */
function stripeMask(feature: number): Uint8Array {
  const mask = new Uint8Array(200 * 200);
  for (let y = 0; y < 200; y++) mask.fill(feature, y * 200 + 40, y * 200 + 60);
  return mask;
}

test("the eyes' and the lips' own shine stays; a bright pixel in a brow's outline is skin and compressed as skin", () => {
  // The stripe is 2.17x as bright as the skin: compressed to about 1.5 on skin (the test below).
  for (const shiny of [FEATURE.eye, FEATURE.lips]) {
    const { highlight } = highlightUnderGain(1, shiny);
    assert.ok(Math.abs(highlight - 2.165) < 0.03, `feature ${shiny}: highlight ${highlight}`);
  }
  // Lifted by the gains (a face's shaded side), a brow's outline kept bright skin at its full lift: a pale wedge at
  // p11-a's far brow.
  for (const gain of [1, 2]) {
    const { highlight } = highlightUnderGain(gain, FEATURE.brow);
    assert.ok(Math.abs(highlight - 1.5) < 0.03, `brow under gain ${gain}: highlight ${highlight}`);
  }
});

test("the gains lift shaded skin up to the highlights' knee and a highlight no brighter than the photo showed it", () => {
  const unlifted = highlightUnderGain(1);
  const lifted = highlightUnderGain(2);
  // The stripe is 2.17x as bright as the skin in the photo: compressed to 1.15 + 35 % of the excess either way.
  assert.ok(Math.abs(unlifted.highlight - 1.5) < 0.03, `highlight ${unlifted.highlight}`);
  assert.ok(Math.abs(lifted.highlight - unlifted.highlight) < 0.03, `lifted highlight ${lifted.highlight} against ${unlifted.highlight}`);
  // The skin, twice as bright under the gains, stops at the knee (1.15), not at 1.15 + 35 % of the rest (1.45).
  assert.ok(Math.abs(lifted.skin - 1.15) < 0.03, `lifted skin ${lifted.skin}`);
  // Darkening gains work as before: half the light, under the knee, is not compressed.
  const darkened = highlightUnderGain(0.5);
  assert.ok(Math.abs(darkened.highlight - 0.5 * 2.165) < 0.03, `darkened highlight ${darkened.highlight}`);
});

/**
 * A face (a 10 cm square, its border the oval) above a 20 cm strip that stands in for the neck and the bust, facing
 * the camera: 5 px/cm, the face's top edge at image row 75, its bottom at row 125.
 */
function faceAndBustMesh() {
  const cols = 11, rows = 31;
  const positions = new Float32Array(cols * rows * 3), normals = new Float32Array(cols * rows * 3), uvs = new Float32Array(cols * rows * 2);
  const indices: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const v = j * cols + i;
      positions.set([i - 5, 5 - j, 0], v * 3);
      normals.set([0, 0, 1], v * 3);
      uvs.set([i / (cols - 1), 1 - j / (rows - 1)], v * 2);
      if (i < cols - 1 && j < rows - 1) indices.push(v, v + cols + 1, v + 1, v, v + cols, v + cols + 1);
    }
  }
  const oval: number[] = [];
  for (let i = 0; i < cols - 1; i++) oval.push(i);
  for (let j = 0; j < 10; j++) oval.push(j * cols + cols - 1);
  for (let i = cols - 1; i > 0; i--) oval.push(10 * cols + i);
  for (let j = 10; j > 0; j--) oval.push(j * cols);
  const camera = { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 5, translation: [130, 100] as [number, number] };
  return { size: 64, positions, normals, uvs, indices: Uint32Array.from(indices), faceOval: oval, camera, cols };
}

/** The 64 px atlas's colour on the strip, `below` cm under the face and `across` cm right of its middle. */
function stripColour(rgba: Uint8Array, below: number, across = 0): number[] {
  const o = (Math.floor(((10 + below) / 30) * 64) * 64 + Math.floor(((across + 5) / 10) * 64)) * 4;
  return Array.from(rgba.subarray(o, o + 3));
}

/** The photo shows the face in the skin tone and the neck a little darker. */
function faceAndBust(neckSeen: boolean) {
  const mesh = faceAndBustMesh();
  const skin: [number, number, number] = [200, 160, 140], neckColour = [180, 140, 120];
  // The neck, 2 to 4 cm below the face, at image rows 135 to 145.
  const data = new Uint8Array(260 * 260 * 3);
  for (let y = 0; y < 260; y++) for (let x = 0; x < 260; x++) data.set(y > 128 ? neckColour : skin, (y * 260 + x) * 3);
  const neck = [12, 13, 14].flatMap((j) => [3, 4, 5, 6, 7].map((i) => j * mesh.cols + i));
  const res = bakeAlbedo({ ...mesh, photo: { width: 260, height: 260, data }, skin, neck: neckSeen ? neck : [] });
  // The strip's far end, 16 cm below the neck.
  return stripColour(res.rgba, 19.4);
}

test("the bust takes the photo's neck colour where the photo shows the neck, the face's skin tone where it does not", () => {
  const seen = faceAndBust(true), unseen = faceAndBust(false);
  assert.ok(unseen.every((c) => Number.isFinite(c)), `no neck seen: ${unseen}`);
  assert.ok(Math.abs(unseen[0] - 200) <= 3 && Math.abs(unseen[2] - 140) <= 3, `no neck seen: the skin tone, ${unseen}`);
  assert.ok(seen[0] < 190 && seen[0] >= 178, `neck seen: near its colour (180, 140, 120), ${seen}`);
});

test("a neck sample much darker than the samples round it (a collar's check, a pendant) leaves no spot on the throat", () => {
  const mesh = faceAndBustMesh();
  const skin: [number, number, number] = [200, 160, 140], neckColour = [180, 140, 120];
  // The neck's skin hue, 0.82 as light as the neck round it: skin enough by its hue and luminance alone.
  const spot = neckColour.map((c) => Math.round(c * 0.82));
  const data = new Uint8Array(260 * 260 * 3);
  for (let y = 0; y < 260; y++) {
    for (let x = 0; x < 260; x++) data.set(Math.abs(x - 130) <= 3 && Math.abs(y - 140) <= 3 ? spot : y > 128 ? neckColour : skin, (y * 260 + x) * 3);
  }
  const neck = [12, 13, 14].flatMap((j) => [3, 4, 5, 6, 7].map((i) => j * mesh.cols + i));
  // A 256 px atlas: the fill is baked at a quarter of it, 2 cm a texel at 64.
  const size = 256;
  const res = bakeAlbedo({ ...mesh, size, photo: { width: 260, height: 260, data }, skin, neck });
  const luma = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  // The atlas's rows from the face's top edge (30 cm in all); the spot's vertex lies 13 cm down, 3 cm under the face,
  // in the middle; 1.5 cm to its right is the neck.
  const texel = (down: number, across: number) => {
    const o = (Math.floor((down / 30) * size) * size + Math.floor(((across + 5) / 10) * size)) * 4;
    return luma(Array.from(res.rgba.subarray(o, o + 3)));
  };
  const [at, beside] = [texel(13, 0), texel(13, 1.5)];
  assert.ok(at > 0.95 * beside, `the throat ${at.toFixed(1)} against the neck beside it ${beside.toFixed(1)}`);
});

/**
 * The face in the skin tone with its lower 2.6 cm (image rows 112-127) in `band`, and the mouth's corners at y -0.5
 * cm: the fill 1, 3 and 5 cm under the face (rgb and rec. 601 luma).
 */
function underTheJaw(band: (x: number, y: number) => number[], sideways = false) {
  const mesh = faceAndBustMesh();
  // The skin under the face turned to face sideways (+x), as the head's sides beside the face do.
  if (sideways) for (let v = 11 * mesh.cols; v < mesh.normals.length / 3; v++) mesh.normals.set([1, 0, 0], v * 3);
  const skin: [number, number, number] = [200, 160, 140];
  const data = new Uint8Array(260 * 260 * 3);
  for (let y = 0; y < 260; y++) for (let x = 0; x < 260; x++) data.set(y >= 112 && y < 128 ? band(x, y) : skin, (y * 260 + x) * 3);
  const v = (i: number, j: number) => j * mesh.cols + i;
  // The lips' outer contour: its 1st and 11th points are the corners (y 0 and -1).
  const contour = [...[2, 3, 4, 5, 6, 7, 8].map((i) => v(i, 5)), ...[8, 7, 6, 5, 4, 3, 2].map((i) => v(i, 6))];
  const res = bakeAlbedo({ ...mesh, photo: { width: 260, height: 260, data }, skin, lips: { contour, colour: [180, 60, 80] } });
  const luma = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  const [near, mid, far, side] = [stripColour(res.rgba, 1), stripColour(res.rgba, 3), stripColour(res.rgba, 5), stripColour(res.rgba, 1, -4)];
  return { near, far, nearLuma: luma(near), midLuma: luma(mid), farLuma: luma(far), side, sideLuma: luma(side) };
}

/** Dark brown strands, a pixel wide. */
function strands(seed: number) {
  const rnd = seededRandom(seed);
  return () => {
    const l = 30 + 60 * rnd();
    return [l * 1.2, l, l * 0.8];
  };
}

test("a beard at the jaw's border goes on under the chin; a shadow as dark does not, and neither reaches far", () => {
  // Strands, and a smooth shadow of the same mean.
  const beard = underTheJaw(strands(5));
  const shadow = underTheJaw(() => [72, 60, 48]);
  // The skin tone's luma is 170; the beard's about 60, shown at no less than 0.45 of the skin's (76).
  assert.ok(beard.nearLuma < 95, `1 cm under a beard: ${beard.near}`);
  assert.ok(beard.near[0] > beard.near[2], `the beard's brown: ${beard.near}`);
  // A shadow at the border is kept to 0.7 of the skin tone (119) and fades to it.
  assert.ok(shadow.nearLuma > 110, `1 cm under a shadow: ${shadow.near}`);
  assert.ok(Math.abs(beard.farLuma - shadow.farLuma) < 3, `5 cm under: ${beard.far} against ${shadow.far}`);
});

test("a shaded border's darkness stays by the face: 3 cm beyond it the fill is nearly the skin tone", () => {
  // The border in shade (luma 61, kept to 0.7 of the skin tone's 170 at it): skin turning away from the camera, not
  // darker skin. Drifting to the tone over 2-9 cm, the fill read 124 here (now 153); the skin beside a face 10 L* darker.
  const shadow = underTheJaw(() => [72, 60, 48]);
  assert.ok(shadow.midLuma > 145, `3 cm under a shadow: ${shadow.midLuma.toFixed(1)}`);
});

test("where the fill faces sideways, the border's shade is kept to a tenth (no greyer halo round the face)", () => {
  const front = underTheJaw(() => [72, 60, 48]);
  const sideways = underTheJaw(() => [72, 60, 48], true);
  // The skin tone's luma is 170: facing the front the shade is kept to 0.7 of it (119), sideways to 0.9 (153); the
  // fill, baked at a quarter size, blends both with the border's row, which faces the front (128 and 141 read).
  assert.ok(front.nearLuma < 135, `1 cm under a shadow, facing the front: ${front.nearLuma.toFixed(1)}`);
  assert.ok(sideways.nearLuma > front.nearLuma + 10, `1 cm under a shadow, facing sideways: ${sideways.nearLuma.toFixed(1)}, the front ${front.nearLuma.toFixed(1)}`);
});

test("hair hanging beside the jaw, the chin's middle clean, is no beard", () => {
  // The strands only more than 2.5 cm either side of the face's middle (image x 130 +- 12.5).
  const hair = strands(6);
  const beside = underTheJaw((x) => (Math.abs(x - 130) > 12.5 ? hair() : [200, 160, 140]));
  const beard = underTheJaw(strands(6));
  assert.ok(beard.sideLuma < 95, `1 cm under a beard, 4 cm aside: ${beard.side}`);
  assert.ok(beside.sideLuma > 110, `1 cm under hair beside the jaw, 4 cm aside: ${beside.side}`);
});

/**
 * Red skin inside, blue at the border (hair framing the face, which the fill's border samples take), and green in a
 * patch (the photo's own hair, or what stands in front of the skin there) at image x 55..80, y 85..115: plane x
 * -3..-1.3 cm, y -1..1 cm.
 */
function skinPhoto() {
  const data = new Uint8Array(200 * 200 * 3);
  const inPatch = (x: number, y: number) => x >= 55 && x < 80 && y >= 85 && y < 115;
  for (let y = 0; y < 200; y++) {
    for (let x = 0; x < 200; x++) {
      const border = x < 47 || x >= 153 || y < 47 || y >= 153;
      data.set(inPatch(x, y) ? [40, 200, 40] : border ? [40, 40, 200] : [200, 60, 50], (y * 200 + x) * 3);
    }
  }
  return { width: 200, height: 200, data };
}
const camera = { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] as [number, number] };
/** The patch and a little around it, on the plane. */
const overPatch = (p: ReturnType<typeof plane>, v: number) => {
  const [x, y] = [p.positions[v * 3], p.positions[v * 3 + 1]];
  return x > -3.6 && x < -0.8 && Math.abs(y) < 1.5;
};
/** The atlas's colour at the patch's middle: image (67, 100), plane (-2.2, 0), uv (0.28, 0.5). */
function patchMiddle(rgba: Uint8Array): number[] {
  const o = (32 * 64 + Math.floor(0.28 * 64)) * 4;
  return Array.from(rgba.subarray(o, o + 3));
}

test('skin under a hair mesh continues the photo skin around it, not the photo under it nor the border fill', () => {
  const p = plane();
  const hairOver = { at: (v: number) => (overPatch(p, v) ? 1 : 0) };
  const res = bakeAlbedo({ size: 64, ...p, photo: skinPhoto(), camera, faceOval: p.oval, skin: [200, 160, 140], hairOver });
  const [r, g, b] = patchMiddle(res.rgba);
  assert.ok(r > 150 && g < 110 && b < 110, `under the hair ${[r, g, b]}: the red skin around it`);
});

test('skin the camera did not see (behind the nose) continues the photo skin around it, not the fill', () => {
  const p = plane();
  const visible = Uint8Array.from({ length: p.n * p.n }, (_, v) => (overPatch(p, v) ? 0 : 1));
  const res = bakeAlbedo({ size: 64, ...p, photo: skinPhoto(), camera, faceOval: p.oval, skin: [200, 160, 140], visible });
  const [r, g, b] = patchMiddle(res.rgba);
  // (Before, the fill: the border's colour drifting to the skin tone, 141, 113, 99 here.)
  assert.ok(r > 150 && g < 110 && b < 110, `unseen ${[r, g, b]}: the red skin around it`);
});

test("skin the camera did not see takes its mirror partner's photo colour where the photo shows the partner", () => {
  const p = plane();
  const visible = Uint8Array.from({ length: p.n * p.n }, (_, v) => (overPatch(p, v) ? 0 : 1));
  // The patch's mirror image across the face's middle (image x 120-145, plane x 0.8-3.6) is another skin's colour.
  const photo = skinPhoto();
  for (let y = 85; y < 115; y++) for (let x = 120; x < 145; x++) photo.data.set([220, 140, 60], (y * 200 + x) * 3);
  const res = bakeAlbedo({ size: 64, ...p, photo, camera, faceOval: p.oval, skin: [200, 160, 140], visible });
  const [r, g, b] = patchMiddle(res.rgba);
  // (Before, the red skin around it: 200, 60, 50.)
  assert.ok(r > 180 && g > 100 && b < 90, `unseen ${[r, g, b]}: nearer its mirror partner's (220, 140, 60)`);
});

test("the lips' unseen inner rim takes the lips' colour in shade, not the skin around nor the skin fill", () => {
  const p = plane();
  // Skin everywhere; the lips' outer contour a rectangle of grid vertices around the patch (columns 3-8, rows 7-13).
  const data = new Uint8Array(200 * 200 * 3);
  for (let i = 0; i < 200 * 200; i++) data.set([200, 160, 140], i * 3);
  const v = (i: number, j: number) => j * p.n + i;
  const contour = [
    ...[3, 4, 5, 6, 7].map((i) => v(i, 7)),
    ...[7, 8, 9, 10, 11, 12].map((j) => v(8, j)),
    ...[8, 7, 6, 5, 4].map((i) => v(i, 13)),
    ...[13, 12, 11, 10, 9, 8].map((j) => v(3, j)),
  ];
  const visible = Uint8Array.from({ length: p.n * p.n }, (_, k) => (overPatch(p, k) ? 0 : 1));
  const lips = { contour, colour: [180, 60, 80] as [number, number, number] };
  const res = bakeAlbedo({ size: 64, ...p, photo: { width: 200, height: 200, data }, camera, faceOval: p.oval, skin: [200, 160, 140], visible, lips });
  const [r, g, b] = patchMiddle(res.rgba);
  // 0.55 of the lips' colour: 99, 33, 44.
  assert.ok(Math.abs(r - 99) < 15 && Math.abs(g - 33) < 15 && Math.abs(b - 44) < 15, `unseen lips ${[r, g, b]}`);
  // Without the lips the same texel continues the skin around it.
  const [r2, g2, b2] = patchMiddle(bakeAlbedo({ size: 64, ...p, photo: { width: 200, height: 200, data }, camera, faceOval: p.oval, skin: [200, 160, 140], visible }).rgba);
  assert.ok(Math.abs(r2 - 200) < 10 && Math.abs(g2 - 160) < 10 && Math.abs(b2 - 140) < 10, `unseen skin ${[r2, g2, b2]}`);
});

/**
 * Skin everywhere but a band of `band` along the face's left border; the atlas at the left rim (u = 0), where the photo
 * gives no weight: the fill alone.
 */
function rimBeyondBorderBand(band: number[]): number[] {
  const p = plane();
  const data = new Uint8Array(200 * 200 * 3);
  for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) data.set(x < 60 ? band : [200, 160, 140], (y * 200 + x) * 3);
  const res = bakeAlbedo({ size: 64, ...p, photo: { width: 200, height: 200, data }, camera: { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] }, faceOval: p.oval, skin: [200, 160, 140] });
  const o = (32 * 64) * 4;
  return Array.from(res.rgba.subarray(o, o + 3));
}

test("the border fill keeps the skin's hue where the photo's border lies in deep shadow (no red rim)", () => {
  // A shadow far deeper than the skin and saturated red, as a side-lit face's far cheek photographs.
  const [r, g, b] = rimBeyondBorderBand([60, 20, 15]);
  assert.ok(r / (r + g + b) < 0.45, `rim ${[r, g, b]}: the skin's red share is 0.40, the shadow's 0.63`);
});

test("the border fill keeps the skin's hue where the photo's border is lit but of another hue (a blush, an ear)", () => {
  // As light as the skin and redder: the fill's samples there kept its hue, and the unseen cheek behind it took it as a
  // red blotch.
  const [r, g, b] = rimBeyondBorderBand([225, 135, 120]);
  // The skin's chromaticity (r, g) is (0.400, 0.320), the band's (0.469, 0.281).
  const off = Math.hypot(r / (r + g + b) - 0.4, g / (r + g + b) - 0.32);
  assert.ok(off < 0.03, `rim ${[r, g, b]}: ${off.toFixed(3)} from the skin's hue`);
  assert.ok(r + g + b > 0.9 * 500, `rim ${[r, g, b]}: as light as the skin`);
});

test('the atlas is baked into the array given for it (shared memory) as it is into a new one', () => {
  const p = plane();
  const input = { size: 32, ...p, photo: photo(), camera: { rotation: quatToMat3(1, 0, 0, 0), pixelsPerCm: 15, translation: [100, 100] as [number, number] }, faceOval: p.oval, skin: [200, 160, 140] as [number, number, number] };
  const out = new Uint8Array(new SharedArrayBuffer(32 * 32 * 4));
  const given = bakeAlbedo({ ...input, out });
  assert.equal(given.rgba, out);
  assert.deepEqual([...out], [...bakeAlbedo(input).rgba]);
  assert.throws(() => bakeAlbedo({ ...input, out: new Uint8Array(16) }), RangeError);
});
