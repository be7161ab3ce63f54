import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UvRaster, layoutRaster, rasterizeUv } from '../../../src/geometry/texture/uv-raster.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

/** A jittered grid of triangles over the atlas, with slivers and a degenerate one, and a per-vertex attribute. */
function mesh(seed: number) {
  const rnd = seededRandom(seed);
  const n = 9;
  const uvs = new Float32Array(n * n * 2);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) uvs.set([(i + (rnd() - 0.5) * 0.6) / (n - 1), (j + (rnd() - 0.5) * 0.6) / (n - 1)], (j * n + i) * 2);
  const indices: number[] = [];
  for (let j = 0; j < n - 1; j++) for (let i = 0; i < n - 1; i++) {
    const v = j * n + i;
    indices.push(v, v + 1, v + n + 1, v, v + n + 1, v + n);
  }
  // A degenerate triangle (no area) and one reaching outside the atlas.
  indices.push(0, 0, 1, 2, n * n - 1, 3 * n);
  uvs[(3 * n) * 2] = -0.2;
  const attrs = Float32Array.from({ length: n * n * 2 }, () => rnd() * 10);
  return { uvs, indices: Uint32Array.from(indices), attrs };
}

/** Per triangle, the texels whose centre has all three barycentric weights at least `bound`, by direct evaluation. */
function covered(uvs: Float32Array, indices: Uint32Array, size: number, t: number, bound: number): Set<number> {
  const p = [0, 1, 2].map((k) => [uvs[indices[t * 3 + k] * 2] * size, (1 - uvs[indices[t * 3 + k] * 2 + 1]) * size]);
  const area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
  const out = new Set<number>();
  if (area === 0) return out;
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const [px, py] = [x + 0.5, y + 0.5];
    const wa = ((p[1][0] - px) * (p[2][1] - py) - (p[1][1] - py) * (p[2][0] - px)) / area;
    const wb = ((p[2][0] - px) * (p[0][1] - py) - (p[2][1] - py) * (p[0][0] - px)) / area;
    if (Math.min(wa, wb, 1 - wa - wb) >= bound) out.add(y * size + x);
  }
  return out;
}

test('a raster covers the texels whose centre lies inside a triangle (within the tolerance), each with its interpolated attributes', () => {
  const { uvs, indices, attrs } = mesh(3);
  const size = 64;
  const visits = new Map<number, Map<number, number[]>>();
  let triangle = 0;
  // rasterizeUv visits triangle by triangle: a texel's visits are told apart by the triangle that covers it.
  const raster = new UvRaster(uvs, indices, size);
  for (let t = 0; t < indices.length / 3; t++) {
    visits.set(t, new Map());
    raster.visit(attrs, 2, (texel, a) => visits.get(t)!.set(texel, [a[0], a[1]]), [t]);
  }
  for (let t = 0; t < indices.length / 3; t++) {
    const got = visits.get(t)!;
    // Texels clear of the tolerance's bound either way are decided the same by both.
    for (const texel of covered(uvs, indices, size, t, -1e-4 + 1e-7)) assert.ok(got.has(texel), `triangle ${t} misses texel ${texel}`);
    const loose = covered(uvs, indices, size, t, -1e-4 - 1e-7);
    for (const texel of got.keys()) assert.ok(loose.has(texel), `triangle ${t} covers texel ${texel} outside it`);
    triangle += got.size > 0 ? 1 : 0;
  }
  assert.ok(triangle > 100, 'most triangles cover texels');
  assert.equal(visits.get(indices.length / 3 - 2)!.size, 0, 'the degenerate triangle covers none');
  // Attributes: barycentric interpolation of the corners' at the texel centre.
  const t = 17;
  const [a, b, c] = [0, 1, 2].map((k) => indices[t * 3 + k]);
  const [texel, value] = [...visits.get(t)!][0];
  const px = (texel % size) + 0.5, py = Math.floor(texel / size) + 0.5;
  const q = [a, b, c].map((v) => [uvs[v * 2] * size, (1 - uvs[v * 2 + 1]) * size]);
  const area = (q[1][0] - q[0][0]) * (q[2][1] - q[0][1]) - (q[1][1] - q[0][1]) * (q[2][0] - q[0][0]);
  const wa = ((q[1][0] - px) * (q[2][1] - py) - (q[1][1] - py) * (q[2][0] - px)) / area;
  const wb = ((q[2][0] - px) * (q[0][1] - py) - (q[2][1] - py) * (q[0][0] - px)) / area;
  for (let k = 0; k < 2; k++) {
    const expected = wa * attrs[a * 2 + k] + wb * attrs[b * 2 + k] + (1 - wa - wb) * attrs[c * 2 + k];
    assert.ok(Math.abs(value[k] - expected) < 1e-4, `attribute ${k}: ${value[k]} against ${expected}`);
  }
});

