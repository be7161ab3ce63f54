import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData } from '../../../src/model/avatar.ts';
import { detectHeadOrientation } from '../../../src/geometry/register/head-orientation.ts';
import { boundaryLoops } from '../../../src/geometry/mesh/adjacency.ts';
import { headScan } from '../../fixtures/head-scan.ts';

/** A rotation matrix (row-major) from a quaternion drawn with a seeded generator. */
function randomRotation(seed: number): number[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const q = [rnd(), rnd(), rnd(), rnd()];
  const l = Math.hypot(...q);
  const [x, y, z, w] = q.map((v) => v / l);
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

function transform(R: number[], p: Float32Array, scale: number, shift: number[]): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let r = 0; r < 3; r++) out[i + r] = scale * (R[r * 3] * p[i] + R[r * 3 + 1] * p[i + 1] + R[r * 3 + 2] * p[i + 2]) + shift[r];
  }
  return out;
}

/** Angle in degrees of the rotation A * B (0 when A undoes B). */
function residualDeg(A: number[], B: number[]): number {
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += A[i * 3 + k] * B[k * 3 + i];
  return (Math.acos(Math.max(-1, Math.min(1, (trace - 1) / 2))) * 180) / Math.PI;
}

/** The same surface with its vertices and triangles in another order. */
function shuffled(mesh: MeshData, seed: number): { positions: Float32Array; indices: Uint32Array } {
  const n = mesh.positions.length / 3;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ((a * seed) % 7919) - ((b * seed) % 7919) || a - b);
  const where = new Uint32Array(n);
  order.forEach((v, i) => (where[v] = i));
  const positions = new Float32Array(n * 3);
  order.forEach((v, i) => positions.set(mesh.positions.subarray(v * 3, v * 3 + 3), i * 3));
  const tris = Array.from({ length: mesh.indices.length / 3 }, (_, t) => t).reverse();
  const indices = Uint32Array.from(tris.flatMap((t) => [0, 1, 2].map((k) => where[mesh.indices[t * 3 + k]])));
  return { positions, indices };
}

test('a head turned any way, in metres and re-ordered, is turned back to Y up and face +Z', () => {
  const head = headScan();
  const identity = detectHeadOrientation(head.positions, head.indices);
  assert.ok(residualDeg(identity.rotation, [1, 0, 0, 0, 1, 0, 0, 0, 1]) < 1, 'the template itself is already upright and facing +z');
  for (let seed = 1; seed <= 8; seed++) {
    const Q = randomRotation(seed);
    const mixed = shuffled(head, seed * 31 + 7);
    const positions = transform(Q, mixed.positions, 0.01, [0.3 * seed, -2, 0.5]);
    const found = detectHeadOrientation(positions, mixed.indices);
    assert.ok(residualDeg(found.rotation, Q) < 2, `seed ${seed}: off by ${residualDeg(found.rotation, Q).toFixed(1)} degrees`);
    assert.ok(found.contrast > 3, `contrast ${found.contrast}`);
  }
});

test('a closed head (neck cut filled) still comes out upright and facing the front', () => {
  const { positions, indices } = headScan();
  const loop = boundaryLoops(indices).reduce((a, l) => (l.length > a.length ? l : a), []);
  const centre = [0, 1, 2].map((k) => loop.reduce((s, v) => s + positions[v * 3 + k], 0) / loop.length);
  const n = positions.length / 3;
  // Fill the cut with a fan around its centre (winding does not matter to the search).
  const fan = loop.flatMap((v, i) => [v, loop[(i + 1) % loop.length], n]);
  const closed = {
    positions: Float32Array.from([...positions, ...centre]),
    indices: Uint32Array.from([...indices, ...fan]),
  };
  const Q = randomRotation(99);
  const found = detectHeadOrientation(transform(Q, closed.positions, 1, [0, 0, 0]), closed.indices);
  assert.ok(residualDeg(found.rotation, Q) < 15, `off by ${residualDeg(found.rotation, Q).toFixed(1)} degrees`);
});
