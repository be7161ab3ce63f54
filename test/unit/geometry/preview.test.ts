import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { AvatarModel, MeshData } from '../../../src/model/avatar.ts';
import { decodeMaterialTextures } from '../../../tools/decode-image.ts';
import { encodePreview, PREVIEW_BACKGROUND } from '../../../src/formats/write/encode-preview.ts';
import { modelItems, renderPreview } from '../../../src/geometry/render/preview.ts';
import { buildTestAvatar } from '../../fixtures/avatar.ts';
import { uvSphere } from '../../fixtures/shapes.ts';

/** A "head": a sphere 20 cm across, centred 160 cm up, with a red texture; and a black-blended "visor". */
async function sphereModel(): Promise<AvatarModel> {
  const sphere = uvSphere(10, 48, 32);
  const shifted = (m: MeshData, dy: number, s = 1): MeshData => ({
    ...m,
    positions: m.positions.map((v, i) => v * s + (i % 3 === 1 ? dy : 0)),
  });
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 200, g: 40, b: 30 } } }).png().toBuffer();
  const none = { joints: new Uint16Array(0), weights: new Float32Array(0) };
  return {
    name: 'sphere',
    template: '1.6',
    meshes: [{ name: 'head', geometry: shifted(sphere, 160), material: 'skin', skin: none, morphs: [] }],
    bones: [],
    materials: [
      { name: 'skin', baseColorFactor: [1, 1, 1, 1], baseColorTexture: 'skin.png', roughness: 0.8, metallic: 0, alphaMode: 'OPAQUE' },
    ],
    textures: [{ name: 'skin.png', mimeType: 'image/png', width: 4, height: 4, data: new Uint8Array(png) }],
    animations: [],
  };
}

test('the preview frames the model in the middle of a transparent 1024x1024 image', async () => {
  const model = await sphereModel();
  const textures = await decodeMaterialTextures(model);
  assert.deepEqual([...textures.keys()], ['skin.png']);
  const img = renderPreview(model, textures);
  assert.equal(img.width, 1024);
  assert.equal(img.height, 1024);
  let minX = 1024, maxX = 0, minY = 1024, maxY = 0;
  for (let y = 0; y < 1024; y++) {
    for (let x = 0; x < 1024; x++) {
      if (img.rgba[(y * 1024 + x) * 4 + 3] === 0) continue;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  assert.ok(Math.abs((minX + maxX) / 2 - 512) < 3 && Math.abs((minY + maxY) / 2 - 512) < 10, `${minX}-${maxX} ${minY}-${maxY}`);
  // Large in the frame but not cut off.
  assert.ok(maxX - minX > 700 && minX > 10 && minY > 10 && maxX < 1013 && maxY < 1013);
  const centre = (512 * 1024 + 512) * 4;
  assert.ok(img.rgba[centre] > 2 * img.rgba[centre + 1], 'textured red');
});

test('previews encode as a JPEG on a solid background and as a PNG with transparency', async () => {
  const model = await sphereModel();
  const img = renderPreview(model, await decodeMaterialTextures(model), { size: 256 });
  const jpg = await encodePreview(img, 'jpg');
  const png = await encodePreview(img, 'png');
  assert.deepEqual([jpg[0], jpg[1]], [0xff, 0xd8]);
  const j = await sharp(jpg).raw().toBuffer({ resolveWithObject: true });
  assert.equal(j.info.channels, 3);
  assert.equal(j.info.width, 256);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(j.data[k] - PREVIEW_BACKGROUND[k]) <= 2);
  const p = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  assert.equal(p.info.channels, 4);
  assert.equal(p.data[3], 0);
  assert.equal(p.data[(128 * 256 + 128) * 4 + 3], 255);
});

test('render items carry the whole material: coverage, alpha mode and cutoff, sides, normal map with tangents, occlusion, roughness', async () => {
  const model = buildTestAvatar();
  const textures = await decodeMaterialTextures(model);
  assert.deepEqual([...textures.keys()].sort(), model.textures.map((t) => t.name).sort());
  const [head, , , hair, lashes] = modelItems(model, textures);
  const orm = textures.get('head_occlusionRoughnessMetallic.png');
  assert.equal(head.normalMap, textures.get('head_normal.png'));
  assert.equal(head.tangents?.length, (model.meshes[0].geometry.positions.length / 3) * 4);
  assert.deepEqual([head.occlusion, head.roughnessMap, head.roughness, head.alphaMode, head.doubleSided], [orm, orm, 1, 'OPAQUE', undefined]);
  assert.deepEqual([hair.texture, hair.alphaMode, hair.doubleSided, hair.roughness], [textures.get('hair_baseColor.png'), 'BLEND', true, 0.5]);
  assert.deepEqual([lashes.alphaMode, lashes.alphaCutoff, lashes.doubleSided], ['MASK', 0.4, true]);
  // The hair cards show in front of the head: strand colour between the strands' gaps, blended at their soft edges.
  const img = renderPreview(model, textures, { size: 256 });
  let strand = 0, mixed = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    const [r, g, b] = img.rgba.subarray(i, i + 3);
    if (img.rgba[i + 3] === 255 && r < 110 && g < 80 && b < 60) strand++;
    else if (img.rgba[i + 3] === 255 && r < 160 && r > 110) mixed++;
  }
  assert.ok(strand > 500 && mixed > 500, `${strand} strand pixels, ${mixed} mixed`);
});
