import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';
import { random, superellipsoidHead, type TestMesh } from '../../fixtures/heads.ts';

const head = superellipsoidHead(24, 32);

/** The same head with dents and ridges: concave regions, folded patches. */
function bumpyHead(): TestMesh {
  const bumpy = superellipsoidHead(24, 32);
  for (let i = 0; i < bumpy.positions.length; i += 3) {
    const [x, y, z] = [bumpy.positions[i], bumpy.positions[i + 1], bumpy.positions[i + 2]];
    const f = 1 + 0.25 * Math.sin(1.3 * x) * Math.sin(0.9 * y + 0.7 * z);
    bumpy.positions.set([x * f, y * f, z * f], i);
  }
  return bumpy;
}

/** Exact point-triangle distance by projecting onto the plane and falling back to the three edges. */
function bruteForceDistance(mesh: TestMesh, px: number, py: number, pz: number): number {
  const { positions: P, indices: I } = mesh;
  let best = Infinity;
  const segment = (a: number, b: number) => {
    const ex = P[3 * b] - P[3 * a], ey = P[3 * b + 1] - P[3 * a + 1], ez = P[3 * b + 2] - P[3 * a + 2];
    const t = Math.min(1, Math.max(0, ((px - P[3 * a]) * ex + (py - P[3 * a + 1]) * ey + (pz - P[3 * a + 2]) * ez) / (ex * ex + ey * ey + ez * ez)));
    return Math.hypot(px - P[3 * a] - t * ex, py - P[3 * a + 1] - t * ey, pz - P[3 * a + 2] - t * ez);
  };
  for (let t = 0; t < I.length; t += 3) {
    const [a, b, c] = [I[t], I[t + 1], I[t + 2]];
    const A = [P[3 * a], P[3 * a + 1], P[3 * a + 2]];
    const u = [P[3 * b] - A[0], P[3 * b + 1] - A[1], P[3 * b + 2] - A[2]];
    const v = [P[3 * c] - A[0], P[3 * c + 1] - A[1], P[3 * c + 2] - A[2]];
    const w = [px - A[0], py - A[1], pz - A[2]];
    const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const wu = w[0] * u[0] + w[1] * u[1] + w[2] * u[2], wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
    const det = uu * vv - uv * uv;
    const s = (vv * wu - uv * wv) / det, r = (uu * wv - uv * wu) / det;
    let d: number;
    if (s >= 0 && r >= 0 && s + r <= 1) {
      d = Math.hypot(w[0] - s * u[0] - r * v[0], w[1] - s * u[1] - r * v[1], w[2] - s * u[2] - r * v[2]);
    } else {
      d = Math.min(segment(a, b), segment(b, c), segment(c, a));
    }
    best = Math.min(best, d);
  }
  return best;
}

test('closest points agree with a brute-force search and lie on their triangle, on a smooth and a bumpy head', () => {
  for (const mesh of [head, bumpyHead()]) {
    const bvh = TriangleBvh.build(mesh.positions, mesh.indices);
    const rnd = random(1);
    const hit = emptyClosestPoint();
    for (let k = 0; k < 600; k++) {
      // Half of the points near the surface, where the oriented boxes decide.
      const scale = k % 2 ? 40 : 24;
      const p = [(rnd() - 0.5) * scale, (rnd() - 0.5) * scale, (rnd() - 0.5) * scale];
      assert.ok(bvh.closestPoint(p[0], p[1], p[2], hit));
      assert.ok(Math.abs(hit.distance - bruteForceDistance(mesh, p[0], p[1], p[2])) < 1e-9);
      const { positions: P, indices: I } = mesh;
      const corner = (j: number, d: number) => P[3 * I[3 * hit.triangle + j] + d];
      for (let d = 0; d < 3; d++) {
        const onTriangle = hit.wa * corner(0, d) + hit.wb * corner(1, d) + hit.wc * corner(2, d);
        assert.ok(Math.abs(onTriangle - [hit.x, hit.y, hit.z][d]) < 1e-9);
      }
      assert.ok(Math.min(hit.wa, hit.wb, hit.wc) >= -1e-12);
      assert.ok(Math.abs(Math.hypot(p[0] - hit.x, p[1] - hit.y, p[2] - hit.z) - hit.distance) < 1e-9);
    }
  }
});

