/**
 * The bust's columns (bust.ts): each runs from the neck cut into the shoulders, the chest or the back and down to
 * the bottom. The built templates' bust is checked in template.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnProfile } from '../../../src/geometry/template/bust.ts';

/** Every 5 degrees round the neck, from a neck about as wide as the templates'. */
const profiles = Array.from({ length: 72 }, (_, k) => {
  const a = (k * 5 * Math.PI) / 180;
  return { degrees: k * 5, points: columnProfile(5.5, Math.sin(a), Math.cos(a)) };
});

test('a column only moves outwards and downwards, so columns in different half-planes cannot meet', () => {
  for (const { degrees, points } of profiles) {
    for (let i = 1; i < points.length; i++) {
      const [r0, y0] = points[i - 1], [r1, y1] = points[i];
      assert.ok(y1 <= y0 + 1e-9, `${degrees} degrees, point ${i} rises`);
      // The walls fall in towards the bottom: below the shoulders a column may come in, but only going down.
      assert.ok(r1 >= r0 - 1e-9 || y1 < y0, `${degrees} degrees, point ${i} comes in without going down`);
    }
  }
});

test('from the neck cut into the shoulders and down the walls a column turns without a crease', () => {
  // It leaves the cut straight down, continuing the neck, and then turns by at most 10 degrees between
  // neighbouring segments of its 24-point pieces. The quarter-round from the neck onto a level shelf and then the
  // shoulder line turned by up to 50 degrees at one point, a crease round the neck's foot.
  const direction = (a: [number, number], b: [number, number]) => Math.atan2(b[1] - a[1], b[0] - a[0]);
  for (const { degrees, points } of profiles) {
    const first = (direction(points[0], points[1]) * 180) / Math.PI;
    assert.ok(Math.abs(first + 90) < 5, `${degrees} degrees: the column leaves the cut at ${first.toFixed(1)} degrees`);
    let sharpest = 0;
    for (let i = 2; i < points.length; i++) {
      let turn = Math.abs(direction(points[i - 1], points[i]) - direction(points[i - 2], points[i - 1]));
      if (turn > Math.PI) turn = 2 * Math.PI - turn;
      sharpest = Math.max(sharpest, (turn * 180) / Math.PI);
    }
    assert.ok(sharpest <= 10, `${degrees} degrees: the column turns by ${sharpest.toFixed(1)} degrees at once`);
  }
});
