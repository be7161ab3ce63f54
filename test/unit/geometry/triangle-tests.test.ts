import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentCrossesTriangle, trianglesIntersect } from '../../../src/geometry/mesh/triangle-tests.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const EPS = 1e-6;

/** The answer from the six edges alone, as trianglesIntersect gave it before it looked at the planes first. */
function byEdges(pos: number[], t1: number[], t2: number[]): boolean {
  for (const [a, b] of [[t1, t2], [t2, t1]])
    for (let k = 0; k < 3; k++) {
      const p = a[k], q = a[(k + 1) % 3];
      if (p !== b[0] && p !== b[1] && segmentCrossesTriangle(pos, p, q, b[0], b[1], b[2], EPS)) return true;
    }
  return false;
}

test('looking at the planes first changes no answer: apart, crossing, sharing a corner, folded or nearly in one plane', () => {
  const rand = random(11);
  let crossing = 0, shared = 0;
  for (let n = 0; n < 20000; n++) {
    // Six corners near one another; some pairs share one or two of them, some lie almost in one plane.
    const pos: number[] = [];
    const flat = n % 5 === 0;
    for (let v = 0; v < 6; v++) pos.push(rand() * 2 - 1, rand() * 2 - 1, flat ? (rand() - 0.5) * 1e-8 : rand() * 2 - 1);
    const t1 = [0, 3, 6], t2 = [9, 12, 15];
    const share = n % 3;
    for (let k = 0; k < share; k++) t2[k] = t1[(k + n) % 3];
    const answer = trianglesIntersect(pos, t1, t2, EPS);
    assert.equal(answer, byEdges(pos, t1, t2), `pair ${n}`);
    if (answer) crossing++;
    if (share > 0 && answer) shared++;
  }
  assert.ok(crossing > 1000 && shared > 100, `${crossing} crossing, ${shared} of them sharing a corner`);
});
