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
import { segmentCrossesTriangle } from '../../../src/geometry/mesh/triangle-tests.ts';
import { closeMouth } from '../../../src/geometry/fit/fit-expression.ts';
import { MADE_ON, type ArkitName } from '../../../src/geometry/expressions/arkit.ts';
import { PART_NAMES, type HeadTemplate } from '../../../src/geometry/template/types.ts';
import { CROWN_U, GUMS_BELOW_V, TOOTH_COLUMNS } from '../../../src/geometry/template/mouth-parts.ts';

const versions: TemplateVersion[] = ['1.6', '2.0'];
const at = (p: ArrayLike<number>, v: number): Vec3 => [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
/** Shapes where the tongue leaves the mouth or the lower teeth's shelter by design. */
const TONGUE_OUT = new Set(['tongueOut']);
const TONGUE_BETWEEN_TEETH = new Set(['viseme_TH', 'polly_th']);

/** A shape's deltas for `mesh` as it is judged: at weight 1, on the shape it is made for (mouthClose on jawOpen). */
function judgedDeltas(shapes: Record<string, { name: string; deltas: Float32Array }[]>, mesh: string, k: number): Float32Array {
  const on = MADE_ON[shapes.head[k].name as ArkitName];
  const d = shapes[mesh][k].deltas;
  if (!on) return d;
  const base = shapes[mesh][shapes.head.findIndex((s) => s.name === on)].deltas;
  return d.map((x, i) => x + base[i]);
}

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
        const d = judgedDeltas(shapes, name, k);
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

/** Shapes of an open mouth, where the upper incisors' fronts show below the upper lip. */
const UPPER_TEETH_SHOW = ['jawOpen', 'viseme_aa', 'viseme_oh', 'polly_a'];
/** Shapes whose lips meet: nothing of the teeth shows. */
const LIPS_SHUT = ['mouthClose', 'mouthPressLeft', 'mouthPressRight', 'viseme_PP', 'polly_p'];

/**
 * The share of the upper (or `lowerRow`) incisors' points (off the centre line, whose rays would run along the head's
 * midline edges) that a ray straight ahead (template +z, 30 cm) leaves without crossing the head.
 */
function upperIncisorsSeen(tpl: HeadTemplate, head: Pick<MeshData, 'positions' | 'indices'>, teeth: Float32Array, lowerRow = false): number {
  const lower = new Set(tpl.lowerTeeth);
  const pos = new Float64Array(head.positions.length + 6);
  pos.set(head.positions);
  const p = head.positions.length;
  let seen = 0, points = 0;
  for (let v = 0; v < teeth.length / 3; v++) {
    if (lower.has(v) !== lowerRow || Math.abs(teeth[3 * v]) > 0.4 || Math.abs(teeth[3 * v]) < 0.03) continue;
    points++;
    pos.set([teeth[3 * v], teeth[3 * v + 1], teeth[3 * v + 2] + 0.005, teeth[3 * v], teeth[3 * v + 1], teeth[3 * v + 2] + 30], p);
    let hidden = false;
    for (let t = 0; t < head.indices.length && !hidden; t += 3) hidden = segmentCrossesTriangle(pos, p, p + 3, 3 * head.indices[t], 3 * head.indices[t + 1], 3 * head.indices[t + 2], 1e-9);
    if (!hidden) seen++;
  }
  return seen / points;
}

for (const version of versions) {
  test(`${version}: on the avatar's closed mouth, the upper incisors' edge lies below the upper lip, hidden; they show when the mouth opens, and no shape puts them through the head`, () => {
    const tpl = buildTemplate(version);
    const parts = Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions]));
    // The avatar's rest: the fitted neutral's lips are closed (photo-pipeline), here on the template itself.
    const rest = closeMouth(tpl, { head: tpl.head.positions, parts });
    const shapes = buildBlendshapes(tpl, { head: rest, parts }, ['expressions', 'visemes']);
    const lower = new Set(tpl.lowerTeeth);
    const teeth = tpl.parts.teeth.positions;
    const upperEdge = Math.min(...Array.from({ length: teeth.length / 3 }, (_, v) => v).filter((v) => !lower.has(v) && Math.abs(teeth[3 * v]) < 0.5).map((v) => teeth[3 * v + 1]));
    const lipLine = (at(rest, 13)[1] + at(rest, 14)[1]) / 2;
    assert.ok(upperEdge < lipLine - 0.1 && upperEdge > lipLine - 0.3, `the upper incisors' edge ${(upperEdge - lipLine).toFixed(2)} cm from the lips' meeting line (1 to 3 mm below)`);
    assert.equal(upperIncisorsSeen(tpl, headNearMouth(tpl, rest, 7), teeth), 0, 'at rest the lips hide the upper incisors');
    const shaped = (name: string) => {
      const k = shapes.head.findIndex((s) => s.name === name);
      assert.ok(k >= 0, name);
      const head = judgedDeltas(shapes, 'head', k), moved = judgedDeltas(shapes, 'teeth', k);
      return { head: headNearMouth(tpl, rest.map((x, i) => x + head[i]), 7), teeth: teeth.map((x, i) => x + moved[i]) };
    };
    for (const { name } of shapes.head) {
      const { head, teeth: t } = shaped(name);
      assert.equal(countIntersectionsBetween(head, { positions: t, indices: tpl.parts.teeth.indices }), 0, `${name}: teeth x head`);
      if (LIPS_SHUT.includes(name)) assert.equal(upperIncisorsSeen(tpl, head, t), 0, `${name}: the lips hide the upper incisors`);
    }
    for (const name of UPPER_TEETH_SHOW) {
      const { head, teeth: t } = shaped(name);
      const seen = upperIncisorsSeen(tpl, head, t);
      assert.ok(seen >= 0.1, `${name}: ${(100 * seen).toFixed(0)} % of the upper incisors' points seen from ahead`);
    }
    // Wide open, the upper lip retracts from most of the upper incisors' crowns (the jaw alone showed 16 % of their
    // points, a strip under the lip), and the lower lip rides up over part of the lower ones' (the jaw alone: 40-55 %).
    const { head, teeth: t } = shaped('jawOpen');
    const upperSeen = upperIncisorsSeen(tpl, head, t), lowerSeen = upperIncisorsSeen(tpl, head, t, true);
    assert.ok(upperSeen >= 0.3, `jawOpen: ${(100 * upperSeen).toFixed(0)} % of the upper incisors' points seen from ahead`);
    assert.ok(lowerSeen > 0.05 && lowerSeen < 0.3, `jawOpen: ${(100 * lowerSeen).toFixed(0)} % of the lower incisors' points seen from ahead`);
  });
}

