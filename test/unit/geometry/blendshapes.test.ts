import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MorphTarget, Vec3 } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { buildBlendshapes, blendshapeNames } from '../../../src/geometry/expressions/blendshapes.ts';
import { ARKIT_NAMES, MADE_ON, type ArkitName } from '../../../src/geometry/expressions/arkit.ts';
import { OCULUS_VISEMES, POLLY_VISEMES } from '../../../src/geometry/expressions/visemes.ts';
import { checkMesh, countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { PART_NAMES, type HeadTemplate, type MeshName } from '../../../src/geometry/template/types.ts';

const tpl = buildTemplate('1.6');
const neutral = (t: HeadTemplate) => ({ head: t.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, t.parts[p].positions])) });
const shapes = buildBlendshapes(tpl, neutral(tpl), ['expressions', 'visemes']);
const meshes: MeshName[] = ['head', ...PART_NAMES];

/** The mesh with shape `name` at weight 1. */
function posed(mesh: MeshName, name: string, weight = 1): Float32Array {
  const base = mesh === 'head' ? tpl.head.positions : tpl.parts[mesh].positions;
  const morph = shapes[mesh].find((m) => m.name === name)!;
  return base.map((x, i) => x + weight * morph.deltas[i]);
}
/** The shapes a shape is judged with, each at weight 1: itself, on the shape it is made for (mouthClose on jawOpen). */
const judgedWith = (name: string): string[] => {
  const on = MADE_ON[name as ArkitName];
  return on ? [on, name] : [name];
};
/** The mesh as shape `name` is judged (judgedWith). */
function judged(mesh: MeshName, name: string): Float32Array {
  const base = mesh === 'head' ? tpl.head.positions : tpl.parts[mesh].positions;
  const used = judgedWith(name).map((n) => shapes[mesh].find((m) => m.name === n)!.deltas);
  return base.map((x, i) => used.reduce((y, d) => y + d[i], x));
}
const at = (p: ArrayLike<number>, v: number): Vec3 => [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
const dist = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
/** Eye opening: upper to lower lid in the middle of the eye. */
const leftOpening = (p: ArrayLike<number>) => dist(at(p, 386), at(p, 374));
const rightOpening = (p: ArrayLike<number>) => dist(at(p, 159), at(p, 145));
const lipGap = (p: ArrayLike<number>) => p[3 * 13 + 1] - p[3 * 14 + 1];

/**
 * Upper contour above lower contour everywhere along an opening: each upper point is above the
 * lower contour at its own position across the face (lips or lids pass through each other otherwise).
 * With `over`, an upper point in front of the lower contour (a closed upper lid lying over the lower
 * one) does not count: it passes over the other lid, not through it (folds are checked on the mesh).
 */
function minimumGap(p: ArrayLike<number>, loop: readonly number[], over = false): number {
  const xs = loop.map((v) => p[3 * v]);
  const a = xs.indexOf(Math.min(...xs)), b = xs.indexOf(Math.max(...xs));
  const [i, j] = a < b ? [a, b] : [b, a];
  const one = loop.slice(i, j + 1), other = [...loop.slice(j), ...loop.slice(0, i + 1)];
  const meanY = (c: number[]) => c.reduce((s, v) => s + p[3 * v + 1], 0) / c.length;
  const [upper, lower] = meanY(one) > meanY(other) ? [one, other] : [other, one];
  /** The lower contour's height (k = 1) or depth (k = 2) at x. */
  const lowerAt = (x: number, k = 1) => {
    const pts = lower.map((v) => [p[3 * v], p[3 * v + k]]).sort((m, n) => m[0] - n[0]);
    for (let i = 1; i < pts.length; i++) if (x <= pts[i][0]) return pts[i - 1][1] + ((pts[i][1] - pts[i - 1][1]) * (x - pts[i - 1][0])) / (pts[i][0] - pts[i - 1][0] || 1);
    return pts[pts.length - 1][1];
  };
  const counted = upper.slice(1, -1).filter((v) => !over || p[3 * v + 2] <= lowerAt(p[3 * v], 2));
  return Math.min(Infinity, ...counted.map((v) => p[3 * v + 1] - lowerAt(p[3 * v])));
}

test('every mesh carries the same shapes in the same order: 52 ARKit, 15 Oculus and 17 Polly visemes', () => {
  const names = blendshapeNames(['expressions', 'visemes']);
  assert.equal(names.length, 52 + 15 + 17);
  for (const mesh of meshes) {
    assert.deepEqual(shapes[mesh].map((m: MorphTarget) => m.name), names, mesh);
    const size = (mesh === 'head' ? tpl.head : tpl.parts[mesh]).positions.length;
    for (const m of shapes[mesh]) assert.equal(m.deltas.length, size);
  }
  assert.deepEqual(names.slice(0, 52), [...ARKIT_NAMES]);
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length, 'no two names differ only by case');
  assert.ok(Object.keys(OCULUS_VISEMES).every((n) => n.startsWith('viseme_')));
  assert.deepEqual(Object.keys(POLLY_VISEMES).sort(), ['@', 'E', 'O', 'S', 'T', 'a', 'e', 'f', 'i', 'k', 'o', 'p', 'r', 's', 'sil', 't', 'u'].sort());
  assert.deepEqual(blendshapeNames(['visemes']), names.slice(52));
  assert.deepEqual(blendshapeNames(['expressions']), names.slice(0, 52));
});

