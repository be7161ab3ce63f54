import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hairCover } from '../../../src/geometry/hair/hair-cover.ts';
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