test('tongueOut rests the tongue on the lower incisors also where the slide carries all of it past their front', () => {
  // On a wide mouth (p01-a's) the slide, in mouth units, is longer than the tongue: no point of it stays near
  // the incisors' front. A tongue that sits forward does the same on the template.
  const tpl = buildTemplate('2.0');
  for (const forward of [0, 1, 2, 3]) {
    const parts = Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions]));
    parts.tongue = tpl.parts.tongue.positions.map((x, i) => (i % 3 === 2 ? x + forward : x));
    const shapes = buildBlendshapes(tpl, { head: tpl.head.positions, parts }, ['expressions']);
    const d = shapes.tongue.find((s) => s.name === 'tongueOut')!.deltas;
    assert.ok(d.every(Number.isFinite), `tongue ${forward} cm forward: finite deltas`);
    assert.ok(d[2] > 1, `tongue ${forward} cm forward: it comes out (${d[2]})`);
  }
});

for (const version of versions) {
  test(`${version}: the upper central incisors come down in front of the lower ones (overbite and overjet), clear of them`, () => {
    const tpl = buildTemplate(version);
    const teeth = tpl.parts.teeth.positions;
    const lower = new Set(tpl.lowerTeeth);
    const middle = Array.from({ length: teeth.length / 3 }, (_, v) => v).filter((v) => Math.abs(teeth[3 * v]) < 0.3);
    const upper = middle.filter((v) => !lower.has(v)), low = middle.filter((v) => lower.has(v));
    const upperEdge = Math.min(...upper.map((v) => teeth[3 * v + 1]));
    const lowerEdge = Math.max(...low.map((v) => teeth[3 * v + 1]));
    // Where the two rows overlap in height, the upper crowns' backs against the lower crowns' fronts.
    const overlapping = (v: number) => teeth[3 * v + 1] > upperEdge && teeth[3 * v + 1] < lowerEdge;
    const upperBack = Math.min(...upper.filter(overlapping).map((v) => teeth[3 * v + 2]));
    const lowerFront = Math.max(...low.filter(overlapping).map((v) => teeth[3 * v + 2]));
    const overbite = lowerEdge - upperEdge, overjet = Math.max(...upper.map((v) => teeth[3 * v + 2])) - Math.max(...low.map((v) => teeth[3 * v + 2]));
    assert.ok(overbite > 0.1 && overbite < 0.3, `overbite ${overbite.toFixed(2)} cm (an adult's is 1 to 3 mm)`);
    assert.ok(overjet > 0.2 && overjet < 0.5, `overjet ${overjet.toFixed(2)} cm (2 to 4 mm)`);
    assert.ok(upperBack > lowerFront, `the upper incisors' backs (z ${upperBack.toFixed(2)}) ahead of the lower ones' fronts (${lowerFront.toFixed(2)})`);
  });
}

