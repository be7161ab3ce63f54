import { test } from 'node:test';
import assert from 'node:assert/strict';
import { insidePolygon } from '../../../src/geometry/spatial/inside-polygon.ts';

test('inside polygon: even-odd rule on a concave outline, either winding', () => {
  // An L: the square [0,4]² without its top-right quarter [2,4]².
  const l: [number, number][] = [[0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]];
  for (const poly of [l, [...l].reverse()]) {
    assert.ok(insidePolygon(poly, 1, 1));
    assert.ok(insidePolygon(poly, 3, 1));
    assert.ok(insidePolygon(poly, 1, 3));
    assert.ok(!insidePolygon(poly, 3, 3), 'the cut-out quarter');
    assert.ok(!insidePolygon(poly, -1, 1));
    assert.ok(!insidePolygon(poly, 5, 1));
  }
});