test('every shape keeps the head valid and the parts out of it; only sil is the neutral face', () => {
  const seen = new Map<string, string>();
  for (const { name } of shapes.head) {
    const head = { ...tpl.head, positions: judged('head', name) };
    assert.equal(checkMesh(head).selfIntersections, 0, `${name}: head folds`);
    for (const part of PART_NAMES) assert.equal(countIntersectionsBetween(head, { ...tpl.parts[part], positions: judged(part, name) }), 0, `${name}: ${part} cuts the head`);
    const moved = meshes.some((m) => shapes[m].find((s) => s.name === name)!.deltas.some((d) => Math.abs(d) > 1e-3));
    assert.equal(moved, !name.endsWith('_sil'), `${name} moves something`);
    const key = meshes.map((m) => Array.from(shapes[m].find((s) => s.name === name)!.deltas.slice(0, 3000), (d) => d.toFixed(4)).join()).join('|');
    if (!name.startsWith('polly_')) assert.ok(!seen.has(key) || name.endsWith('_sil'), `${name} is the same as ${seen.get(key)}`);
    seen.set(key, name);
  }
});

test('no shape pushes the lips or the eyelids through each other', () => {
  for (const { name } of shapes.head) {
    const p = judged('head', name);
    assert.ok(minimumGap(p, tpl.loops.lipsInner) > -1e-3, `${name}: lips cross`);
    assert.ok(minimumGap(p, tpl.loops.leftEye, true) > 0, `${name}: left lids cross`);
    assert.ok(minimumGap(p, tpl.loops.rightEye, true) > 0, `${name}: right lids cross`);
  }
});

test('eyeBlinkLeft closes the left eye and leaves the right one; eyeBlinkRight the other way', () => {
  const n = tpl.head.positions;
  const left = posed('head', 'eyeBlinkLeft'), right = posed('head', 'eyeBlinkRight');
  assert.ok(leftOpening(left) < 0.25 * leftOpening(n), `left ${leftOpening(n)} -> ${leftOpening(left)}`);
  assert.ok(Math.abs(rightOpening(left) - rightOpening(n)) < 1e-4);
  assert.ok(rightOpening(right) < 0.25 * rightOpening(n));
  assert.ok(Math.abs(leftOpening(right) - leftOpening(n)) < 1e-4);
  // Half a blink half closes.
  const half = posed('head', 'eyeBlinkLeft', 0.5);
  assert.ok(leftOpening(half) < 0.75 * leftOpening(n) && leftOpening(half) > 0.35 * leftOpening(n));
  assert.ok(leftOpening(posed('head', 'eyeWideLeft')) > leftOpening(n) * 1.1);
  assert.ok(leftOpening(posed('head', 'eyeSquintLeft')) < leftOpening(n) * 0.9);
});