test('maxDistance and a wrong hint do not change the answer', () => {
  const bvh = TriangleBvh.build(head.positions, head.indices);
  const rnd = random(2);
  const plain = emptyClosestPoint(), hinted = emptyClosestPoint();
  for (let k = 0; k < 200; k++) {
    const p = [(rnd() - 0.5) * 30, (rnd() - 0.5) * 30, (rnd() - 0.5) * 30];
    bvh.closestPoint(p[0], p[1], p[2], plain);
    assert.ok(bvh.closestPoint(p[0], p[1], p[2], hinted, Infinity, (k * 7919) % bvh.triangleCount));
    assert.equal(hinted.distance, plain.distance);
    assert.equal(bvh.closestPoint(p[0], p[1], p[2], hinted, plain.distance * 0.999), false);
    assert.ok(bvh.closestPoint(p[0], p[1], p[2], hinted, plain.distance * 1.001));
  }
});

test('coherent queries that reuse the previous search get the same answers as a search from scratch', () => {
  // A path through the bumpy head's vertices in index order (along its rings), ten points per edge, swinging
  // from 20 % inside to 20 % outside: each query is a short step from the last, so most of them reuse the
  // last search; each ring's end jumps, and some queries' maxDistance leaves nothing to find.
  const mesh = bumpyHead();
  const P = mesh.positions;
  const bvh = TriangleBvh.build(P, mesh.indices);
  const hit = emptyClosestPoint();
  for (let k = 0; k < 10 * (P.length / 3 - 1); k++) {
    const v = Math.floor(k / 10), t = (k % 10) / 10, f = 1 + 0.2 * Math.sin(k / 37);
    const p = [0, 1, 2].map((d) => f * (P[3 * v + d] * (1 - t) + P[3 * v + 3 + d] * t));
    const exact = bruteForceDistance(mesh, p[0], p[1], p[2]);
    const maxDistance = k % 7 === 0 ? exact * 0.99 : Infinity;
    const found = bvh.closestPoint(p[0], p[1], p[2], hit, maxDistance, hit.triangle);
    assert.equal(found, exact <= maxDistance, `query ${k}`);
    if (found) assert.ok(Math.abs(hit.distance - exact) < 1e-9, `query ${k}: ${hit.distance} vs ${exact}`);
  }
});

test('inside and outside agree with the analytic superellipsoid, also right at edges and corners', () => {
  const bvh = TriangleBvh.build(head.positions, head.indices);
  const P = head.positions;
  const hit = emptyClosestPoint();
  // Every vertex pushed out or in along its position vector: the closest feature is often a vertex or an edge.
  for (let i = 0; i < P.length; i += 3) {
    for (const [factor, inside] of [[1.05, false], [0.95, true], [1.5, false], [0.5, true]] as const) {
      bvh.closestPoint(P[i] * factor, P[i + 1] * factor, P[i + 2] * factor, hit);
      assert.equal(hit.inside, inside, `vertex ${i / 3} x ${factor}`);
    }
  }
  assert.equal(bvh.contains(0, 0, 0), true);
  assert.equal(bvh.contains(0, 0, 30), false);
});

