/**
 * Issue 20 item 4: teeth and tongue stay right in every shape that moves the mouth (jawOpen, the visemes,
 * tongueOut...): the teeth never cut through the lips, cheeks or the mouth's inside, the tongue never
 * through the teeth or the head, and the tongue stays behind the lower front teeth except where it is
 * meant to leave them: tongueOut (out past the lips) and th (its tip between the front teeth).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, TemplateVersion, Vec3 } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { buildBlendshapes } from '../../../src/geometry/expressions/blendshapes.ts';
import { countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { PART_NAMES, type HeadTemplate } from '../../../src/geometry/template/types.ts';

const versions: TemplateVersion[] = ['1.6', '2.0'];
const at = (p: ArrayLike<number>, v: number): Vec3 => [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
/** Shapes where the tongue leaves the mouth or the lower teeth's shelter by design. */
const TONGUE_OUT = new Set(['tongueOut']);
const TONGUE_BETWEEN_TEETH = new Set(['viseme_TH', 'polly_th']);

/** The head's triangles within `radius` (cm) of the mouth's middle: nothing farther can meet the teeth or tongue. */
function headNearMouth(tpl: HeadTemplate, positions: Float32Array, radius: number): Pick<MeshData, 'positions' | 'indices'> {
  const mouth = at(tpl.head.positions, 13);
  const near = (v: number) => Math.hypot(...at(tpl.head.positions, v).map((x, k) => x - mouth[k])) < radius;
  const kept: number[] = [];
  for (let t = 0; t < tpl.head.indices.length; t += 3) if ([0, 1, 2].some((k) => near(tpl.head.indices[t + k]))) kept.push(tpl.head.indices[t], tpl.head.indices[t + 1], tpl.head.indices[t + 2]);
  return { positions, indices: Uint32Array.from(kept) };
}

for (const version of versions) {
  test(`${version}: in every shape that moves the mouth, teeth and tongue stay inside it and clear of each other`, () => {
    const tpl = buildTemplate(version);
    const shapes = buildBlendshapes(tpl, { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) }, ['expressions', 'visemes']);
    const lips = [...tpl.loops.lipsInner, ...tpl.loops.lipsOuter];
    const lower = tpl.lowerTeeth;
    let checked = 0;
    shapes.head.forEach((shape, k) => {
      const moves = (d: Float32Array, vertices?: readonly number[]) => (vertices ?? Array.from({ length: d.length / 3 }, (_, v) => v)).some((v) => Math.hypot(d[3 * v], d[3 * v + 1], d[3 * v + 2]) > 1e-4);
      if (!moves(shape.deltas, lips) && !moves(shapes.teeth[k].deltas) && !moves(shapes.tongue[k].deltas)) return;
      checked++;
      const shaped = (name: 'head' | 'teeth' | 'tongue') => {
        const mesh = name === 'head' ? tpl.head : tpl.parts[name];
        const d = shapes[name][k].deltas;
        return { ...mesh, positions: mesh.positions.map((x, i) => x + d[i]) };
      };
      const head = headNearMouth(tpl, shaped('head').positions, 7), teeth = shaped('teeth'), tongue = shaped('tongue');
      assert.equal(countIntersectionsBetween(head, teeth), 0, `${shape.name}: teeth x head`);
      assert.equal(countIntersectionsBetween(head, tongue), 0, `${shape.name}: tongue x head`);
      assert.equal(countIntersectionsBetween(teeth, tongue), 0, `${shape.name}: teeth x tongue`);
      // Front and biting edge of the lower incisors (within 0.5 cm of the middle), the tongue's tip.
      const incisors = lower.filter((v) => Math.abs(teeth.positions[3 * v]) < 0.5);
      const lowerFront = Math.max(...incisors.map((v) => teeth.positions[3 * v + 2]));
      const lowerEdge = Math.max(...incisors.map((v) => teeth.positions[3 * v + 1]));
      const upperEdge = Math.min(...Array.from({ length: teeth.positions.length / 3 }, (_, v) => v).filter((v) => !lower.includes(v) && Math.abs(teeth.positions[3 * v]) < 0.5).map((v) => teeth.positions[3 * v + 1]));
      let tip = 0;
      for (let v = 1; v < tongue.positions.length / 3; v++) if (tongue.positions[3 * v + 2] > tongue.positions[3 * tip + 2]) tip = v;
      const [, tipY, tipZ] = at(tongue.positions, tip);
      if (TONGUE_OUT.has(shape.name)) {
        assert.ok(tipZ > at(shaped('head').positions, 14)[2], `${shape.name}: the tip comes out past the lower lip`);
      } else if (TONGUE_BETWEEN_TEETH.has(shape.name)) {
        assert.ok(tipZ > lowerFront - 0.2 && tipY > lowerEdge && tipY < upperEdge, `${shape.name}: the tip between the front teeth`);
      } else {
        assert.ok(tipZ < lowerFront, `${shape.name}: the tongue behind the lower front teeth (${tipZ.toFixed(2)} < ${lowerFront.toFixed(2)})`);
      }
    });
    assert.ok(checked >= 40, `${checked} shapes move the mouth`);
  });
}
