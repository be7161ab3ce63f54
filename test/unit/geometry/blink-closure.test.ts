/**
 * Issue 20 item 3: eyeBlink* = 1 closes the lids: seen from the front and from below, they hide
 * about 90 % of the eyeball they showed open (on main about 75 %). What stays is a dashed hairline where
 * the two lids' polylines meet between their vertices (they must not cross: see blendshapes.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Vec3 } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { buildBlendshapes } from '../../../src/geometry/expressions/blendshapes.ts';
import { renderTriangleIds } from '../../../src/geometry/render/rasterize.ts';
import { PART_NAMES } from '../../../src/geometry/template/types.ts';

/** Pixels (0.2 mm each) of the eyeball seen past the head from `direction`, orthographic. */
function eyeballSeen(head: { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: Uint32Array }, eye: typeof head, centre: Vec3, direction: Vec3): number {
  const camera = { type: 'orthographic' as const, viewHeight: 4, eye: centre.map((c, k) => c + 20 * direction[k]) as Vec3, target: centre, up: [0, 1, 0] as Vec3 };
  const { ids } = renderTriangleIds([{ geometry: head }, { geometry: eye }], camera, { width: 200, height: 200 });
  const firstEye = head.indices.length / 3;
  return ids.reduce((n, id) => n + (id >= firstEye ? 1 : 0), 0);
}

for (const version of ['1.6', '2.0'] as const) {
  test(`${version}: eyeBlink* at 1 hides the eyeball from the front and from below`, () => {
    const tpl = buildTemplate(version);
    const shapes = buildBlendshapes(tpl, { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) }, ['expressions']);
    for (const [side, eye, shape] of [['left', 'eyeLeft', 'eyeBlinkLeft'], ['right', 'eyeRight', 'eyeBlinkRight']] as const) {
      const deltas = shapes.head.find((m) => m.name === shape)!.deltas;
      const closed = { ...tpl.head, positions: tpl.head.positions.map((x, i) => x + deltas[i]) };
      for (const direction of [[0, 0, 1], [0, -0.6, 0.8]] as Vec3[]) {
        const open = eyeballSeen(tpl.head, tpl.parts[eye], tpl.eyes[side].centre, direction);
        const shut = eyeballSeen(closed, tpl.parts[eye], tpl.eyes[side].centre, direction);
        assert.ok(open > 2000, `${shape} ${direction}: the open eye shows (${open} px)`);
        assert.ok(shut < 0.12 * open, `${shape} ${direction}: ${shut} of ${open} px still seen`);
      }
    }
  });
}