test('a single triangle (the root is a leaf) and zero-area triangles', () => {
  const single = TriangleBvh.build([0, 0, 0, 2, 0, 0, 0, 2, 0], [0, 1, 2]);
  const hit = emptyClosestPoint();
  assert.ok(single.closestPoint(0.5, 0.5, 3, hit));
  assert.deepEqual([hit.x, hit.y, hit.z, hit.distance, hit.inside], [0.5, 0.5, 0, 3, false]);
  assert.deepEqual([hit.wa, hit.wb, hit.wc], [0.5, 0.25, 0.25]);
  assert.ok(single.closestPoint(0.5, 0.5, -3, hit) && hit.inside);
  assert.ok(single.closestPoint(5, 5, 0, hit));
  assert.ok(Math.abs(hit.x - 1) < 1e-12 && Math.abs(hit.y - 1) < 1e-12 && hit.wa === 0);

  // A point triangle and a needle next to a proper one: answers stay finite and correct.
  const degenerate = TriangleBvh.build([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 5], [0, 0, 0, 0, 1, 2, 0, 1, 3]);
  for (const p of [[0.2, 0.2, 1], [1.5, -1, 0], [-1, -1, -1], [3, 0, 0]]) {
    assert.ok(degenerate.closestPoint(p[0], p[1], p[2], hit));
    assert.ok(Number.isFinite(hit.distance) && Number.isFinite(hit.x) && Number.isFinite(hit.wa));
    assert.ok(Math.abs(Math.hypot(p[0] - hit.x, p[1] - hit.y, p[2] - hit.z) - hit.distance) < 1e-12);
  }
  assert.equal(degenerate.closestPoint(3, 0, 0, hit) && hit.distance, 1);

  // Twenty copies of one triangle cannot be split (one leaf holds them); twenty more one float32 ulp aside can.
  const copies = TriangleBvh.build(
    [1, 1, 1, 2, 1, 1, 1, 2, 1, Math.fround(1 + 2 ** -23), 1, 1, Math.fround(2 + 2 ** -22), 1, 1, Math.fround(1 + 2 ** -23), 2, 1],
    Array.from({ length: 40 }, (_, k) => (k < 20 ? [0, 1, 2] : [3, 4, 5])).flat(),
  );
  assert.ok(copies.closestPoint(1.25, 1.25, 0, hit));
  assert.equal(hit.distance, 1);
  assert.ok(hit.triangle >= 0 && hit.triangle < 40);
});

test('a refitted index answers as a new build over the moved vertices: distances, points, inside and outside', () => {
  // The smooth head's tree refitted to the bumpy head (same triangles, vertices moved far, some folds).
  const bumpy = bumpyHead();
  const refitted = TriangleBvh.build(head.positions, head.indices).refit(bumpy.positions);
  const built = TriangleBvh.build(bumpy.positions, bumpy.indices);
  const rnd = random(5);
  const a = emptyClosestPoint(), b = emptyClosestPoint();
  for (let k = 0; k < 600; k++) {
    const scale = k % 2 ? 40 : 24;
    const p = [(rnd() - 0.5) * scale, (rnd() - 0.5) * scale, (rnd() - 0.5) * scale];
    assert.ok(refitted.closestPoint(p[0], p[1], p[2], a) && built.closestPoint(p[0], p[1], p[2], b));
    assert.equal(a.distance, b.distance, `query ${k}`);
    assert.ok(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) < 1e-9, `query ${k}: the same closest point`);
    assert.equal(a.inside, b.inside, `query ${k}`);
    assert.ok(Math.abs(a.distance - bruteForceDistance(bumpy, p[0], p[1], p[2])) < 1e-9);
  }
  // Every vertex pushed in and out: the closest feature is a vertex or an edge, where the pseudonormals decide.
  const P = bumpy.positions;
  for (let i = 0; i < P.length; i += 3) {
    for (const f of [1.02, 0.98]) {
      refitted.closestPoint(P[i] * f, P[i + 1] * f, P[i + 2] * f, a);
      built.closestPoint(P[i] * f, P[i + 1] * f, P[i + 2] * f, b);
      assert.equal(a.inside, b.inside, `vertex ${i / 3} x ${f}`);
    }
  }
});

test('refitting to the positions it was built on gives the same answers as the build, bit for bit', () => {
  const bumpy = bumpyHead();
  const built = TriangleBvh.build(bumpy.positions, bumpy.indices);
  const refitted = TriangleBvh.build(bumpy.positions, bumpy.indices).refit(bumpy.positions);
  const rnd = random(6);
  const a = emptyClosestPoint(), b = emptyClosestPoint();
  for (let k = 0; k < 300; k++) {
    const p = [(rnd() - 0.5) * 30, (rnd() - 0.5) * 30, (rnd() - 0.5) * 30];
    built.closestPoint(p[0], p[1], p[2], a);
    refitted.closestPoint(p[0], p[1], p[2], b);
    assert.deepEqual(b, a, `query ${k}`);
  }
  assert.throws(() => built.refit(bumpy.positions.subarray(3)), RangeError);
});
