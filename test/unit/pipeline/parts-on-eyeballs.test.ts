/**
 * Issue 20 item 3, the tear line and the caruncle on fitted heads: the tear line lies on the eyeball along the lower
 * lid's margin as seen from the front, and neither cuts into anything in any shape. Carried by its lid triangles from
 * the template, the tear line stood up to 5 mm in front of p12-a's eyeballs, a pale stroke across the white 1.7 mm
 * above the margin at its inner end, and cut into p03-a's left eyeball at rest (9 pairs of triangles); laid on the
 * eyeball and only carried by the lid, it swung into the cornea as the eyes looked down or squinted (41 pairs over
 * p12-a, p04-a, p03-a and p13-a). So carried, the caruncles cut into p12-a's and p03-a's eyeballs at rest (13 and 28
 * pairs). Laid at the template's place, the caruncles of 2.0 p03-b were cut by its lids at rest (30 pairs) and in
 * `eyeSquintLeft` (38), and 1.6 couple's tear line at rest (5) and its caruncle in `cheekSquintLeft` (15): the parts
 * now sit where the lids leave them clear (clear-of-head.ts, caruncle-press.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PhotoPipeline } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { lidRims } from '../../../src/geometry/template/lid-rim.ts';
import { fitSphere } from '../../../src/geometry/mesh/sphere-fit.ts';
import { countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import type { MeshData } from '../../../src/model/avatar.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);
/** How far the tear line's lower edge may lie from the margin, up or down, seen from the front (cm). */
const ON_MARGIN = 0.03;

for (const [version, photo] of [['2.0', 'p12-a'], ['2.0', 'p03-a'], ['2.0', 'p03-b'], ['1.6', 'p12-a'], ['1.6', 'couple']] as const) {
  test(`${version}, ${photo}: the tear lines lie on the eyeballs along the lower margins; they and the caruncles cut into nothing in any shape`, { timeout: 300_000 }, async () => {
    const tpl = await loadTemplateView(version);
    const { model } = await new PhotoPipeline(loadTemplateView).run({ inputType: 'photo', file: new Uint8Array(readFileSync(new URL(`${photo}.jpg`, faces))), template: version, features: ['expressions'] }, () => {});
    const mesh = (name: string) => model.meshes.find((m) => m.name === name)!;
    const tear = mesh('tearLine').geometry.positions;
    const half = tear.length / 2;
    for (const [side, loop, points] of [['eyeLeft', tpl.source.loops.leftEye, tear.subarray(0, half)], ['eyeRight', tpl.source.loops.rightEye, tear.subarray(half)]] as const) {
      const eye = fitSphere(mesh(side).geometry.positions);
      const rim = lidRims(mesh('head').geometry.positions, loop).lower;
      const marginY = (x: number) => {
        for (let k = 1; k < rim.length; k++) {
          const [a, b] = [rim[k - 1], rim[k]];
          if ((x - a[0]) * (x - b[0]) <= 0) return a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0] || 1);
        }
        return NaN;
      };
      for (let i = 0; i < points.length; i += 3) {
        const lift = Math.hypot(points[i] - eye.center[0], points[i + 1] - eye.center[1], points[i + 2] - eye.center[2]) - eye.radius;
        assert.ok(lift > 0.024 && lift < 0.035, `${side} tear vertex ${i / 3}: ${(10 * lift).toFixed(2)} mm off the eyeball`);
        // The lower row (every other vertex) runs along the margin.
        if (i % 6 === 0) assert.ok(Math.abs(points[i + 1] - marginY(points[i])) < ON_MARGIN, `${side} tear vertex ${i / 3}: ${(10 * (points[i + 1] - marginY(points[i]))).toFixed(2)} mm from the margin`);
      }
    }
    const shaped = (name: string, shape?: string): MeshData => {
      const m = mesh(name);
      const d = shape ? m.morphs.find((t) => t.name === shape)?.deltas : undefined;
      return d ? { ...m.geometry, positions: m.geometry.positions.map((x, i) => x + d[i]) } : m.geometry;
    };
    const crossings: string[] = [];
    for (const shape of [undefined, ...mesh('head').morphs.map((t) => t.name)]) {
      for (const part of ['tearLine', 'caruncle']) {
        for (const other of ['head', 'eyeLeft', 'eyeRight', 'cornea']) {
          const n = countIntersectionsBetween(shaped(other, shape), shaped(part, shape));
          if (n > 0) crossings.push(`${shape ?? 'rest'}: ${part} x ${other} ${n}`);
        }
      }
    }
    assert.deepEqual(crossings, []);
  });
}
