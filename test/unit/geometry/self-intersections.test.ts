import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlappingPairs, overlappingPairsWith, sortInGridOrder, triangleBoxes } from '../../../src/geometry/mesh/box-grid.ts';
import { checkMesh, forEachSelfIntersection, SelfIntersectionWalk } from '../../../src/geometry/mesh/checks.ts';
import { intersectingVertices } from '../../../src/geometry/fit/untangle.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A closed UV sphere: one vertex at each pole, `rings - 1` rows of `segments` vertices. */
function sphere(rings: number, segments: number, centre: number[], radius: number) {
  const positions: number[] = [centre[0], centre[1] + radius, centre[2]];
  for (let r = 1; r < rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const theta = (2 * Math.PI * s) / segments;
      positions.push(centre[0] + radius * Math.sin(phi) * Math.cos(theta), centre[1] + radius * Math.cos(phi), centre[2] + radius * Math.sin(phi) * Math.sin(theta));
    }
  }
  positions.push(centre[0], centre[1] - radius, centre[2]);
  const bottom = positions.length / 3 - 1;
  const at = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments);
  const indices: number[] = [];
  for (let s = 0; s < segments; s++) {
    indices.push(0, at(1, s + 1), at(1, s));
    indices.push(bottom, at(rings - 1, s), at(rings - 1, s + 1));
    for (let r = 1; r < rings - 1; r++) indices.push(at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r + 1, s));
  }
  return { positions, indices };
}

