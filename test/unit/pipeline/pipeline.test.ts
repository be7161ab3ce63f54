import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { PhotoPipeline, type PhotoPipelineResult } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { headMeshReport } from '../../../tools/quality/evaluate.ts';
import { PACKAGE_VIEW_SIZE } from '../../../src/pipeline/output.ts';
import { projectPoints } from '../../../src/geometry/texture/photo-camera.ts';
import { blendshapeNames } from '../../../src/geometry/expressions/blendshapes.ts';
import { posedPositions } from '../../../tools/posed-model.ts';
import { buildUnityModel, writeUnityJson } from '../../../src/formats/write/unity-json.ts';

const photo = new Uint8Array(readFileSync(new URL('../../../assets/samples/sample-2.jpg', import.meta.url)));
const pipeline = new PhotoPipeline(loadTemplateView);
const progress: [number, string][] = [];
let result: PhotoPipelineResult;

test('a sample photo becomes a complete avatar (template 1.6, all features)', { timeout: 120_000 }, async () => {
  result = await pipeline.run({ inputType: 'photo', file: photo, template: '1.6', features: ['basic', 'expressions', 'visemes'] }, (p, s) => progress.push([p, s]));
  const m = result.model;
  // A photo with hair adds the hair mesh, named by the meta entry hairstyle.
  const hair = result.meta.hairstyle !== 'none';
  assert.deepEqual(m.meshes.map((x) => x.name), ['head', 'eyeLeft', 'eyeRight', 'teeth', 'tongue', 'cornea', 'eyelashes', 'tearLine', 'caruncle', ...(hair ? ['hair'] : [])]);
  assert.equal(m.template, '1.6');
  for (const mesh of m.meshes) {
    const n = mesh.geometry.positions.length / 3;
    assert.equal(mesh.geometry.normals.length, n * 3);
    assert.equal(mesh.skin.joints.length, n * 4);
    assert.ok(mesh.geometry.positions.every(Number.isFinite), mesh.name);
    assert.ok(m.materials.some((mat) => mat.name === mesh.material));
  }
  assert.deepEqual(m.bones.slice(0, 8).map((b) => b.name), ['root', 'spine', 'chest', 'neck', 'head', 'jaw', 'eyeLeft', 'eyeRight']);
});

test('textures are PNGs named after their meshes and maps; the head atlas has the template size', async () => {
  const names = result.model.textures.map((t) => t.name).sort();
  const hair = result.meta.hairstyle !== 'none' ? ['hair_baseColor.png'] : [];
  const maps = (mesh: string, normal: boolean) => [`${mesh}_baseColor.png`, `${mesh}_metallicRoughness.png`, ...(normal ? [`${mesh}_normal.png`] : []), `${mesh}_occlusion.png`];
  // The cornea and the tear line are clear films (colour and opacity in the material); the lashes and the caruncle have a colour only.
  assert.deepEqual(names, ['caruncle_baseColor.png', ...maps('eyeLeft', false), ...maps('eyeRight', false), 'eyelashes_baseColor.png', ...hair, ...maps('head', true), ...maps('teeth', false), ...maps('tongue', true)]);
  const lashes = await sharp(result.model.textures.find((t) => t.name === 'eyelashes_baseColor.png')!.data).metadata();
  assert.ok(lashes.hasAlpha && lashes.width! <= 2048, 'the lash texture keeps its coverage');
  const head = result.model.textures.find((t) => t.name === 'head_baseColor.png')!;
  const meta = await sharp(head.data).metadata();
  assert.equal(meta.format, 'png');
  assert.equal(meta.width, 1024);
  assert.equal(meta.height, 1024);
});

test('every mesh carries the same blendshapes in the same order (the hair none: it rides on the head bone)', () => {
  const expected = blendshapeNames(['basic', 'expressions', 'visemes']);
  for (const mesh of result.model.meshes.filter((x) => x.name !== 'hair')) assert.deepEqual(mesh.morphs.map((t) => t.name), expected, mesh.name);
  assert.equal(result.meta['supports-expressions'], 'true');
  assert.equal(result.meta['supports-visemes'], 'true');
});

