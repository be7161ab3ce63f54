/**
 * The template's ears: an adult's size (6.2 cm tall, the rim about 1.4 cm off the skull, leaning in at the front), between the
 * brows' and the nose base's heights, each in a UV island of its own at about the face's texel density.
 * Ears after fitting: placed and sized from the face beside them, as whole pieces. A face 12 % wider
 * than the template (and no taller) gets ears 12 % larger in every direction, not stretched sideways
 * as the warp alone would leave them; the template's own landmarks leave them where they are, and
 * a face whose middle sits higher against its contour lifts them with it (by at most 0.5 cm, as
 * far as their stems take without folding).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fitHead, type FitSource } from '../../../src/geometry/fit/fit-head.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import type { TemplateView } from '../../../src/pipeline/template-view.ts';
import { headDistance } from '../../../src/geometry/template/head-shape.ts';
import { earFrame, earRings, openingOutline } from '../../../src/geometry/template/ear.ts';
import { dot, sub } from '../../../src/geometry/mesh/vec.ts';
import type { Vec3 } from '../../../src/model/avatar.ts';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { headMeshReport } from '../../../tools/quality/evaluate.ts';

const source = (tpl: TemplateView, ears: boolean): FitSource => ({
  head: tpl.meshes[0].geometry.positions,
  indices: tpl.meshes[0].geometry.indices,
  parts: {},
  eyes: {},
  openingPairs: tpl.openingPairs,
  ears: ears ? tpl.ears : undefined,
});

/** The template's face points, widened by `wide` across (x) about the middle, irises in front of the eyes. */
function landmarks(tpl: TemplateView, wide: number): Float32Array {
  const lm = new Float32Array(478 * 3);
  lm.set(tpl.meshes[0].geometry.positions.subarray(0, 468 * 3));
  for (let i = 0; i < 468; i++) lm[3 * i] *= wide;
  for (const [mesh, iris] of [['eyeLeft', 468], ['eyeRight', 473]] as const) {
    const { center, radius } = tpl.eyes[mesh];
    for (let k = 0; k < 5; k++) lm.set([center[0] * wide, center[1], center[2] + radius], 3 * (iris + k));
  }
  return lm;
}

/** Extent of the pinna (vertices moving fully with the ear) along each axis. */
function extent(tpl: TemplateView, positions: Float32Array, side: number): number[] {
  const ear = tpl.ears[side];
  const pinna = ear.vertices.filter((_, i) => ear.weights[i] === 1);
  // The pinna's front leans in to the head and blends with the skin beside it: its back moves wholly with the ear
  // (about a sixth of the ear's vertices).
  assert.ok(pinna.length > ear.vertices.length / 8, "the pinna's back moves wholly with the ear");
  return [0, 1, 2].map((k) => Math.max(...pinna.map((v) => positions[3 * v + k])) - Math.min(...pinna.map((v) => positions[3 * v + k])));
}

test('the ears stay put on the template and grow evenly with a wider face', () => {
  const tpl = loadTemplateView('1.6');
  const rest = tpl.meshes[0].geometry.positions;
  const still = fitHead(source(tpl, true), { landmarks: landmarks(tpl, 1) });
  for (const ear of tpl.ears) for (const v of ear.vertices) for (let k = 0; k < 3; k++) assert.ok(Math.abs(still.head[3 * v + k] - rest[3 * v + k]) < 1e-3);

  const wide = 1.12;
  const placed = fitHead(source(tpl, true), { landmarks: landmarks(tpl, wide) });
  const warped = fitHead(source(tpl, false), { landmarks: landmarks(tpl, wide) });
  for (const side of [0, 1]) {
    const before = extent(tpl, rest, side);
    const grown = extent(tpl, placed.head, side).map((e, k) => e / before[k]);
    for (const g of grown) assert.ok(Math.abs(g - wide) < 0.01, `ear ${side} grows ${grown.map((x) => x.toFixed(3)).join(', ')}`);
    // The warp alone leaves the ear's height as it was: the fit is what sizes it.
    const stretched = extent(tpl, warped.head, side).map((e, k) => e / before[k]);
    assert.ok(Math.abs(stretched[1] - 1) < Math.abs(grown[1] - 1) / 2, `warped ear height ${stretched[1].toFixed(3)}`);
    // It stays beside the face: its centre moves out with the face's side.
    const centre = (p: Float32Array) => tpl.ears[side].vertices.reduce((s, v) => s + p[3 * v], 0) / tpl.ears[side].vertices.length;
    assert.ok(Math.abs(centre(placed.head) - centre(rest) * wide) < 0.3, `ear ${side} centre x ${centre(placed.head).toFixed(2)} for ${(centre(rest) * wide).toFixed(2)}`);
  }
});

