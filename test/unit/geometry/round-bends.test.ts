import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Vec3 } from '../../../src/model/avatar.ts';
import { bendAt, roundBends, ROUND_BEND } from '../../../src/geometry/hair/round-bends.ts';

const deg = (r: number) => ((r * 180) / Math.PI).toFixed(1);

/** A path turning by `turns[i]` (degrees, in the xy plane) at its inner nodes, segments of `step` cm. */
function polyline(turns: number[], step = 3): Vec3[] {
  const points: Vec3[] = [[0, 0, 0]];
  let heading = 0;
  for (let i = 0; i <= turns.length; i++) {
    const [x, y] = points[points.length - 1];
    points.push([x + step * Math.cos(heading), y + step * Math.sin(heading), 0]);
    heading -= ((turns[i] ?? 0) * Math.PI) / 180;
  }
  return points;
}

test('a path sweeping round a head turns by at most one and a half times ROUND_BEND at any point once rounded, and keeps its nodes', () => {
  // A strand leaving a parting sideways and falling: 35, 30, 20 and 8 degrees at its nodes. Rounded, the turn at a node
  // is the curve's over the parts beside it; it is largest where the turning gathers, at the first bent node.
  const path = polyline([35, 30, 20, 8]);
  const r = roundBends(path, [1, 0, 0]);
  for (let i = 1; i < r.points.length - 1; i++) assert.ok(bendAt(r.points, i) <= 1.5 * ROUND_BEND, `turns by ${deg(bendAt(r.points, i))} degrees at point ${i}`);
  for (const p of path) assert.ok(r.points.includes(p), 'every node of the path is kept');
  assert.ok(r.points.length > path.length);
  // Along the path's nodes from 0 to 1, rising; a node's share is its index's.
  assert.equal(r.along[0], 0);
  assert.equal(r.along[r.along.length - 1], 1);
  for (let i = 1; i < r.along.length; i++) assert.ok(r.along[i] > r.along[i - 1]);
  path.forEach((p, i) => assert.equal(r.along[r.points.indexOf(p)], i / (path.length - 1)));
});

test('a straight or gently bending path is left as it is', () => {
  const path = polyline([4, 6, 9]);
  const r = roundBends(path, [1, 0, 0]);
  assert.deepEqual(r.points, path);
  assert.deepEqual(r.along, [0, 0.25, 0.5, 0.75, 1]);
});

test('the rounded points lie on the curve near the path, not beyond its corners', () => {
  const path = polyline([40, 40, 40]);
  const r = roundBends(path, [1, 0, 0]);
  for (let i = 1; i < r.points.length - 1; i++) assert.ok(bendAt(r.points, i) < 20 * (Math.PI / 180), `turns by ${deg(bendAt(r.points, i))} degrees at point ${i}`);
  // Each new point lies within a quarter of a segment of the chord between the nodes it sits between.
  for (let i = 0; i < r.points.length; i++) {
    if (path.includes(r.points[i])) continue;
    const k = Math.floor(r.along[i] * (path.length - 1));
    const [a, b] = [path[k], path[k + 1]];
    const ab = [b[0] - a[0], b[1] - a[1]], ap = [r.points[i][0] - a[0], r.points[i][1] - a[1]];
    const off = Math.abs(ab[0] * ap[1] - ab[1] * ap[0]) / Math.hypot(ab[0], ab[1]);
    assert.ok(off < 0.75, `point ${i} stands ${off.toFixed(2)} cm off its segment`);
  }
  // Its tangents are unit vectors, the first the path's own start.
  assert.deepEqual(r.tangents[0], [1, 0, 0]);
  for (const t of r.tangents) assert.ok(Math.abs(Math.hypot(...t) - 1) < 1e-9);
});
