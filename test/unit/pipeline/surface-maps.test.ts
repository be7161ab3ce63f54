/**
 * Issue 20 item 6: the PBR maps' content. Occlusion darkens the enclosed places (the mouth's inside)
 * and leaves the open ones (the forehead) bright; roughness is lower on the lips and the eyes than on
 * the skin; the normal map carries detail (not the flat 128,128,255). Every mesh's material names them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { surfaceMapName, surfaceMaps } from '../../../src/pipeline/surface-maps.ts';
import { vertexOcclusion, yawFreeEyeOcclusion } from '../../../src/geometry/texture/bake-surface-maps.ts';
import { assemble } from '../../../src/pipeline/output.ts';
import type { RgbaImage } from '../../../src/geometry/render/image.ts';
import { BOUND_PART_NAMES } from '../../../src/geometry/template/types.ts';

const tpl = loadTemplateView('1.6');
const maps = surfaceMaps(tpl);

/** The map's texel under a head vertex's UV, or half way between two vertices' UVs. */
function at(img: RgbaImage, uvs: Float32Array, v: number, channel: number, w = v): number {
  const x = Math.min(img.width - 1, Math.floor(((uvs[2 * v] + uvs[2 * w]) / 2) * img.width));
  const y = Math.min(img.height - 1, Math.floor((1 - (uvs[2 * v + 1] + uvs[2 * w + 1]) / 2) * img.height));
  return img.rgba[(y * img.width + x) * 4 + channel];
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

test('occlusion: the mouth inside is darker than the forehead', () => {
  const head = tpl.meshes[0].geometry, ao = maps.images.get(surfaceMapName('head', 'occlusion'))!;
  const forehead = mean([10, 151, 9, 108, 337].map((v) => at(ao, head.uvs, v, 0)));
  const mouth = mean(tpl.mouthInside.map((v) => at(ao, head.uvs, v, 0)));
  assert.ok(forehead > 200, `forehead ${forehead}`);
  assert.ok(mouth < 0.6 * forehead, `mouth ${mouth} against forehead ${forehead}`);
});

// Baked at rest, an eyeball's occlusion turns with the eye: the nose side, 0.4 of the sky at rest against 0.9 in front,
// came into the opening's middle looking out. Without yawFreeEyeOcclusion the first check fails (0.54 apart).
test('occlusion: below the jaw it changes smoothly from vertex to vertex, without steps that read as bands', () => {
  // Seen from 24 sky directions, neighbouring vertices of the neck and the bust differed by whole directions: up to
  // 66 levels (of 255) across an edge, a jagged band round the neck in every turned view. Smoothed, 26 at most.
  const head = tpl.meshes[0].geometry, ao = maps.images.get(surfaceMapName('head', 'occlusion'))!;
  const p = head.positions;
  let steepest = 0;
  for (let t = 0; t < head.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = head.indices[t + k], b = head.indices[t + ((k + 1) % 3)];
      if (p[3 * a + 1] < -10 && p[3 * b + 1] < -10) steepest = Math.max(steepest, Math.abs(at(ao, head.uvs, a, 0) - at(ao, head.uvs, b, 0)));
    }
  }
  assert.ok(steepest <= 32, `neighbouring vertices' occlusion differs by up to ${steepest} levels`);
});