/** Mean height of landmarks: two on the brows, two at the nose's base. */
const height = (p: ArrayLike<number>, ids: number[]) => ids.reduce((s, v) => s + p[3 * v + 1], 0) / ids.length;
const BROWS = [105, 334], NOSE_BASE = [98, 327];

/** Texture pixels per cm over a set of triangles: square root of their UV area in pixels over their area. */
function density(tpl: TemplateView, triangles: number[]): number {
  const { positions: p, uvs: uv, indices } = tpl.meshes[0].geometry;
  let area = 0, uvArea = 0;
  for (const t of triangles) {
    const [a, b, c] = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]];
    const e1 = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]), e2 = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
    area += Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]) / 2;
    uvArea += Math.abs((uv[2 * b] - uv[2 * a]) * (uv[2 * c + 1] - uv[2 * a + 1]) - (uv[2 * c] - uv[2 * a]) * (uv[2 * b + 1] - uv[2 * a + 1])) / 2;
  }
  return Math.sqrt(uvArea / area) * tpl.textureSize;
}

for (const version of ['1.6', '2.0'] as const) {
  test(`${version}: each ear is an adult's, between the brows and the nose's base, in a UV island of its own`, () => {
    const tpl = loadTemplateView(version);
    const { positions: p, uvs: uv, indices } = tpl.meshes[0].geometry;
    const brows = height(p, BROWS), noseBase = height(p, NOSE_BASE);
    for (const ear of tpl.ears) {
      const ys = ear.vertices.map((v) => p[3 * v + 1]);
      const [top, bottom] = [Math.max(...ys), Math.min(...ys)];
      assert.ok(Math.abs(top - bottom - 6.2) < 0.3, `ear height ${(top - bottom).toFixed(2)}`);
      assert.ok(Math.abs(top - brows) < 0.6 && Math.abs(bottom - noseBase) < 0.6, `ear from ${bottom.toFixed(2)} to ${top.toFixed(2)}, brows ${brows.toFixed(2)}, nose base ${noseBase.toFixed(2)}`);
      const off = Math.max(...ear.vertices.map((v) => headDistance([p[3 * v], p[3 * v + 1], p[3 * v + 2]])));
      assert.ok(off > 1.2 && off < 1.7, `the rim stands ${off.toFixed(2)} cm off the skull`);
      // It leans in at its front, where a pinna meets the head, and stands out at the back (before the
      // lean, 1.39 and 1.46 cm: a plate beside the head).
      const zs = ear.vertices.map((v) => p[3 * v + 2]);
      const [back, front] = [Math.min(...zs), Math.max(...zs)];
      const offIn = (from: number, to: number) => Math.max(...ear.vertices.filter((v) => p[3 * v + 2] >= from && p[3 * v + 2] <= to).map((v) => headDistance([p[3 * v], p[3 * v + 1], p[3 * v + 2]])));
      const [frontOff, backOff] = [offIn(front - (front - back) / 3, front), offIn(back, back + (front - back) / 3)];
      assert.ok(backOff - frontOff > 0.25, `the ear's front third stands ${frontOff.toFixed(2)} cm off the skull, its back third ${backOff.toFixed(2)}`);
      // Its own island: what the texture holds where the ear's triangles are is the ear (and its stem).
      const inEar = new Set(ear.vertices);
      const all = [...Array(indices.length / 3).keys()];
      const triangles = all.filter((t) => [0, 1, 2].some((k) => inEar.has(indices[3 * t + k])));
      const uvCentre = (t: number) => [0, 1].map((k) => (uv[2 * indices[3 * t] + k] + uv[2 * indices[3 * t + 1] + k] + uv[2 * indices[3 * t + 2] + k]) / 3);
      const box = [0, 1].map((k) => [Math.min(...triangles.map((t) => uvCentre(t)[k])), Math.max(...triangles.map((t) => uvCentre(t)[k]))]);
      const there = all.filter((t) => uvCentre(t).every((x, k) => x >= box[k][0] && x <= box[k][1]));
      const offEar = there.filter((t) => {
        const c = [0, 1, 2].map((k) => (p[3 * indices[3 * t] + k] + p[3 * indices[3 * t + 1] + k] + p[3 * indices[3 * t + 2] + k]) / 3);
        return !ear.vertices.some((v) => Math.hypot(p[3 * v] - c[0], p[3 * v + 1] - c[1], p[3 * v + 2] - c[2]) < 1);
      });
      assert.deepEqual(offEar, [], 'only the ear is mapped into its island');
      const face = new Set(tpl.source.regions.face);
      const faceTriangles = [...Array(indices.length / 3).keys()].filter((t) => [0, 1, 2].every((k) => face.has(indices[3 * t + k])));
      const [e, f] = [density(tpl, triangles), density(tpl, faceTriangles)];
      assert.ok(e > 0.8 * f && e < 1.25 * f, `ear ${e.toFixed(1)} px/cm against the face's ${f.toFixed(1)}`);
    }
  });
}