test('jawOpen opens the mouth, lowering the lower teeth and the tongue; the upper teeth stay', () => {
  const n = tpl.head.positions;
  const open = posed('head', 'jawOpen');
  assert.ok(lipGap(open) > lipGap(n) + 2, `lip gap ${lipGap(n)} -> ${lipGap(open)}`);
  assert.ok(dist(at(open, 10), at(n, 10)) < 1e-6, 'forehead still');
  const teeth = posed('teeth', 'jawOpen');
  const lower = new Set(tpl.lowerTeeth);
  for (let v = 0; v < teeth.length / 3; v++) {
    const dy = teeth[3 * v + 1] - tpl.parts.teeth.positions[3 * v + 1];
    assert.ok(lower.has(v) ? dy < -0.5 : dy === 0, `tooth vertex ${v}`);
  }
  assert.ok(posed('tongue', 'jawOpen')[1] < tpl.parts.tongue.positions[1] - 0.5);
  assert.ok(lipGap(posed('head', 'viseme_aa')) > lipGap(n) + 1, 'aa opens the jaw');
  assert.ok(lipGap(posed('head', 'polly_a')) > lipGap(n) + 1, 'Polly a opens the jaw');
});

test('visemes p/PP close the lips; u/ou round them; mouthClose closes jawOpen\'s lips without crossing them', () => {
  const n = tpl.head.positions;
  for (const name of ['viseme_PP', 'polly_p']) assert.ok(lipGap(posed('head', name)) < 0.15 * lipGap(n), `${name}: ${lipGap(posed('head', name))}`);
  const open = posed('head', 'jawOpen'), closed = judged('head', 'mouthClose');
  assert.ok(lipGap(closed) >= 0 && lipGap(closed) < 0.01 * lipGap(open), `mouthClose on jawOpen: ${lipGap(open)} -> ${lipGap(closed)}`);
  assert.ok(minimumGap(closed, tpl.loops.lipsInner) > -1e-3, 'mouthClose on jawOpen: the lips do not cross');
  // Made for jawOpen, alone it pushes the lips into each other (as in Apple's own reference).
  assert.ok(lipGap(posed('head', 'mouthClose')) < 0, 'mouthClose alone');
  const width = (p: ArrayLike<number>) => dist(at(p, 61), at(p, 291));
  for (const name of ['viseme_ou', 'polly_u', 'mouthPucker']) assert.ok(width(posed('head', name)) < 0.85 * width(n), `${name} narrows the mouth`);
  assert.ok(width(posed('head', 'viseme_E')) > width(n), 'E widens it');
});

test('mouthClose on jawOpen holds the lips whole: their red keeps its height, the skin below stretches', () => {
  const closed = judged('head', 'mouthClose');
  // Outer to inner contour at the lips' centre and half way to each corner, upper lip first.
  for (const [outer, inner] of [[0, 13], [17, 14], [84, 87], [314, 317]]) {
    const before = dist(at(tpl.head.positions, outer), at(tpl.head.positions, inner)), after = dist(at(closed, outer), at(closed, inner));
    assert.ok(Math.abs(after / before - 1) < 0.05, `lip height ${outer}-${inner}: ${before.toFixed(3)} -> ${after.toFixed(3)} cm`);
  }
  // The jaw opened all the same: the chin is further from the lower lip.
  assert.ok(dist(at(closed, 17), at(closed, 152)) > 1.3 * dist(at(tpl.head.positions, 17), at(tpl.head.positions, 152)));
});

