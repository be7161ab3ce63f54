import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDeformer } from '../../../src/geometry/deform/index.ts';
import { mortonOrder } from '../../../src/geometry/spatial/morton-order.ts';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';
import { random, superellipsoidHead, surfaceSamples, warpedHead } from '../../fixtures/heads.ts';

const head = superellipsoidHead(40, 48);
const avatar = warpedHead(head.positions);
const deformer = createDeformer({ template: head.positions, avatar, indices: head.indices });

const distance = (p: ArrayLike<number>, i: number, q: ArrayLike<number>, j: number) =>
  Math.hypot(p[3 * i] - q[3 * j], p[3 * i + 1] - q[3 * j + 1], p[3 * i + 2] - q[3 * j + 2]);

test('the template\'s own vertices come back as the avatar\'s vertices, same count and order', () => {
  const out = deformer.deform(head.positions);
  assert.equal(out.length, head.positions.length);
  let worst = 0;
  for (let i = 0; i < out.length / 3; i++) worst = Math.max(worst, distance(out, i, avatar, i));
  assert.ok(worst < 1e-4, `worst ${worst} cm`);
});

test('random points on template triangles land on the same place of the avatar within 0.01 cm', () => {
  const samples = surfaceSamples(head.positions, avatar, head.indices, 5000, 11);
  const out = deformer.deform(samples.template);
  let worst = 0;
  for (let i = 0; i < out.length / 3; i++) worst = Math.max(worst, distance(out, i, samples.avatar, i));
  assert.ok(worst < 0.01, `worst ${worst} cm`);
});

const templateBvh = TriangleBvh.build(head.positions, head.indices);
const avatarBvh = TriangleBvh.build(avatar, head.indices);

/** A band over the forehead, temples and back of the head, tilted like a worn hat, `height` cm outside the template. */
function hatRing(height: number): Float32Array {
  const hit = emptyClosestPoint();
  const ring: number[] = [];
  for (let k = 0; k < 720; k++) {
    const phi = (2 * Math.PI * k) / 720;
    const x = 9 * Math.sin(phi), y = 5 + 2.5 * Math.cos(phi), z = 11 * Math.cos(phi);
    // Walk out from inside the head until the point is `height` outside the template.
    let lo = 0, hi = 3;
    for (let it = 0; it < 60; it++) {
      const m = (lo + hi) / 2;
      templateBvh.closestPoint(m * x, m * y, m * z, hit);
      if (hit.inside || hit.distance < height) lo = m;
      else hi = m;
    }
    ring.push(hi * x, hi * y, hi * z);
  }
  return Float32Array.from(ring);
}

function assertOutsideAvatar(deformed: Float32Array, height: number): void {
  const hit = emptyClosestPoint();
  for (let i = 0; i < deformed.length; i += 3) {
    avatarBvh.closestPoint(deformed[i], deformed[i + 1], deformed[i + 2], hit);
    assert.equal(hit.inside, false, `height ${height}, vertex ${i / 3} sank into the avatar`);
    assert.ok(hit.distance > 0.5 * height && hit.distance < 1.5 * height, `height ${height} became ${hit.distance}`);
  }
}

test('a ring of hat vertices around the template head stays outside the avatar head at about its height', () => {
  for (const height of [0.1, 0.5, 2, 5]) assertOutsideAvatar(deformer.deform(hatRing(height)), height);
});

test('a head open at the neck deforms the same way near the top', () => {
  // Drop the triangles below the jaw line, as the real template is open where the neck is cut.
  const kept: number[] = [];
  for (let t = 0; t < head.indices.length; t += 3) {
    const corners = [head.indices[t], head.indices[t + 1], head.indices[t + 2]];
    if (corners.some((i) => head.positions[3 * i + 1] > -8)) kept.push(...corners);
  }
  assert.ok(kept.length < head.indices.length);
  const open = createDeformer({ template: head.positions, avatar, indices: Uint32Array.from(kept) });
  const used = new Set(kept);
  const out = open.deform(head.positions);
  for (const i of used) assert.ok(distance(out, i, avatar, i) < 1e-4, `vertex ${i}`);
  assertOutsideAvatar(open.deform(hatRing(1)), 1);
});