/** Whether a point lies inside a convex polygon (either turning sense) by at least `margin`. */
function insideConvex(polygon: [number, number][], point: [number, number], margin: number): boolean {
  const signs = polygon.map((a, i) => {
    const b = polygon[(i + 1) % polygon.length];
    return ((b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])) / Math.hypot(b[0] - a[0], b[1] - a[1]);
  });
  return signs.every((d) => d > margin) || signs.every((d) => d < -margin);
}

/** The convex hull of points in the plane (monotone chain). */
function hull(points: [number, number][]): [number, number][] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: [number, number][]) => {
    const out: [number, number][] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    return out.slice(0, -1);
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

// The skin's opening was a block of grid cells, a parallelogram leaning forwards at the top while the pinna leans back:
// its top-front corner stood 1.5-2 cm in front of the pinna, and the stem rose from it as a thin fin.
for (const version of ['1.6', '2.0'] as const) {
  test(`${version}: the skin's opening for each ear lies under the pinna, seen from the side`, () => {
    const tpl = loadTemplateView(version);
    const { positions: p, indices } = tpl.meshes[0].geometry;
    for (const ear of tpl.ears) {
      const inEar = new Set(ear.vertices);
      const opening = new Set<number>();
      for (let t = 0; t < indices.length; t += 3) {
        const corners = [indices[t], indices[t + 1], indices[t + 2]];
        if (corners.some((v) => inEar.has(v))) for (const v of corners) if (!inEar.has(v)) opening.add(v);
      }
      const side = Math.sign(ear.vertices.reduce((s, v) => s + p[3 * v], 0)) as 1 | -1;
      const { back, up } = earFrame(side);
      const along = (axis: readonly number[], v: number) => axis[0] * p[3 * v] + axis[1] * p[3 * v + 1] + axis[2] * p[3 * v + 2];
      const flat = (v: number): [number, number] => [along(back, v), along(up, v)];
      const pinna = hull(ear.vertices.map(flat));
      const outside = [...opening].filter((v) => !insideConvex(pinna, flat(v), 0.1));
      assert.deepEqual(outside.map((v) => flat(v).map((x) => x.toFixed(2)).join(', ')), [], 'opening points outside the pinna');
    }
  });
}

test('a face whose middle sits higher against its contour lifts the ears with it', () => {
  const tpl = loadTemplateView('1.6');
  const rest = tpl.meshes[0].geometry.positions;
  const lm = landmarks(tpl, 1);
  const flat = fitHead(source(tpl, true), { landmarks: lm });
  // The brows and the nose's base 0.4 cm higher (the contour points in front of the ears stay).
  const lift = 0.4;
  const raised = lm.slice();
  for (const v of [...BROWS, ...NOSE_BASE]) raised[3 * v + 1] += lift;
  const placed = fitHead(source(tpl, true), { landmarks: raised });
  for (const ear of tpl.ears) {
    const pinna = ear.vertices.filter((_, i) => ear.weights[i] === 1);
    const rise = pinna.reduce((s, v) => s + placed.head[3 * v + 1] - flat.head[3 * v + 1], 0) / pinna.length;
    assert.ok(Math.abs(rise - lift) < 0.08, `the ear rises ${rise.toFixed(2)} cm`);
    assert.ok(pinna.every((v) => Math.abs(flat.head[3 * v + 1] - rest[3 * v + 1]) < 1e-3));
  }
});

// The leaned ears on two fitted heads whose ears the fit moves furthest from the warp beside them: with the pinna's
// front blending into the warp over 1.2 cm its layers cut through each other (31 and 137 pairs of triangles).
for (const photo of ['couple', 'p12-a']) {
  test(`${photo}: the fitted head's leaned ears do not cut themselves`, async () => {
    const file = readFileSync(new URL(`../../fixtures/faces/${photo}.jpg`, import.meta.url));
    const result = await new PhotoPipeline(loadTemplateView).run({ inputType: 'photo', file, template: '2.0', features: [] }, () => {});
    const { valid, report } = headMeshReport(result);
    assert.ok(valid, JSON.stringify(report));
  });
}

/** Crests of a profile, outermost ring first: rises and then falls by more than `prominence` each. */
function crests(profile: number[], prominence: number): number {
  let count = 0, rising = false, low = profile[0], high = profile[0];
  for (const d of profile) {
    if (!rising && d > low + prominence) [rising, high] = [true, d];
    else if (rising && d < high - prominence) [count, rising, low] = [count + 1, false, d];
    else [low, high] = [Math.min(low, d), Math.max(high, d)];
  }
  return count;
}

// Before, the antihelix ran round the back and the top as one ridge: the top's profile had two crests, as the back's.
test('the antihelix forks at the top of the ear: helix, superior and inferior crus there, helix and antihelix at the back', () => {
  const { out, back, up } = earFrame(1);
  const b0: Vec3 = [7.5, 0, -5];
  const count = 24;
  const positions = Array.from({ length: count }, (_, i) => {
    const [x, y] = openingOutline((2 * Math.PI * i) / count);
    return [0, 1, 2].map((k) => b0[k] + back[k] * x + up[k] * y);
  }).flat();
  const { rings } = earRings(positions, [...Array(count).keys()], 1);
  const rel = (p: Vec3) => sub(p, b0);
  // Where each ring point lies about the helix's crest ring's centre, seen from the side (0 back, pi/2 up).
  const crest = rings.reduce((best, ring, r) => (dot(out, rel(ring[0])) > dot(out, rel(rings[best][0])) ? r : best), 0);
  const centre = [0, 1].map((k) => rings[crest].reduce((s, p) => s + dot([back, up][k], rel(p)), 0) / rings[crest].length);
  const polar = (j: number) => Math.atan2(dot(up, rel(rings[crest][j])) - centre[1], dot(back, rel(rings[crest][j])) - centre[0]);
  const profile = (j: number) => rings.slice(2).map((ring) => dot(out, rel(ring[j])));
  const at = (angle: number) => [...rings[crest].keys()].filter((j) => Math.abs(Math.atan2(Math.sin(polar(j) - angle), Math.cos(polar(j) - angle))) < 0.15);
  const top = at(1.55), rear = at(0.2);
  assert.ok(top.length > 0 && rear.length > 0);
  for (const j of top) assert.equal(crests(profile(j), 0.05), 3, `top: ${profile(j).map((d) => d.toFixed(2)).join(' ')}`);
  for (const j of rear) assert.equal(crests(profile(j), 0.05), 2, `back: ${profile(j).map((d) => d.toFixed(2)).join(' ')}`);
});
