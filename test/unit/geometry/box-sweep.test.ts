import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlappingBoxPairs } from '../../../src/geometry/mesh/box-sweep.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** `count` boxes, most small, a few long ones and a few with equal lower bounds (ties along every axis). */
function boxes(count: number, rand: () => number): Float64Array {
  const out = new Float64Array(6 * count);
  for (let i = 0; i < count; i++) {
    for (let d = 0; d < 3; d++) {
      const lo = i % 17 === 0 ? 1 : Math.round((rand() * 8 - 4) * 8) / 8, size = rand() < 0.1 ? rand() * 4 : rand() * 0.5;
      out[6 * i + d] = lo;
      out[6 * i + 3 + d] = lo + size;
    }
  }
  return out;
}

test('the sweep finds every overlapping pair once, each box with its later partners in order, the second group not among itself', () => {
  const rand = random(5);
  const count = 400, b = boxes(count, rand);
  for (const paired of [count, 250, 0]) {
    const expected: string[] = [];
    for (let i = 0; i < count; i++)
      for (let j = i + 1; j < count; j++) {
        if (i >= paired && j >= paired) continue;
        let overlap = true;
        for (let d = 0; d < 3; d++) if (Math.max(b[6 * i + d], b[6 * j + d]) > Math.min(b[6 * i + 3 + d], b[6 * j + 3 + d])) overlap = false;
        if (overlap) expected.push(`${i},${j}`);
      }
    const { start, partners } = overlappingBoxPairs(b, paired);
    const found: string[] = [];
    for (let i = 0; i < count; i++) for (let e = start[i]; e < start[i + 1]; e++) found.push(`${i},${partners[e]}`);
    assert.deepEqual(found, expected, `paired ${paired}`);
    assert.equal(expected.length > 0, paired > 0);
  }
});
