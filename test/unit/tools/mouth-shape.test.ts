import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meshMouthShape } from '../../../tools/quality/mouth-shape.ts';
import type { Camera } from '../../../src/geometry/render/camera.ts';

/** A head's 468 face vertices (cm, y up, face towards +z), all at the origin but the eyes' outer corners and the mouth's. */
function face(opts: { gap: number; cornersUp: number; cornersBack: number }): Float32Array {
  const p = new Float32Array(468 * 3);
  const set = (i: number, x: number, y: number, z: number) => p.set([x, y, z], i * 3);
  set(33, -4.5, 3, 0);
  set(263, 4.5, 3, 0);
  // Mouth 5 cm wide; the inner lips' pairs (upper, lower) at the centre and half way to each corner.
  set(61, -2.5, -4 + opts.cornersUp, -opts.cornersBack);
  set(291, 2.5, -4 + opts.cornersUp, -opts.cornersBack);
  for (const [upper, lower, x] of [[82, 87, -1.2], [13, 14, 0], [312, 317, 1.2]] as const) {
    set(upper, x, -4 + opts.gap / 2, 0);
    set(lower, x, -4 - opts.gap / 2, 0);
  }
  return p;
}

const front: Camera = { type: 'orthographic', viewHeight: 30, eye: [0, 0, 100], target: [0, 0, 0], up: [0, 1, 0] };

test("the mesh's own mouth: gap and lift over the mouth's width, as the preview's camera sees them", () => {
  const m = meshMouthShape(face({ gap: 0.5, cornersUp: 0.25, cornersBack: 0 }), front, 1000);
  assert.ok(Math.abs(m.gap - 0.1) < 1e-3, `gap ${m.gap}`);
  assert.ok(Math.abs(m.lift - 0.05) < 1e-3, `lift ${m.lift}`);
  // Corners behind the lips' centre, seen from above, read as lifted though they are level in 3D.
  const above: Camera = { type: 'perspective', fovY: 20, eye: [0, 100 * Math.sin(Math.PI / 22.5), 100 * Math.cos(Math.PI / 22.5)], target: [0, 0, 0], up: [0, 1, 0] };
  const closed = meshMouthShape(face({ gap: 0, cornersUp: 0, cornersBack: 1 }), above, 1000);
  assert.ok(closed.gap < 1e-3, `gap ${closed.gap}`);
  assert.ok(closed.lift > 0.02 && closed.lift < 0.04, `lift ${closed.lift}`);
});