function merge(...meshes: { positions: number[]; indices: number[] }[]) {
  const positions: number[] = [], indices: number[] = [];
  for (const m of meshes) {
    const base = positions.length / 3;
    positions.push(...m.positions);
    indices.push(...m.indices.map((v) => v + base));
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/** A square grid of quads (two triangles each) with its vertices moved at random: it folds over itself, also between triangles sharing a vertex. */
function crumpled(cells: number, rand: () => number) {
  const positions: number[] = [], indices: number[] = [];
  for (let y = 0; y <= cells; y++) for (let x = 0; x <= cells; x++) positions.push(x + (rand() - 0.5) * 1.6, y + (rand() - 0.5) * 1.6, (rand() - 0.5) * 1.2);
  const at = (x: number, y: number) => y * (cells + 1) + x;
  for (let y = 0; y < cells; y++) for (let x = 0; x < cells; x++) indices.push(at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y), at(x + 1, y + 1), at(x, y + 1));
  return { positions, indices };
}

/** Meshes that cut through themselves: two overlapping spheres, a sphere whose top is pushed down through its bottom, a crumpled sheet. */
function foldedMeshes() {
  const rand = random(7);
  const jitter = (m: { positions: number[]; indices: number[] }) => ({ ...m, positions: m.positions.map((x) => x + (rand() - 0.5) * 0.01) });
  const dented = sphere(14, 20, [0, 0, 0], 1);
  for (let i = 0; i < dented.positions.length; i += 3) if (dented.positions[i + 1] > 0.5) dented.positions[i + 1] -= 1.7;
  return {
    twoSpheres: merge(jitter(sphere(10, 16, [0, 0, 0], 1)), jitter(sphere(12, 14, [0.7, 0.2, 0.1], 0.8))),
    dented: merge(jitter(dented)),
    crumpled: merge(crumpled(24, rand)),
  };
}

const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Reference: does segment p-q cross the interior of triangle abc (not near its border or the segment's ends, not in its plane)? */
function segmentHits(p: number[], q: number[], a: number[], b: number[], c: number[]): boolean {
  const eps = 1e-6;
  const d = sub(q, p), e1 = sub(b, a), e2 = sub(c, a);
  const h = cross(d, e2), det = dot(e1, h);
  if (Math.abs(det) <= 1e-9 * Math.sqrt(dot(e1, e1) * dot(e2, e2) * dot(d, d))) return false;
  const s = sub(p, a), k = cross(s, e1);
  const u = dot(s, h) / det, v = dot(d, k) / det, t = dot(e2, k) / det;
  return u > eps && v > eps && u + v < 1 - eps && t > eps && t < 1 - eps;
}

/** Every pair of triangles tested, except neighbours across an edge: the pairs that cut through each other. */
function bruteForcePairs(positions: Float32Array, indices: Uint32Array): string[] {
  const point = (v: number) => [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]];
  const out: string[] = [];
  const n = indices.length / 3;
  for (let i = 0; i < n; i++) {
    const a = [0, 1, 2].map((k) => indices[i * 3 + k]);
    for (let j = i + 1; j < n; j++) {
      const b = [0, 1, 2].map((k) => indices[j * 3 + k]);
      if (a.filter((v) => b.includes(v)).length >= 2) continue;
      const hit = [0, 1, 2].some(
        (k) => segmentHits(point(a[k]), point(a[(k + 1) % 3]), point(b[0]), point(b[1]), point(b[2])) || segmentHits(point(b[k]), point(b[(k + 1) % 3]), point(a[0]), point(a[1]), point(a[2])),
      );
      if (hit) out.push(`${i},${j}`);
    }
  }
  return out;
}

test('the grid finds exactly the intersecting triangle pairs a test of every pair finds, whatever its cell size', () => {
  for (const [name, mesh] of Object.entries(foldedMeshes())) {
    const expected = bruteForcePairs(mesh.positions, mesh.indices);
    assert.ok(expected.length > 20, `${name}: the mesh cuts through itself`);
    if (name === 'crumpled') {
      const sharing = expected.filter((p) => {
        const [i, j] = p.split(',').map(Number);
        return [0, 1, 2].some((k) => [0, 1, 2].some((l) => mesh.indices[i * 3 + k] === mesh.indices[j * 3 + l]));
      });
      assert.ok(sharing.length > 5, 'crumpled: triangles sharing a vertex cut through each other');
    }
    for (const cell of [0.05, 0.3, 3]) {
      const found: string[] = [];
      forEachSelfIntersection(mesh.positions, mesh.indices, cell, (i, j) => found.push(`${Math.min(i, j)},${Math.max(i, j)}`));
      assert.deepEqual([...found].sort(), [...expected].sort(), `${name}, cell ${cell}`);
    }
    assert.equal(checkMesh({ ...mesh, uvs: new Float32Array((mesh.positions.length / 3) * 2) }).selfIntersections, expected.length, name);
    const vertices = new Set(expected.flatMap((p) => p.split(',').flatMap((t) => [0, 1, 2].map((k) => mesh.indices[Number(t) * 3 + k]))));
    const all = Uint32Array.from({ length: mesh.indices.length / 3 }, (_, t) => t);
    assert.deepEqual([...intersectingVertices(mesh.positions, mesh.indices, all)].sort((x, y) => x - y), [...vertices].sort((x, y) => x - y), name);
  }
});

test('a repeated walk over moving vertices finds the same pairs in the same order as a fresh one', () => {
  const { crumpled } = foldedMeshes();
  const rand = random(11);
  const walk = new SelfIntersectionWalk();
  const positions = crumpled.positions.slice();
  const pairs = (run: (visit: (i: number, j: number) => void) => void) => {
    const out: number[][] = [];
    run((i, j) => out.push([i, j]));
    return out;
  };
  for (let step = 0; step < 6; step++) {
    // Steps 0 and 3 move nothing (a replay); the others move a patch of vertices, or (step 5) all of them a little.
    if (step % 3 !== 0) {
      const from = Math.floor(rand() * (positions.length / 3 - 40));
      for (let v = step === 5 ? 0 : from; v < (step === 5 ? positions.length / 3 : from + 40); v++) for (let k = 0; k < 3; k++) positions[v * 3 + k] += (rand() - 0.5) * 0.3;
    }
    const cell = step === 4 ? 1.1 : 1.5;
    const fresh = pairs((visit) => forEachSelfIntersection(positions, crumpled.indices, cell, visit));
    assert.ok(fresh.length > 20);
    assert.deepEqual(pairs((visit) => walk.run(positions, crumpled.indices, cell, visit)), fresh, `step ${step}`);
  }
  // Other triangles: no answer carried over.
  const half = crumpled.indices.slice(0, crumpled.indices.length / 2);
  assert.deepEqual(pairs((visit) => walk.run(positions, half, 1.5, visit)), pairs((visit) => forEachSelfIntersection(positions, half, 1.5, visit)));
});

test('a closed surface without folds has no intersecting pairs', () => {
  const ball = merge(sphere(16, 24, [0, 0, 0], 1));
  let count = 0;
  forEachSelfIntersection(ball.positions, ball.indices, 0.5, () => count++);
  assert.equal(count, 0);
});

test('overlappingPairs reports every overlapping pair of boxes once, in 2D and 3D', () => {
  const rand = random(3);
  for (const dims of [2, 3] as const) {
    const count = 300;
    const boxes = new Float64Array(count * 2 * dims);
    for (let i = 0; i < count; i++) {
      for (let d = 0; d < dims; d++) {
        const lo = rand() * 10 - 5, size = rand() < 0.1 ? rand() * 4 : rand() * 0.6;
        boxes[i * 2 * dims + d] = lo;
        boxes[i * 2 * dims + dims + d] = lo + size;
      }
    }
    const expected: string[] = [];
    for (let i = 0; i < count; i++) {
      for (let j = i + 1; j < count; j++) {
        let overlap = true;
        for (let d = 0; d < dims; d++) {
          if (Math.max(boxes[i * 2 * dims + d], boxes[j * 2 * dims + d]) > Math.min(boxes[i * 2 * dims + dims + d], boxes[j * 2 * dims + dims + d])) overlap = false;
        }
        if (overlap) expected.push(`${i},${j}`);
      }
    }
    for (const cell of [0.1, 0.7, 20]) {
      const found: string[] = [];
      overlappingPairs(boxes, dims, cell, (i, j) => found.push(`${Math.min(i, j)},${Math.max(i, j)}`));
      assert.equal(new Set(found).size, found.length, `dims ${dims}, cell ${cell}: a pair reported twice`);
      assert.deepEqual(found.sort(), expected.sort(), `dims ${dims}, cell ${cell}`);
    }
  }
});

test('pairs with a selected box, and any pairs put in the grid order, match overlappingPairs', () => {
  const rand = random(9);
  for (const dims of [2, 3] as const) {
    const count = 400;
    const boxes = new Float64Array(count * 2 * dims);
    for (let i = 0; i < count * dims; i++) {
      const item = Math.floor(i / dims), d = i % dims, lo = rand() * 6 - 3;
      boxes[item * 2 * dims + d] = lo;
      boxes[item * 2 * dims + dims + d] = lo + rand() * (rand() < 0.1 ? 3 : 0.5);
    }
    const selected = Uint8Array.from({ length: count }, () => (rand() < 0.1 ? 1 : 0));
    for (const cell of [0.2, 0.9]) {
      const ordered: number[] = [];
      overlappingPairs(boxes, dims, cell, (i, j) => ordered.push(i * count + j));
      const found = overlappingPairsWith(boxes, dims, cell, selected);
      const withSelected = found.filter((_, k) => k % 2 === 0).map((i, k) => i * count + found[2 * k + 1]);
      const expected = ordered.filter((p) => selected[Math.floor(p / count)] || selected[p % count]);
      assert.deepEqual([...withSelected].sort((a, b) => a - b), [...expected].sort((a, b) => a - b), `dims ${dims}, cell ${cell}`);
      const shuffled = ordered.filter(() => rand() < 0.3).sort(() => rand() - 0.5);
      const kept = new Set(shuffled);
      sortInGridOrder(boxes, dims, cell, shuffled);
      assert.deepEqual(shuffled, ordered.filter((p) => kept.has(p)), `dims ${dims}, cell ${cell}`);
    }
  }
});

test('triangle boxes bound their triangles', () => {
  const uvs = new Float32Array([0, 0, 1, 0.5, 0.25, 1, 2, 2]);
  assert.deepEqual([...triangleBoxes(uvs, 2, new Uint32Array([0, 1, 2, 1, 3, 2]))], [0, 0, 1, 1, 0.25, 0.5, 2, 2]);
});
