import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sparseShape } from '../../../src/formats/write/sparse-shape.ts';

/** A morph of `vertices` vertices moving those listed (by `by` cm on each axis), and nothing else. */
const morph = (vertices: number, moved: number[], by = 0.5) => {
  const deltas = new Float32Array(vertices * 3);
  for (const v of moved) deltas.set([by, -by, by * 2], v * 3);
  return { name: `m${vertices}`, deltas };
};

test('a sparse shape lists the moved vertices and their deltas, whatever the sizes of the shapes found before it', () => {
  // Small, then larger, then small again: the indexes found for one shape never leak into another's.
  const cases = [morph(4, [1, 3]), morph(1000, [0, 17, ...Array.from({ length: 40 }, (_, k) => 100 + k * 7), 999], 0.25), morph(5, [2]), morph(3, [])];
  for (const m of cases) {
    const { indexes, deltas } = sparseShape(m);
    const moved = [...Array(m.deltas.length / 3).keys()].filter((v) => m.deltas.slice(v * 3, v * 3 + 3).some((d) => Math.abs(d) > 1e-6));
    const want = moved.length ? moved : [0];
    assert.deepEqual(indexes, Int32Array.from(want), m.name);
    assert.deepEqual(deltas, Float64Array.from(want.flatMap((v) => [...m.deltas.subarray(v * 3, v * 3 + 3)])), m.name);
  }
});

test('a sparse shape is found once per morph and not changed by those found after it', () => {
  const first = morph(10, [2, 4]);
  const shape = sparseShape(first);
  const copy = shape.indexes.slice();
  sparseShape(morph(20, [0, 1, 2, 3, 5, 19]));
  assert.equal(sparseShape(first), shape);
  assert.deepEqual(shape.indexes, copy);
});
