import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePair, factorRbf, solveRbf } from '../../../src/geometry/fit/rbf.ts';

function grid(): Float64Array {
  const pts: number[] = [];
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) for (let k = 0; k < 3; k++) pts.push(i * 2, j * 2 + (k % 2) * 0.3, k * 1.5);
  return Float64Array.from(pts);
}

test('RBF warp reproduces its centre displacements', () => {
  const c = grid();
  const d = c.map((_, i) => Math.sin(i * 0.7) * 0.5);
  const warp = solveRbf(factorRbf(c), d);
  const out = new Float64Array(3);
  for (let i = 0; i < c.length / 3; i++) {
    warp.evaluate(c[i * 3], c[i * 3 + 1], c[i * 3 + 2], out);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(out[k] - d[i * 3 + k]) < 1e-6);
  }
});

test('RBF warp extends an affine displacement exactly, far from the centres too', () => {
  const c = grid();
  const f = (x: number, y: number, z: number) => [0.1 * x - 0.2 * z + 1, 0.05 * y, -0.3 + 0.02 * x];
  const d = new Float64Array(c.length);
  for (let i = 0; i < c.length / 3; i++) d.set(f(c[i * 3], c[i * 3 + 1], c[i * 3 + 2]), i * 3);
  const warp = solveRbf(factorRbf(c), d);
  const out = new Float64Array(3);
  warp.evaluate(40, -12, 25, out);
  const want = f(40, -12, 25);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(out[k] - want[k]) < 1e-6, `${out[k]} vs ${want[k]}`);
});

test('two warps over one factor evaluated as a pair give each warp its own answers, bit for bit', () => {
  const c = grid();
  const factor = factorRbf(c, 0.05);
  const a = solveRbf(factor, c.map((_, i) => Math.sin(i * 0.7) * 0.5));
  const b = solveRbf(factor, c.map((_, i) => Math.cos(i * 1.3) * 0.2 + 0.1));
  const pair = new Float64Array(6), one = new Float64Array(3), other = new Float64Array(3);
  for (const [x, y, z] of [[0, 0, 0], [3.3, 1.7, -2], [40, -12, 25], [c[9], c[10], c[11]]]) {
    evaluatePair(a, b, x, y, z, pair);
    a.evaluate(x, y, z, one);
    b.evaluate(x, y, z, other);
    assert.deepEqual([...pair], [...one, ...other]);
  }
  assert.throws(() => evaluatePair(a, solveRbf(factorRbf(c), c), 0, 0, 0, pair), /one factor/);
});