test('occlusion: an eyeball\'s is the same all round each latitude on its front, and darker under the lids', () => {
  const meshes = tpl.meshes.filter((m) => !(BOUND_PART_NAMES as readonly string[]).includes(m.name));
  const raw = vertexOcclusion(meshes.map((m) => m.geometry));
  for (const name of ['eyeLeft', 'eyeRight']) {
    const i = meshes.findIndex((m) => m.name === name);
    const p = meshes[i].geometry.positions;
    const { center, radius } = tpl.eyes[name];
    const ao = yawFreeEyeOcclusion(p, center, radius, raw[i]);
    const polar = [...Array(p.length / 3).keys()].map((v) => {
      const [x, y, z] = [0, 1, 2].map((k) => (p[3 * v + k] - center[k]) / radius);
      return { v, latitude: Math.asin(Math.max(-1, Math.min(1, y))), yaw: Math.atan2(x, z), z };
    });
    // Each vertex ahead against those at its latitude 30-60 degrees to either side (the eye turns 22 degrees).
    const ahead = polar.filter((q) => Math.abs(q.yaw) < 0.3 && Math.abs(q.latitude) < 0.9);
    let worst = 0, pairs = 0;
    for (const a of ahead) {
      for (const b of polar.filter((q) => Math.abs(q.latitude - a.latitude) < 0.03 && Math.abs(q.yaw) > 0.5 && Math.abs(q.yaw) < 1.05)) {
        worst = Math.max(worst, Math.abs(ao[a.v] - ao[b.v]));
        pairs++;
      }
    }
    assert.ok(pairs >= 6 && worst < 0.06, `${name}: ${pairs} pairs, most apart ${worst.toFixed(3)}`);
    const band = (lo: number, hi: number) => mean(ahead.filter((q) => q.latitude >= lo && q.latitude < hi).map((q) => ao[q.v]));
    assert.ok(band(0.6, 0.9) < band(-0.15, 0.15) - 0.25, `${name}: under the upper lid ${band(0.6, 0.9).toFixed(2)}, ahead ${band(-0.15, 0.15).toFixed(2)}`);
  }
});

test('roughness: lips and eyes smoother than the skin', () => {
  const head = tpl.meshes[0].geometry, r = maps.images.get(surfaceMapName('head', 'metallicRoughness'))!;
  const skin = mean([10, 151, 50, 280].map((v) => at(r, head.uvs, v, 1)));
  // Half way across each lip (outer contour point to inner): the contour points themselves border the face.
  const lips = mean([[0, 13], [17, 14], [37, 82], [84, 87]].map(([outer, inner]) => at(r, head.uvs, outer, 1, inner)));
  assert.ok(lips < skin - 20, `lips ${lips}, skin ${skin}`);
  const eye = maps.images.get(surfaceMapName('eyeLeft', 'metallicRoughness'))!;
  assert.ok(eye.rgba[(64 * eye.width + 64) * 4 + 1] < skin / 2, 'the cornea is glossy');
  assert.ok([...Array(r.width * r.height).keys()].every((t) => r.rgba[t * 4 + 2] === 0), 'not metallic');
});

test('normal map: unit normals facing out, with detail on the face', () => {
  const n = maps.images.get(surfaceMapName('head', 'normal'))!;
  let tilted = 0;
  for (let t = 0; t < n.width * n.height; t++) {
    const [x, y, z] = [0, 1, 2].map((k) => n.rgba[t * 4 + k] / 127.5 - 1);
    assert.ok(Math.abs(Math.hypot(x, y, z) - 1) < 0.03 && z > 0.5);
    if (Math.hypot(x, y) > 0.05) tilted++;
  }
  // Part of the atlas lies between the UV islands (flat there).
  assert.ok(tilted > 0.05 * n.width * n.height, `${tilted} texels tilted`);
});

test('every mesh material names its three maps, and each is encoded (the clear films, lash cards and caruncle have none)', async () => {
  const geometries = tpl.meshes.map((m) => m.geometry);
  // The template's own rig, as a fit that moved nothing leaves it.
  const model = assemble(tpl, geometries, { bones: tpl.bones, headSkin: tpl.meshes[0].skin }, maps.images, undefined);
  const names = new Set((await maps.textures).map((t) => t.name));
  const bound = new Set<string>(BOUND_PART_NAMES);
  for (const m of model.materials) {
    if (bound.has(m.name)) {
      assert.ok(!m.occlusionTexture && !m.metallicRoughnessTexture && !m.normalTexture, m.name);
      continue;
    }
    assert.ok(m.occlusionTexture && names.has(m.occlusionTexture), m.name);
    assert.ok(m.metallicRoughnessTexture && names.has(m.metallicRoughnessTexture), m.name);
    assert.equal(m.roughness, 1, 'the map holds the roughness');
  }
  for (const name of ['head', 'tongue']) assert.ok(model.materials.find((m) => m.name === name)!.normalTexture, name);
});
