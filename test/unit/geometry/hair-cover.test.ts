import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capUnderHair, hairCover } from '../../../src/geometry/hair/hair-cover.ts';
import { neighbourLists } from '../../../src/geometry/mesh/adjacency.ts';
import { TriangleBvh } from '../../../src/geometry/spatial/triangle-bvh.ts';

/** A square card in the plane y = height, x and z in [-5, 5]. */
function card(height: number): TriangleBvh {
  return TriangleBvh.build([-5, height, -5, 5, height, -5, 5, height, 5, -5, height, 5], [0, 1, 2, 0, 2, 3]);
}

test('skin under a hair card counts as covered, skin beside it or far below it does not', () => {
  // Head vertices: under the card's middle at 0.2 cm, beside the card, and 5 cm below it.
  const head = new Float32Array([0, -0.2, 0, 20, 0, 0, 0, -5, 0]);
  const cover = hairCover(head, card(0));
  assert.equal(cover.at(0), 1);
  assert.equal(cover.at(1), 0);
  assert.equal(cover.at(2), 0);
  // Between near and far it fades, closer covering more.
  const mid = hairCover(new Float32Array([0, -0.5, 0, 0, -0.8, 0]), card(0));
  assert.ok(mid.at(0) > mid.at(1) && mid.at(1) > 0 && mid.at(0) < 1, `${mid.at(0)} ${mid.at(1)}`);
});

/** A grid in the plane y = height over [x0, x1] x [z0, z1] in `step` cm cells, without the cells `skip` says. */
function grid(height: number, x0: number, x1: number, z0: number, z1: number, step: number, skip = (_x: number, _z: number) => false) {
  const nx = Math.round((x1 - x0) / step) + 1, nz = Math.round((z1 - z0) / step) + 1;
  const positions: number[] = [];
  for (let j = 0; j < nz; j++) for (let i = 0; i < nx; i++) positions.push(x0 + i * step, height, z0 + j * step);
  const indices: number[] = [];
  for (let j = 0; j + 1 < nz; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      if (skip(x0 + (i + 0.5) * step, z0 + (j + 0.5) * step)) continue;
      const a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices), at: (x: number, z: number) => Math.round((z - z0) / step) * nx + Math.round((x - x0) / step) };
}

test('the hair cap stays under the hair mesh, closes a gap between its cards and ends at its edge', () => {
  // Skin in the plane y = 0 (normals up); hair 1 cm above it over x <= 0, with a 1 cm hole around (-3, 0).
  const skin = grid(0, -6, 6, -6, 6, 0.5);
  const n = skin.positions.length / 3;
  const up = new Float32Array(n * 3).map((_, i) => (i % 3 === 1 ? 1 : 0));
  const hair = grid(1, -7, 0, -7, 7, 0.5, (x, z) => Math.abs(x + 3) < 0.5 && Math.abs(z) < 0.5);
  const tree = TriangleBvh.build(hair.positions, hair.indices);
  const coverage = new Float32Array(n).fill(1);
  coverage[skin.at(-5, 5)] = 0.5;
  coverage[skin.at(-5, -5)] = 0;
  const cap = capUnderHair(coverage, skin.positions, up, neighbourLists(n, skin.indices), tree);
  assert.equal(cap[skin.at(-1, 0)], 1);
  assert.equal(cap[skin.at(0, 2)], 1, 'under the edge');
  assert.equal(cap[skin.at(1, 2)], 0, '1 cm beyond the edge');
  assert.equal(cap[skin.at(4, 0)], 0);
  // The hole's middle is 0.5 cm off the hair's nearest point: partly capped alone, wholly once the gap is closed.
  assert.equal(cap[skin.at(-3, 0)], 1, 'in the gap between the cards');
  assert.ok(cap[skin.at(0.5, 2)] > 0 && cap[skin.at(0.5, 2)] < 1, 'fading out just beyond the edge');
  assert.equal(cap[skin.at(-5, 5)], 0.5, 'scaled by where hair would grow');
  assert.equal(cap[skin.at(-5, -5)], 0);
  // Skin facing away from the hair is not under it.
  const down = up.map((u) => -u);
  assert.ok(capUnderHair(coverage, skin.positions, down, neighbourLists(n, skin.indices), tree).every((c) => c === 0));
});