test('a rigid body far from the head moves rigidly (and does move)', () => {
  const cube: number[] = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) cube.push(80 + 5 * i, 10 + 5 * j, -20 + 5 * k);
  const before = Float32Array.from(cube);
  const after = deformer.deform(before);
  const n = before.length / 3;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const d0 = distance(before, a, before, b), d1 = distance(after, a, after, b);
      assert.ok(Math.abs(d1 - d0) <= 1e-3 * d0, `pair ${a}-${b}: ${d0} -> ${d1}`);
    }
  }
  assert.ok(distance(before, 0, after, 0) > 1, 'the avatar is turned and moved, so the body must move too');
});

test('motion is continuous from the surface out to beyond the blend distance', () => {
  const D = deformer.blendDistance;
  assert.ok(D >= 10);
  const steps = 4000;
  const line = new Float32Array(3 * steps);
  const start = [1, 2, 9.2], direction = [0.1, 0.2, 1];
  const length = Math.hypot(...direction);
  for (let s = 0; s < steps; s++) {
    for (let d = 0; d < 3; d++) line[3 * s + d] = start[d] + ((direction[d] / length) * (1.5 * D * s)) / steps;
  }
  const out = deformer.deform(line);
  const step = (1.5 * D) / steps;
  for (let s = 1; s < steps; s++) {
    // Displacement changes at the rate of the deformation (well below 1 here) but never jumps.
    const moved = Math.hypot(...[0, 1, 2].map((d) => out[3 * s + d] - line[3 * s + d] - (out[3 * s - 3 + d] - line[3 * s - 3 + d])));
    assert.ok(moved < step, `jump of ${moved} cm at sample ${s}`);
  }
});

test('vertices copied along a seam deform exactly like the welded mesh', () => {
  // Split the vertices of meridian 0 as a UV seam would: the triangles west of it use new copies.
  const segments = 48;
  const positions = Array.from(head.positions), warped = Array.from(avatar);
  const copy = new Map<number, number>();
  const indices = Array.from(head.indices);
  for (let t = 0; t < indices.length; t += 3) {
    const corners = indices.slice(t, t + 3);
    const onSeam = (i: number) => i > 0 && i < head.positions.length / 3 - 1 && (i - 1) % segments === 0;
    const westOfSeam = corners.some((i) => i > 0 && (i - 1) % segments === segments - 1);
    if (!westOfSeam) continue;
    for (let c = 0; c < 3; c++) {
      const i = corners[c];
      if (!onSeam(i)) continue;
      if (!copy.has(i)) {
        copy.set(i, positions.length / 3);
        positions.push(...head.positions.slice(3 * i, 3 * i + 3));
        warped.push(...avatar.slice(3 * i, 3 * i + 3));
      }
      indices[t + c] = copy.get(i)!;
    }
  }
  assert.ok(copy.size > 30);
  const seamed = createDeformer({ template: Float32Array.from(positions), avatar: Float32Array.from(warped), indices: Uint32Array.from(indices) });
  const rnd = random(5);
  const points = Float32Array.from({ length: 3000 }, () => (rnd() - 0.5) * 30);
  const a = deformer.deform(points), b = seamed.deform(points);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-4, `value ${i}: ${a[i]} vs ${b[i]}`);
});

test('the order of the points does not change where each one goes', () => {
  const rnd = random(8);
  const points = Float32Array.from({ length: 3 * 4000 }, () => (rnd() - 0.5) * 36);
  const order = mortonOrder(points);
  assert.deepEqual([...order].sort((a, b) => a - b), Array.from({ length: 4000 }, (_, i) => i));
  const reversed = new Float32Array(points.length);
  for (let i = 0; i < 4000; i++) reversed.set(points.subarray(3 * i, 3 * i + 3), 3 * (3999 - i));
  const a = deformer.deform(points), b = deformer.deform(reversed);
  for (let i = 0; i < 4000; i++) {
    for (let d = 0; d < 3; d++) assert.equal(a[3 * i + d], b[3 * (3999 - i) + d]);
  }
});

test('bad meshes are refused', () => {
  assert.throws(() => createDeformer({ template: head.positions, avatar: avatar.subarray(3), indices: head.indices }), RangeError);
  assert.throws(() => createDeformer({ template: head.positions, avatar, indices: Uint32Array.of(0, 1, 1e6) }), RangeError);
  assert.throws(() => deformer.deform(new Float32Array(4)), RangeError);
});