test('visiting a subset of a raster\'s triangles gives what rasterising those triangles alone gives, in the same order', () => {
  const { uvs, indices, attrs } = mesh(5);
  const size = 128;
  const subset = Uint32Array.from([40, 3, 77, 12, 12]);
  const alone: number[] = [];
  rasterizeUv(uvs, Uint32Array.from([...subset].flatMap((t) => [indices[t * 3], indices[t * 3 + 1], indices[t * 3 + 2]])), size, attrs, 2, (texel, a) => alone.push(texel, a[0], a[1]));
  const fromLayout: number[] = [];
  layoutRaster(uvs, indices, size).visit(attrs, 2, (texel, a) => fromLayout.push(texel, a[0], a[1]), subset);
  assert.ok(alone.length > 0);
  assert.deepEqual(fromLayout, alone);
});

test('a layout\'s raster is built once per size and rebuilt for other indices', () => {
  const { uvs, indices } = mesh(7);
  const first = layoutRaster(uvs, indices, 64);
  assert.equal(layoutRaster(uvs, indices, 64), first);
  const other = layoutRaster(uvs, indices, 32);
  assert.notEqual(other, first);
  assert.equal(other.size, 32);
  assert.deepEqual(first.spans, new UvRaster(uvs, indices, 64).spans);
  const reversed = indices.slice().reverse();
  const again = layoutRaster(uvs, reversed, 64);
  assert.notEqual(again, first);
  assert.equal(again.indices, reversed);
});

test('a sliver whose bounds run far outside its box keeps its rows inside the box', () => {
  // Nearly collinear: the row bounds from the edge equations are huge, the covered texels few.
  const uvs = Float32Array.from([0.1, 0.5, 0.9, 0.5 + 1e-6, 0.5, 0.5 + 2e-6]);
  const raster = new UvRaster(uvs, Uint32Array.from([0, 1, 2]), 4096);
  for (let r = 0; r < raster.spans.length; r += 2) {
    assert.ok(raster.spans[r] <= raster.spans[r + 1]);
    assert.ok(raster.spans[r] >= 0.1 * 4096 - 1 && raster.spans[r + 1] <= 0.9 * 4096 + 2);
  }
});

test('interpolate writes what visit gives each texel (the last triangle over a shared texel winning), into floats or clamped bytes', () => {
  const { uvs, indices, attrs } = mesh(4);
  const raster = new UvRaster(uvs, indices, 40);
  const texels = 40 * 40;
  const floats = new Float32Array(texels * 3).fill(-1), bytes = new Uint8ClampedArray(texels * 4);
  const wantFloats = floats.slice(), wantBytes = bytes.slice();
  const seen = new Uint8Array(texels), wantSeen = new Uint8Array(texels);
  raster.visit(attrs, 2, (texel, a) => {
    wantFloats.set(a, texel * 3);
    wantBytes[texel * 4] = a[0];
    wantBytes[texel * 4 + 1] = a[1];
    wantSeen[texel] = 1;
  });
  raster.interpolate(attrs, 2, floats, 3, seen);
  assert.deepEqual(floats, wantFloats);
  assert.deepEqual(seen, wantSeen);
  raster.interpolate(attrs, 2, bytes, 4, seen);
  assert.deepEqual(bytes, wantBytes);
  assert.ok(wantSeen.reduce((a, b) => a + b, 0) > texels / 2);
});