test('the sided mouth and brow shapes move their own side', () => {
  const n = tpl.head.positions;
  const rise = (p: ArrayLike<number>, v: number) => p[3 * v + 1] - n[3 * v + 1];
  const smileLeft = posed('head', 'mouthSmileLeft');
  assert.ok(rise(smileLeft, 291) > 0.4, 'left corner up');
  assert.ok(Math.abs(rise(smileLeft, 61)) < 0.05, 'right corner still');
  const smileRight = posed('head', 'mouthSmileRight');
  assert.ok(rise(smileRight, 61) > 0.4 && Math.abs(rise(smileRight, 291)) < 0.05);
  assert.ok(rise(posed('head', 'mouthFrownLeft'), 291) < -0.3);
  const inner = posed('head', 'browInnerUp');
  assert.ok(rise(inner, 55) > 0.3 && rise(inner, 285) > 0.3, 'both inner brows up');
  assert.ok(rise(posed('head', 'browDownLeft'), 282) < -0.2 && Math.abs(rise(posed('head', 'browDownLeft'), 52)) < 0.01);
  assert.ok(rise(posed('head', 'browOuterUpRight'), 70) > 0.3);
  assert.ok(posed('head', 'jawLeft')[3 * 152] > n[3 * 152] + 0.15, 'jawLeft moves the chin to the subject left (+X)');
  assert.ok(posed('head', 'mouthLeft')[3 * 13] > n[3 * 13] + 0.3);
});

test('eyeLook shapes turn only their eyeball, about its centre, the right way', () => {
  const front = (mesh: 'eyeLeft' | 'eyeRight', name: string) => at(posed(mesh, name), 0);
  const rest = (mesh: 'eyeLeft' | 'eyeRight') => at(tpl.parts[mesh].positions, 0);
  assert.ok(front('eyeLeft', 'eyeLookUpLeft')[1] > rest('eyeLeft')[1] + 0.3);
  assert.ok(front('eyeLeft', 'eyeLookDownLeft')[1] < rest('eyeLeft')[1] - 0.3);
  // In is towards the nose: -X for the left eye, +X for the right one.
  assert.ok(front('eyeLeft', 'eyeLookInLeft')[0] < rest('eyeLeft')[0] - 0.3);
  assert.ok(front('eyeLeft', 'eyeLookOutLeft')[0] > rest('eyeLeft')[0] + 0.3);
  assert.ok(front('eyeRight', 'eyeLookInRight')[0] > rest('eyeRight')[0] + 0.3);
  assert.deepEqual(posed('eyeRight', 'eyeLookUpLeft'), tpl.parts.eyeRight.positions);
  const eye = posed('eyeLeft', 'eyeLookOutLeft');
  for (let v = 0; v < eye.length / 3; v++) assert.ok(Math.abs(dist(at(eye, v), tpl.eyes.left.centre) - tpl.eyes.left.radius) < 1e-3);
  const tongue = tpl.parts.tongue.positions;
  let tip = 0;
  for (let v = 0; v < tongue.length / 3; v++) if (tongue[3 * v + 2] > tongue[3 * tip + 2]) tip = v;
  assert.ok(posed('tongue', 'tongueOut')[3 * tip + 2] > tpl.head.positions[3 * 13 + 2] + 0.5, 'the tongue comes out past the lips');
});