/** Where the triangles of `tris` cross the height y, seen from the front: the x interval they cover. */
function xSpanAt(p: ArrayLike<number>, tris: number[][], y: number): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const t of tris) {
    for (let e = 0; e < 3; e++) {
      const a = t[e], b = t[(e + 1) % 3];
      const ya = p[3 * a + 1], yb = p[3 * b + 1];
      if ((ya - y) * (yb - y) > 0 || ya === yb) continue;
      const x = p[3 * a] + ((y - ya) / (yb - ya)) * (p[3 * b] - p[3 * a]);
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
  }
  return [lo, hi];
}

/** The triangles of one crown: the k-th tooth from the middle (its column of cells in the teeth texture), of a row and side. */
function crownTriangles(tpl: HeadTemplate, k: number, isLower: boolean, side: number): number[][] {
  const { positions: p, uvs, indices } = tpl.parts.teeth;
  const lower = new Set(tpl.lowerTeeth);
  const inCell = (v: number) => uvs[2 * v] > k / TOOTH_COLUMNS && uvs[2 * v] < k / TOOTH_COLUMNS + CROWN_U[1] + 0.001 && uvs[2 * v + 1] > GUMS_BELOW_V;
  const tris: number[][] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const tri = [indices[t], indices[t + 1], indices[t + 2]];
    if (tri.every((v) => inCell(v) && lower.has(v) === isLower && Math.sign(p[3 * v]) === side)) tris.push(tri);
  }
  return tris;
}

/** The widest gap seen from the front between crown `a` (on the left) and crown `b` (on the right), over `over`'s height but its rounded ends. */
function widestGap(p: ArrayLike<number>, a: number[][], b: number[][], over: number[][]): number {
  const ys = over.flat().map((v) => p[3 * v + 1]);
  const top = Math.max(...ys), bottom = Math.min(...ys);
  let widest = 0;
  for (let f = 0.1; f <= 0.9; f += 0.05) {
    const y = bottom + f * (top - bottom);
    widest = Math.max(widest, xSpanAt(p, b, y)[0] - xSpanAt(p, a, y)[1]);
  }
  return widest;
}

for (const version of versions) {
  test(`${version}: seen from the front, the central incisors of each row meet at the midline, and the laterals hide their outer edges`, () => {
    const tpl = buildTemplate(version);
    const p = tpl.parts.teeth.positions;
    for (const isLower of [false, true]) {
      const row = isLower ? 'lower' : 'upper';
      const left = crownTriangles(tpl, 0, isLower, -1), right = crownTriangles(tpl, 0, isLower, 1), lateral = crownTriangles(tpl, 1, isLower, 1);
      assert.ok(left.length > 0 && right.length > 0 && lateral.length > 0, 'the central and lateral incisors found');
      const slit = widestGap(p, left, right, right);
      assert.ok(slit < 0.03, `${row} row: widest slit between the central incisors ${(slit * 10).toFixed(2)} mm (before: 0.7-1.4 mm)`);
      const notch = widestGap(p, right, lateral, lateral);
      // The crowns' layout leaves a hairline there (1.6: 0.06 mm before the centrals met); slid whole to the midline they left 0.58 mm.
      assert.ok(notch < 0.02, `${row} row: a central incisor's outer edge ${(notch * 10).toFixed(2)} mm clear of the lateral incisor beside it`);
    }
  });
}
