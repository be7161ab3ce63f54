import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pressCaruncles } from '../../../src/geometry/expressions/caruncle-press.ts';

/** Two eyeballs of radius 1 at x = -3 and 3, and one triangle standing 0.04-0.06 in front of each ("caruncles"). */
const eyes = [{ center: [3, 0, 0] as [number, number, number], radius: 1 }, { center: [-3, 0, 0] as [number, number, number], radius: 1 }];
const caruncles = () => Float32Array.from([3, 0, 1.04, 3.01, 0, 1.06, 3, 0.01, 1.06, -3, 0, 1.04, -3.01, 0, 1.06, -3, 0.01, 1.06]);
const triangle = Uint32Array.from([0, 1, 2]);
/** Skin in the plane z = `z` over the left eye only. */
const skinAt = (z: number) => ({ positions: Float32Array.from([1, -1, z, 5, -1, z, 5, 1, z, 1, 1, z]), indices: Uint32Array.from([0, 1, 2, 0, 2, 3]) });
const zs = (p: Float32Array, from: number) => [p[from + 2], p[from + 5], p[from + 8]];

test('pressCaruncles: a caruncle the skin cuts is pressed towards its eyeball until clear, whole; one it leaves clear stays', () => {
  const points = caruncles();
  pressCaruncles(points, triangle, skinAt(1.055), eyes, () => [[], []]);
  const left = zs(points, 0);
  assert.ok(Math.max(...left) < 1.055, `pressed below the skin: ${left}`);
  assert.ok(Math.min(...left) > 1.003 - 1e-6, `still off the eyeball: ${left}`);
  assert.ok(Math.abs(left[1] - left[0] - 0.02) < 1e-3, `as thick as it was: ${left}`);
  assert.deepEqual([...points.subarray(9)], [...caruncles().subarray(9)]);
});

test('pressCaruncles: skin too close for any press takes the first seat it leaves clear', () => {
  const points = caruncles();
  const seat = [[3.5, 0, 0.7], [3.51, 0, 0.72], [3.5, 0.01, 0.72]] as [number, number, number][];
  // A wall of skin across the caruncle, from the eyeball out: every press leaves it cut.
  const wall = { positions: Float32Array.from([3.005, -1, 0.9, 3.005, 1, 0.9, 3.005, 1, 1.2, 3.005, -1, 1.2]), indices: Uint32Array.from([0, 1, 2, 0, 2, 3]) };
  pressCaruncles(points, triangle, wall, eyes, () => [[seat], []]);
  assert.deepEqual([...points.subarray(0, 9)].map((x) => Math.round(x * 100) / 100), seat.flat());
});
