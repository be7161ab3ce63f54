/**
 * The relief under the skin of the neck and the bust: ridges where the muscles and bones stand out,
 * hollows between them, nothing on the face or near the bust's flat bottom, the same on both sides.
 * On the templates it keeps the head valid (template.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Vec3 } from '../../../src/model/avatar.ts';
import { torsoRelief } from '../../../src/geometry/template/torso-relief.ts';
import { BUST_BOTTOM_Y, NECK_AXIS } from '../../../src/geometry/template/bust.ts';

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

test('round the neck the relief grows in from under the jaw, with no step a light catches as a band', () => {
  // All round the neck's surface (radii 5.3 and 5.7 about its axis), from the jaw's underside to the neck cut, the
  // relief changes by at most 0.3 cm per cm of height. The sternocleidomastoids at full height up to where the
  // relief stops rose by 0.47 per cm there, a level band round the neck in every render.
  let steepest = 0;
  for (let degrees = 0; degrees < 360; degrees += 5) {
    const a = (degrees * Math.PI) / 180, x = NECK_AXIS[0] + 5.3 * Math.sin(a), z = NECK_AXIS[1] + 5.7 * Math.cos(a);
    for (let y = -9.4; y > -15.5; y -= 0.1) steepest = Math.max(steepest, Math.abs(torsoRelief([x, y, z]) - torsoRelief([x, y - 0.1, z])) / 0.1);
  }
  assert.ok(steepest <= 0.3, `the relief rises by ${steepest.toFixed(2)} cm per cm`);
});
