import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fanLiesFlat, fansOf } from '../../../src/geometry/mesh/fans.ts';
import { trianglesIntersect } from '../../../src/geometry/mesh/triangle-tests.ts';

/** A fan round vertex 0 at the origin: ring vertices 1..n at the given angles (degrees), radii and heights. */
function fan(ring: { angle: number; radius?: number; z?: number }[], closed = true) {
  const at = [0, 0, 0];
  for (const { angle, radius = 1, z = 0 } of ring) at.push(radius * Math.cos((angle * Math.PI) / 180), radius * Math.sin((angle * Math.PI) / 180), z);
  const indices: number[] = [];
  const n = ring.length;
  for (let i = 0; i < (closed ? n : n - 1); i++) indices.push(0, 1 + i, 1 + ((i + 1) % n));
  return { at: Float64Array.from(at), indices: Uint32Array.from(indices), vertexCount: n + 1 };
}
const hexagon = [0, 60, 120, 180, 240, 300].map((angle) => ({ angle }));

/** Pairs of the fan's triangles that share only its centre and cross. */
function crossingPairs({ at, indices }: ReturnType<typeof fan>): number {
  let n = 0;
  const count = indices.length / 3;
  for (let i = 0; i < count; i++) {
    for (let j = i + 2; j < count; j++) {
      if (i === 0 && j === count - 1) continue; // they share an edge
      const a = [0, 1, 2].map((k) => 3 * indices[3 * i + k]), b = [0, 1, 2].map((k) => 3 * indices[3 * j + k]);
      if (trianglesIntersect(at, a, b, 1e-6)) n++;
    }
  }
  return n;
}

test('fansOf: the centre of a closed fan is closed, its rim vertices and an open fan\'s centre are not', () => {
  const closed = fan(hexagon);
  const fans = fansOf(closed.indices, closed.vertexCount);
  assert.equal(fans.closed[0], 1);
  assert.deepEqual([...fans.closed.subarray(1)], [0, 0, 0, 0, 0, 0]);
  assert.equal(fans.start[1] - fans.start[0], 6);
  const open = fan(hexagon, false);
  assert.equal(fansOf(open.indices, open.vertexCount).closed[0], 0);
});

test('fanLiesFlat: a flat fan, and one bent like a cone or a saddle, lie flat and have no crossing pair', () => {
  const cases = [
    fan(hexagon),
    fan(hexagon.map((r) => ({ ...r, z: -0.8 }))),
    fan(hexagon.map((r, i) => ({ ...r, z: i % 2 ? 0.7 : -0.7 }))),
    fan([0, 20, 150, 170, 250, 330].map((angle, i) => ({ angle, radius: 0.3 + i * 0.4 }))),
  ];
  for (const f of cases) {
    assert.equal(fanLiesFlat(fansOf(f.indices, f.vertexCount), f.indices, f.at, 0), true);
    assert.equal(crossingPairs(f), 0);
  }
});

test('fanLiesFlat: a fan going twice round its centre, or an open fan, is not answered flat', () => {
  // Each triangle 120 degrees, the second time round nearer and higher, so that it cuts the first.
  const twice = fan([0, 120, 240, 360, 480, 600].map((angle, i) => ({ angle: angle + 10 * i, radius: i < 3 ? 1 : 0.8, z: i < 3 ? -0.1 : 0.1 })));
  assert.equal(fanLiesFlat(fansOf(twice.indices, twice.vertexCount), twice.indices, twice.at, 0), false);
  assert.ok(crossingPairs(twice) > 0);
  const open = fan(hexagon, false);
  assert.equal(fanLiesFlat(fansOf(open.indices, open.vertexCount), open.indices, open.at, 0), false);
});

test('fanLiesFlat: of 2,000 hexagon fans with their rims moved at random, none said to lie flat has a crossing pair', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  let flat = 0, crossing = 0;
  for (let n = 0; n < 2000; n++) {
    const spread = 0.2 + (n % 5) * 0.3;
    const f = fan(hexagon.map(({ angle }) => ({ angle: angle + 60 * spread * random(), radius: 1 + 0.5 * spread * random(), z: spread * random() })));
    const lies = fanLiesFlat(fansOf(f.indices, f.vertexCount), f.indices, f.at, 0);
    const pairs = crossingPairs(f);
    if (lies) assert.equal(pairs, 0, `fan ${n}`);
    flat += +lies;
    crossing += +(pairs > 0);
  }
  // Neither answer is the only one: the shortcut answers most fans, and some of those it leaves do cross.
  assert.ok(flat > 1000 && flat < 2000, `${flat} flat`);
  assert.ok(crossing > 50, `${crossing} crossing`);
});
