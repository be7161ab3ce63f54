/**
 * The relief under the skin of the neck and the bust: ridges where the muscles and bones stand out,
 * hollows between them, nothing on the face or near the bust's flat bottom, the same on both sides.
 * On the templates it keeps the head valid (template.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Vec3 } from '../../../src/model/avatar.ts';
import { torsoRelief } from '../../../src/geometry/template/torso-relief.ts';
import { BUST_BOTTOM_Y } from '../../../src/geometry/template/bust.ts';

test('ridges over the clavicles, the neck muscles, the shoulders and the chest; hollows between; mirrored', () => {
  const front = 4, back = -14;
  const at = (x: number, y: number, z: number) => torsoRelief([x, y, z]);
  assert.ok(at(-11, -18.8, front) > 0.2, 'clavicle');
  assert.ok(at(-6.5, -17.1, front) < -0.1, 'hollow above the clavicle');
  assert.ok(at(-3.5, -13.5, front) > 0.2, 'sternocleidomastoid');
  assert.ok(at(0, -16.9, front) < -0.2, 'jugular notch');
  assert.ok(at(-7, -24, front) > 0.5, 'pectoral');
  assert.ok(at(-18.6, -22.5, -6) > 0.6, 'deltoid');
  assert.ok(at(-8, -17, back) > 0.4, 'trapezius');
  for (const p of [[-11, -18.8, front], [-7, -24, front], [-8, -17, back], [-3.5, -13.5, front]] as Vec3[]) assert.equal(at(-p[0], p[1], p[2]), at(p[0], p[1], p[2]));
  assert.equal(at(-4, -8, front), 0, 'nothing on the face');
  assert.equal(at(-7, BUST_BOTTOM_Y + 1, front), 0, 'nothing at the flat bottom');
});
