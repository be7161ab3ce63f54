import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepOutside } from '../../../src/geometry/hair/keep-outside.ts';
import { scalpMap } from '../../../src/geometry/hair/scalp-map.ts';

/** A sphere of radius 8 cm (dense enough to fill the map's cells) with an ear: a patch standing out to 9.5 cm at the side. */
function headWithEar(): { positions: Float32Array; vertices: number[] } {
  const points: number[] = [];
  for (let i = 0; i < 180; i++) {
    for (let j = 0; j < 360; j++) {
      const el = -Math.PI / 2 + (Math.PI * (i + 0.5)) / 180, az = (2 * Math.PI * j) / 360;
      // The ear: within 5 degrees of the +x direction at the equator.
      const ear = Math.abs(el) < (5 * Math.PI) / 180 && Math.abs(az - Math.PI / 2) < (5 * Math.PI) / 180;
      const r = ear ? 9.5 : 8;
      points.push(r * Math.sin(az) * Math.cos(el), r * Math.sin(el), r * Math.cos(az) * Math.cos(el));
    }
  }
  return { positions: Float32Array.from(points), vertices: Array.from({ length: points.length / 3 }, (_, v) => v) };
}

test("the hair's push: the cells' outermost throws hair above an ear out to its rim, the surface itself does not", () => {
  const head = headWithEar();
  const map = scalpMap(head.positions, head.vertices, undefined, [0, 0, 0]);
  // Hair 0.3 cm off the scalp, 5 degrees above the ear's top edge (the next cell but one on the map), and one inside the scalp on the other side.
  const el = (10 * Math.PI) / 180;
  const hair = () => Float32Array.from([8.3 * Math.cos(el), 8.3 * Math.sin(el), 0, -7.5, 0, 0.5]);
  const conservative = hair();
  keepOutside(conservative, map, 0.1);
  assert.ok(Math.hypot(conservative[0], conservative[1], conservative[2]) > 9.4, 'the outermost of the cells around takes the ear');
  const exact = hair();
  keepOutside(exact, map, 0.1, -Infinity);
  assert.ok(Math.abs(Math.hypot(exact[0], exact[1], exact[2]) - 8.3) < 1e-5, 'hair above the ear stays where it was');
  // Either way nothing stays inside the scalp.
  assert.ok(Math.hypot(exact[3], exact[4], exact[5]) >= 8.1 - 1e-4, `${Math.hypot(exact[3], exact[4], exact[5])}`);
});