test('shapes are computed on the fitted geometry, not copied from the template', () => {
  // A bigger face (x1.2) and one with a wider mouth give other deltas, in proportion.
  const big = (p: Float32Array) => p.map((x) => x * 1.2);
  const fitted = { head: big(tpl.head.positions), parts: Object.fromEntries(PART_NAMES.map((p) => [p, big(tpl.parts[p].positions)])) };
  const scaled = buildBlendshapes(tpl, fitted, ['expressions']);
  const jaw = (s: typeof shapes) => s.head.find((m) => m.name === 'jawOpen')!.deltas;
  const ratio = jaw(scaled)[3 * 152 + 1] / jaw(shapes)[3 * 152 + 1];
  assert.ok(Math.abs(ratio - 1.2) < 1e-3, `jawOpen scales with the head (${ratio})`);
  const wide = tpl.head.positions.map((x, i) => (i % 3 === 0 && tpl.head.positions[i + 1] < -3 && tpl.head.positions[i + 1] > -6 ? x * 1.3 : x));
  const widened = buildBlendshapes(tpl, { ...neutral(tpl), head: wide }, ['expressions']);
  const smile = (s: typeof shapes) => s.head.find((m) => m.name === 'mouthSmileLeft')!.deltas[3 * 291 + 1];
  assert.ok(smile(widened) > smile(shapes) * 1.1, 'a wider mouth smiles wider');
});

test('2.0: the shapes that move lids, jaw and lips the most keep the detailed head valid', () => {
  const detailed = buildTemplate('2.0');
  const risky = ['eyeBlinkLeft', 'eyeBlinkRight', 'eyeSquintLeft', 'eyeWideRight', 'jawOpen', 'jawForward', 'jawLeft', 'jawRight', 'mouthClose', 'mouthPucker', 'tongueOut', 'browDownLeft', 'viseme_PP', 'viseme_aa'];
  const all = buildBlendshapes(detailed, neutral(detailed), ['expressions', 'visemes']);
  for (const name of risky) {
    // Each at weight 1, mouthClose on jawOpen: the pose it is made for.
    const used = judgedWith(name).map((n) => all.head.findIndex((m) => m.name === n));
    const move = (base: Float32Array, mesh: MeshName) => base.map((x, k) => used.reduce((y, i) => y + all[mesh][i].deltas[k], x));
    const head = { ...detailed.head, positions: move(detailed.head.positions, 'head') };
    assert.equal(checkMesh(head).selfIntersections, 0, `${name}: head folds`);
    for (const part of PART_NAMES) assert.equal(countIntersectionsBetween(head, { ...detailed.parts[part], positions: move(detailed.parts[part].positions, part) }), 0, `${name}: ${part}`);
    assert.ok(minimumGap(head.positions, detailed.loops.lipsInner) > -1e-3 && minimumGap(head.positions, detailed.loops.leftEye, true) > 0, `${name}: crossing`);
  }
});

test('fitted geometry of another topology is refused', () => {
  const other = buildTemplate('2.0');
  assert.throws(() => buildBlendshapes(tpl, neutral(other), ['expressions']), RangeError);
});

test('the deltas are made in the one buffer asked for, each distinct array once, the same numbers', () => {
  const sizes: number[] = [];
  const inShared = buildBlendshapes(tpl, neutral(tpl), ['expressions', 'visemes'], (bytes) => {
    sizes.push(bytes);
    return new SharedArrayBuffer(bytes);
  });
  assert.equal(sizes.length, 1);
  const all = meshes.flatMap((mesh) => inShared[mesh]);
  const memory = all[0].deltas.buffer;
  assert.ok(memory instanceof SharedArrayBuffer);
  assert.ok(all.every((t) => t.deltas.buffer === memory), 'every mesh and shape in that buffer');
  assert.equal([...new Set(all.map((t) => t.deltas))].reduce((n, d) => n + d.byteLength, 0), memory.byteLength, 'filled exactly');
  for (const mesh of meshes) {
    inShared[mesh].forEach((t, k) => {
      assert.equal(t.name, shapes[mesh][k].name);
      assert.deepEqual(t.deltas, shapes[mesh][k].deltas, `${mesh} ${t.name}`);
      // Visemes of one recipe share their array, as without the buffer.
      const same = shapes[mesh].findIndex((u) => u.deltas === shapes[mesh][k].deltas);
      assert.equal(inShared[mesh].findIndex((u) => u.deltas === t.deltas), same, `${mesh} ${t.name}`);
    });
  }
});
