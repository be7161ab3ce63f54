import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { untangleAroundEyes } from '../../../src/geometry/expressions/eye-untangle.ts';
import { intersectingVertices } from '../../../src/geometry/fit/untangle.ts';
import type { Deltas } from '../../../src/geometry/expressions/frame.ts';

const template = buildTemplate('1.6');
const head = template.head.positions;
const { indices } = template.head;
const all = Uint32Array.from({ length: indices.length / 3 }, (_, t) => t);
const crossing = (d: Float32Array) => intersectingVertices(head.map((x, i) => x + d[i]), indices, all).size;
/** A shape moving `vertices` by `by` (cm), as Deltas with the head's alone. */
const shape = (vertices: readonly number[], by: [number, number, number]): Deltas => {
  const d = new Float32Array(head.length);
  for (const v of vertices) for (let k = 0; k < 3; k++) d[3 * v + k] = by[k];
  return { head: d } as Deltas;
};
// The left eye's opening: its lower half pushed 4 mm into the head cuts the lid through what lies behind it.
const eye = template.loops.leftEye;
const lower = eye.filter((v) => head[3 * v + 1] < eye.reduce((s, u) => s + head[3 * u + 1], 0) / eye.length);

test('untangleAroundEyes: a lid shape that crosses is taken back until it does not, and still moves', () => {
  const pushed = shape(lower, [0, 0, -0.4]);
  const before = pushed.head.slice();
  assert.ok(crossing(before) > 0, 'the shape as made crosses');
  untangleAroundEyes(template, [pushed], head);
  assert.equal(crossing(pushed.head), 0);
  const still = lower.filter((v) => pushed.head[3 * v + 2] < -0.1).length;
  assert.ok(still > 0, 'some of the lid still moves in');
});

test('untangleAroundEyes: a shape that crosses nothing, or moves nothing near the eyes, is left as it was', () => {
  const small = shape(lower, [0, 0.01, 0]);
  const mouth = shape(template.loops.lipsOuter, [0, 0, -2]);
  const made = [small.head.slice(), mouth.head.slice()];
  untangleAroundEyes(template, [small, mouth], head);
  assert.deepEqual(small.head, made[0]);
  assert.deepEqual(mouth.head, made[1]);
});
