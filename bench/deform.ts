import type { Figure } from './figure.ts';
import { measure } from './timing.ts';
import { createDeformer } from '../src/geometry/deform/index.ts';
import { TriangleBvh, emptyClosestPoint } from '../src/geometry/spatial/triangle-bvh.ts';
import { random, superellipsoidHead, warpedHead } from '../test/fixtures/heads.ts';

const RUNS = 9;
const VERTICES = 100_000;

/** Median wall time of fn in ms, or with `cpu` the median CPU time of this process (less sensitive to other load on the machine). */
const timed = async (fn: () => void, cpu = false) => {
  const t = await measure(fn, RUNS, 2);
  return cpu ? t.cpu : t.wall;
};

/**
 * A hair-and-hat-like asset in mesh order (neighbouring vertices close together, as exported assets
 * are): a 250 x 400 grid over the upper head and the back, 0.2 to 4 cm outside the template surface.
 */
function assetAroundHead(head: Float32Array): Float32Array {
  const out = new Float32Array(3 * VERTICES);
  const columns = 400;
  // The head template is a UV sphere: 120 segments, 99 rings below a pole vertex at index 0.
  for (let k = 0; k < VERTICES; k++) {
    const row = Math.floor(k / columns), column = k % columns;
    const ring = 1 + Math.floor((row / 250) * 70), segment = Math.floor((column / columns) * 120);
    const v = 3 * (1 + (ring - 1) * 120 + segment);
    const x = head[v], y = head[v + 1], z = head[v + 2];
    const r = Math.hypot(x, y, z);
    const height = 0.2 + 1.9 * (1 + Math.sin(column / 23) * Math.cos(row / 17));
    const f = 1 + height / r;
    out[3 * k] = x * f;
    out[3 * k + 1] = y * f;
    out[3 * k + 2] = z * f;
  }
  return out;
}

/**
 * Vertex deformation of 100,000 asset vertices against a head of 11,882 vertices / 23,760 triangles
 * (a closed superellipsoid and a warped copy, the same as the unit tests use). Building the index is
 * timed on its own. Baseline: one plain pass of 100,000 affine transforms over the same points.
 */
export default async function (): Promise<Figure[]> {
  const head = superellipsoidHead(100, 120);
  const avatar = warpedHead(head.positions);
  const asset = assetAroundHead(head.positions);
  const shuffled = new Float32Array(asset.length);
  const rnd = random(9);
  const order = Array.from({ length: VERTICES }, (_, i) => i);
  for (let i = VERTICES - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  order.forEach((from, to) => shuffled.set(asset.subarray(3 * from, 3 * from + 3), 3 * to));

  const m = [0.99, -0.1, 0.05, 1.2, 0.1, 0.99, -0.02, -0.5, -0.05, 0.03, 1.01, 0.3];
  const transform = () => {
    const out = new Float32Array(asset.length);
    for (let i = 0; i < asset.length; i += 3) {
      const x = asset[i], y = asset[i + 1], z = asset[i + 2];
      out[i] = m[0] * x + m[1] * y + m[2] * z + m[3];
      out[i + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
      out[i + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
    }
  };
  const build = await timed(() => TriangleBvh.build(head.positions, head.indices));
  const create = await timed(() => createDeformer({ template: head.positions, avatar, indices: head.indices }));
  const deformer = createDeformer({ template: head.positions, avatar, indices: head.indices });
  const bvh = TriangleBvh.build(head.positions, head.indices);
  const hit = emptyClosestPoint();
  // Each query passes the previous answer as its hint, as the deformer does.
  const queries = (points: Float32Array) => () => {
    for (let i = 0; i < points.length; i += 3) bvh.closestPoint(points[i], points[i + 1], points[i + 2], hit, Infinity, hit.triangle);
  };
  const affine = await timed(transform);
  return [
    { key: 'deform.affine_100k', value: affine, unit: 'ms' },
    { key: 'deform.affine_100k_cpu', value: await timed(transform, true), unit: 'ms cpu' },
    { key: 'deform.bvh_build_24k_tris', value: build, unit: 'ms', baseline: 'deform.affine_100k' },
    { key: 'deform.create_deformer_24k_tris', value: create, unit: 'ms', baseline: 'deform.affine_100k' },
    {
      key: 'deform.deform_100k_vertices',
      value: await timed(() => deformer.deform(asset)),
      unit: 'ms',
      baseline: 'deform.affine_100k',
      goal: '<= 100 ms',
    },
    {
      key: 'deform.deform_100k_vertices_cpu',
      value: await timed(() => deformer.deform(asset), true),
      unit: 'ms cpu',
      baseline: 'deform.affine_100k_cpu',
    },
    {
      key: 'deform.deform_100k_vertices_shuffled',
      value: await timed(() => deformer.deform(shuffled)),
      unit: 'ms',
      baseline: 'deform.affine_100k',
    },
    { key: 'deform.closest_point_100k_queries', value: await timed(queries(asset)), unit: 'ms', baseline: 'deform.affine_100k' },
    {
      key: 'deform.closest_point_100k_queries_shuffled',
      value: await timed(queries(shuffled)),
      unit: 'ms',
      baseline: 'deform.affine_100k',
    },
  ];
}
