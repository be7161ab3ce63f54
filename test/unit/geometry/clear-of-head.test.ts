import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstClearOfHead } from '../../../src/geometry/template/clear-of-head.ts';
import type { Vec3 } from '../../../src/model/avatar.ts';

/** A square of skin in the plane z = 0, 2 cm a side, and a small triangle standing through it or above it. */
const head = { positions: Float32Array.from([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]), indices: Uint32Array.from([0, 1, 2, 0, 2, 3]) };
const part = Uint32Array.from([0, 1, 2]);
const standing = (z: number): Vec3[] => [[0, 0, z - 0.1], [0.2, 0, z + 0.1], [0, 0.2, z + 0.1]];

test('firstClearOfHead: the first placing the skin leaves clear', () => {
  assert.deepEqual(firstClearOfHead([standing(0), standing(0.05), standing(0.5), standing(1)], part, head), { points: standing(0.5), cuts: 0 });
});

test('firstClearOfHead: when the skin cuts every placing, the first that it cuts least', () => {
  // Two triangles standing through the skin, or one: the second placing is cut half as often as the others (its one
  // standing triangle meets both of the square's, across their shared diagonal).
  const pair = Uint32Array.from([0, 1, 2, 3, 4, 5]);
  const two = (z1: number, z2: number): Vec3[] => [...standing(z1), ...standing(z2).map((p): Vec3 => [p[0] + 0.5, p[1], p[2]])];
  assert.deepEqual(firstClearOfHead([two(0, 0), two(0, 0.5), two(0.05, 0.5), two(0.02, 0.02)], pair, head), { points: two(0, 0.5), cuts: 2 });
});

test('firstClearOfHead: skin whose corners all lie outside the placings still counts', () => {
  // A square 20 cm a side: its corners far outside the little triangle's box, its middle through it.
  const wide = { positions: Float32Array.from([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]), indices: head.indices };
  assert.deepEqual(firstClearOfHead([standing(0), standing(0.5)], part, wide), { points: standing(0.5), cuts: 0 });
});
