import assert from 'node:assert/strict';
import { test } from 'node:test';
import { objPositions, replaceObjPositions } from '../../../src/client/obj-vertices.ts';

const OBJ = ['# head', 'o head', 'v 1 2 3', 'vt 0.5 0.5', 'v -0.25 0.5 1e-3 0.9 0.8 0.7', 'vn 0 0 1', 'f 1/1/1 2/1/1 1/1/1', ''].join('\n');

test('reads the v lines in file order, ignoring vt, vn and the rest', () => {
  assert.deepEqual(Array.from(objPositions(OBJ)), [1, 2, 3, -0.25, 0.5, Math.fround(1e-3)]);
});

test('writes new positions into the v lines only, keeping vertex colours and every other line', () => {
  const out = replaceObjPositions(OBJ, new Float32Array([10, 20, 30, 0.125, -1, 2]));
  assert.deepEqual(out.split('\n'), ['# head', 'o head', 'v 10 20 30', 'vt 0.5 0.5', 'v 0.125 -1 2 0.9 0.8 0.7', 'vn 0 0 1', 'f 1/1/1 2/1/1 1/1/1', '']);
});

test('refuses a count that does not match, and a coordinate that is not a number', () => {
  assert.throws(() => replaceObjPositions(OBJ, new Float32Array(3)), RangeError);
  assert.throws(() => replaceObjPositions(OBJ, new Float32Array(9)), RangeError);
  assert.throws(() => objPositions('v 1 x 3'), RangeError);
});