test('basic animation clips come with the basic feature', () => {
  const names = result.model.animations.map((a) => a.name);
  assert.ok(names.includes('idle'), names.join(','));
  assert.equal(result.meta['supports-basic-animation'], 'true');
});

test('the Unity JSON of a real avatar is written as JSON.stringify prints its model, byte for byte', () => {
  assert.ok(Buffer.from(writeUnityJson(result.model)).equals(Buffer.from(JSON.stringify(buildUnityModel(result.model)), 'utf8')));
});

test('meta entries describe the avatar', () => {
  const meta = result.meta;
  assert.equal(meta.template, '1.6');
  assert.equal(meta['supports-deformation'], 'true');
  assert.equal(meta['face-count'], '1');
  assert.match(meta['face-box'], /^\d+,\d+,\d+,\d+$/);
  assert.match(meta['head-pose'], /^-?\d+\.\d,-?\d+\.\d,-?\d+\.\d$/);
  assert.match(meta['skin-tone'], /^#[0-9a-f]{6}$/);
  assert.match(meta['iris-colour'], /^#[0-9a-f]{6}$/);
  assert.match(meta.hairstyle, /^[a-z-]+$/);
  assert.equal(meta.glasses, 'false');
  assert.match(meta.light, /^-?\d\.\d\d,-?\d\.\d\d,-?\d\.\d\d #[0-9a-f]{6}$/);
});

test('progress rises stage by stage', () => {
  const percents = progress.map(([p]) => p);
  assert.ok(percents.length >= 5);
  for (let i = 1; i < percents.length; i++) assert.ok(percents[i] > percents[i - 1], JSON.stringify(progress));
});

test('deformation data pairs the template head with the fitted head, vertex for vertex', () => {
  const d = result.deformation!;
  const head = result.model.meshes[0].geometry;
  assert.equal(d.avatar.length, head.positions.length);
  assert.equal(d.template.length, d.avatar.length);
  assert.deepEqual(Array.from(d.indices), Array.from(head.indices));
  assert.ok(d.template.some((v, i) => Math.abs(v - d.avatar[i]) > 0.05), 'the avatar differs from the template');
});

test('the fitted face with the photo expression put back lands on the photo landmarks through the estimated camera', () => {
  // The avatar is neutral (issue 19); the photo's landmarks carry its expression.
  const head = posedPositions(result.model.meshes[0], result.expression);
  const img = projectPoints(result.camera, head.subarray(0, 468 * 3));
  const lm = result.analysis.landmarks;
  const errors = Array.from({ length: 468 }, (_, i) => Math.hypot(img[i * 2] - lm[i * 3], img[i * 2 + 1] - lm[i * 3 + 1]) * result.analysis.cmPerPixel).sort((a, b) => a - b);
  // The shapes put back are the template's, computed on the neutral head: they land near, not on, the landmarks
  // (0.056 cm at the 95th percentile on this photo; the neutral itself is 0.10 cm off, the fit before issue 19 under 0.05).
  assert.ok(errors[Math.floor(468 * 0.95)] < 0.07, `95th percentile ${errors[Math.floor(468 * 0.95)]} cm`);
  assert.ok(errors[467] < 0.2, `worst ${errors[467]} cm`);
});

test('the eyeballs sit behind the irises', () => {
  const { landmarks, cmPerPixel } = result.analysis;
  for (const [mesh, iris] of [['eyeLeft', 468], ['eyeRight', 473]] as const) {
    // The iris centre on the mesh: the vertex at the middle of the front UV disc (the eyeball may be turned).
    const { positions: p, uvs } = result.model.meshes.find((m) => m.name === mesh)!.geometry;
    let pole = 0;
    for (let v = 0; v < uvs.length / 2; v++) if (Math.hypot(uvs[2 * v] - 0.5, uvs[2 * v + 1] - 0.5) < Math.hypot(uvs[2 * pole] - 0.5, uvs[2 * pole + 1] - 0.5)) pole = v;
    const [irisX, irisY] = result.analysis.headLandmarks.subarray(iris * 3, iris * 3 + 2);
    const off = Math.hypot(p[3 * pole] - irisX, p[3 * pole + 1] - irisY);
    assert.ok(off < 0.05, `${mesh}: iris centre ${off} cm off the detected one`);
  }
  assert.ok(landmarks.length === 478 * 3 && cmPerPixel > 0);
});

test('the fitted head passes the mesh checks', () => {
  const { valid, report } = headMeshReport(result);
  assert.ok(valid, JSON.stringify(report));
});

test('the preview is a 1024x1024 JPEG and a transparent PNG', async () => {
  const jpg = await sharp(result.preview.jpg).metadata();
  const png = await sharp(result.preview.png).metadata();
  assert.equal(jpg.format, 'jpeg');
  assert.equal(png.format, 'png');
  assert.equal(jpg.width, 1024);
  assert.equal(png.height, 1024);
  assert.equal(png.hasAlpha, true);
  const { data } = await sharp(result.preview.png).raw().toBuffer({ resolveWithObject: true });
  assert.equal(data[3], 0, 'the corner is transparent');
});

test('the package views: front, three-quarter and side, transparent PNGs of the whole head', async () => {
  const pixels = async (png: Uint8Array) => {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height, info.channels], [PACKAGE_VIEW_SIZE, PACKAGE_VIEW_SIZE, 4]);
    assert.equal(data[3], 0, 'the corner is transparent');
    return data;
  };
  /** Covered share of the image, and the covered extent of the row at 45 % of its height (through the eyes). */
  const coverage = async (png: Uint8Array) => {
    const data = await pixels(png);
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 128) n++;
    const row = Math.round(PACKAGE_VIEW_SIZE * 0.45);
    let first = -1, last = -1;
    for (let x = 0; x < PACKAGE_VIEW_SIZE; x++) if (data[(row * PACKAGE_VIEW_SIZE + x) * 4 + 3] > 128) { if (first < 0) first = x; last = x; }
    return { share: n / (PACKAGE_VIEW_SIZE * PACKAGE_VIEW_SIZE), width: last - first };
  };
  const [front, threeQuarter, side] = await Promise.all([result.views.front, result.views.threeQuarter, result.views.side].map(coverage));
  // The front view is the preview scaled to the views' size.
  const preview = await coverage(await sharp(result.preview.png).resize(PACKAGE_VIEW_SIZE).png().toBuffer());
  assert.ok(Math.abs(front.share - preview.share) < 0.002, JSON.stringify({ front, preview }));
  // Every view shows the head large in its frame and whole: nothing covered at the top, left or right
  // edge (the bottom edge may cut the neck, as a portrait does).
  const last = PACKAGE_VIEW_SIZE - 1;
  for (const png of Object.values(result.views)) {
    const data = await pixels(png);
    for (let k = 0; k < PACKAGE_VIEW_SIZE; k++) assert.equal(data[k * 4 + 3] + data[k * PACKAGE_VIEW_SIZE * 4 + 3] + data[(k * PACKAGE_VIEW_SIZE + last) * 4 + 3], 0);
  }
  // The bust and long hair take part of the frame: the head and shoulders cover at least a fifth of it.
  for (const v of [front, threeQuarter, side]) assert.ok(v.share > 0.2 && v.share < 0.8, JSON.stringify(v));
  // Turned, the head shows its depth: a profile from the nose to the back of the head is wider than the face.
  assert.ok(side.width > front.width * 1.05, JSON.stringify({ front, threeQuarter, side }));
});
