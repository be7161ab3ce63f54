/**
 * The open eyes' corners show the person's eye corners, not holes: where the lids' opening reaches past the eyeball's
 * outline, what a viewer sees of the socket behind is not painted the socket's dark (socket-in-photo.ts). Before, every
 * avatar's eyes ended in black wedges there: on p03-a, 130-1,090 pixels of 0.1 mm per eye and view
 * below (2.0).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { EYE_SOCKET_COLOUR } from '../../../src/geometry/texture/bake-parts.ts';
import { liftPoint, pickSurface } from '../../../src/geometry/render/surface-pick.ts';
import { decodeMaterialTextures } from '../../../tools/decode-image.ts';
import type { Vec3 } from '../../../src/model/avatar.ts';

const PHOTO = new URL('../../fixtures/faces/p03-a.jpg', import.meta.url);
const SIZE = 260;
/** Views of each eye: straight ahead, and 40 degrees towards its outer and its inner corner. */
const TURNS = [0, 40, -40];
/**
 * A texel this close to the socket's colour in every channel counts as painted dark. (At 12, 26-42 pixels of p03-a's own
 * dark outer corner, taken from the photo, count too.)
 */
const NEAR = 4;

for (const version of ['2.0', '1.6'] as const) {
  test(`${version}, p03-a: no view of the open eyes' corners shows the socket's dark`, { timeout: 120_000 }, async () => {
    const tpl = await loadTemplateView(version);
    const { model } = await new PhotoPipeline(loadTemplateView).run({ inputType: 'photo', file: new Uint8Array(readFileSync(PHOTO)), template: version, features: [] }, () => {});
    const head = model.meshes.find((m) => m.name === 'head')!;
    const albedo = (await decodeMaterialTextures(model)).get(model.materials.find((m) => m.name === head.material)!.baseColorTexture!)!;
    const socket = new Uint8Array(head.geometry.positions.length / 3);
    for (const v of tpl.eyeSockets) socket[v] = 1;
    const { uvs, indices } = head.geometry;
    const items = model.meshes.filter((m) => m.name === 'head' || m.name.startsWith('eye')).map((m) => ({ geometry: m.geometry }));
    const dark: string[] = [];
    let socketSeen = 0;
    for (const side of ['eyeLeft', 'eyeRight']) {
      const eye = model.meshes.find((m) => m.name === side)!.geometry.positions;
      const centre: Vec3 = [0, 0, 0];
      for (let i = 0; i < eye.length; i++) centre[i % 3] += eye[i] / (eye.length / 3);
      for (const turn of TURNS) {
        const a = ((turn * Math.PI) / 180) * Math.sign(centre[0]);
        const camera = { type: 'orthographic' as const, viewHeight: 2.6, eye: [centre[0] + 30 * Math.sin(a), centre[1], centre[2] + 30 * Math.cos(a)] as Vec3, target: centre, up: [0, 1, 0] as Vec3 };
        const pick = pickSurface(items, camera, { width: SIZE, height: SIZE });
        let count = 0;
        for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) {
          const hit = liftPoint(pick, x + 0.5, y + 0.5);
          if (!hit || hit.item !== 0) continue;
          const corners = [0, 1, 2].map((k) => indices[3 * hit.triangle + k]);
          if (!corners.some((v) => socket[v])) continue;
          socketSeen++;
          const [u, v] = [0, 1].map((c) => corners.reduce((s, w, k) => s + hit.barycentric[k] * uvs[2 * w + c], 0));
          const tx = Math.min(albedo.width - 1, Math.floor(u * albedo.width)), ty = Math.min(albedo.height - 1, Math.floor((1 - v) * albedo.height));
          const o = 4 * (ty * albedo.width + tx);
          if (EYE_SOCKET_COLOUR.every((c, k) => Math.abs(albedo.rgba[o + k] - c) <= NEAR)) count++;
        }
        if (count > 0) dark.push(`${side} turned ${turn}°: ${count} px`);
      }
    }
    assert.ok(socketSeen > 200, `the views see the socket past the eyeballs (${socketSeen} px)`);
    assert.deepEqual(dark, []);
  });
}
