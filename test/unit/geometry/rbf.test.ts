import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePairs, factorRbf, solveRbf } from '../../../src/geometry/fit/rbf.ts';

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

/** A warp's displacement summed term by term in evaluate()'s order: the linear part, then each centre's. */
function reference(warp: ReturnType<typeof solveRbf>, x: number, y: number, z: number): number[] {
  const c = warp.factor.centres, w = warp.weights, m = c.length / 3;
  return [0, 1, 2].map((k) => {
    let s = w[m * 3 + k] + w[(m + 1) * 3 + k] * x + w[(m + 2) * 3 + k] * y + w[(m + 3) * 3 + k] * z;
    for (let j = 0; j < m; j++) s += w[j * 3 + k] * Math.sqrt((x - c[j * 3]) ** 2 + (y - c[j * 3 + 1]) ** 2 + (z - c[j * 3 + 2]) ** 2);
    return s;
  });
}

test('two warps over one factor evaluated at many points give each warp its own answers, bit for bit', () => {
  const c = grid();
  const factor = factorRbf(c, 0.05);
  const a = solveRbf(factor, c.map((_, i) => Math.sin(i * 0.7) * 0.5));
  const b = solveRbf(factor, c.map((_, i) => Math.cos(i * 1.3) * 0.2 + 0.1));
  const all = [[0, 0, 0], [3.3, 1.7, -2], [40, -12, 25], [c[9], c[10], c[11]], [-1.25, 7, 0.5]];
  // An even and an odd number of points: they are taken two at a time, the odd last one alone.
  for (const points of [all.slice(0, 4), all]) {
    const outA = new Float64Array(points.length * 3), outB = new Float64Array(points.length * 3);
    evaluatePairs(a, b, Float32Array.from(points.flat()), outA, outB);
    const one = new Float64Array(3);
    points.forEach(([x, y, z], i) => {
      [x, y, z] = [Math.fround(x), Math.fround(y), Math.fround(z)];
      assert.deepEqual([...outA.subarray(i * 3, i * 3 + 3)], reference(a, x, y, z));
      assert.deepEqual([...outB.subarray(i * 3, i * 3 + 3)], reference(b, x, y, z));
      a.evaluate(x, y, z, one);
      assert.deepEqual([...one], reference(a, x, y, z));
    });
  }
  assert.throws(() => evaluatePairs(a, solveRbf(factorRbf(c), c), [0, 0, 0], new Float64Array(3), new Float64Array(3)), /one factor/);
});
