/**
 * Issue 19: the expression fit. On the template posed with known ARKit weights and moved by a similarity,
 * the fit finds those weights (less the ridge's shrinkage) and nothing else, and taking them out gives back
 * the template's face; the template at rest reads as no expression. The neutral's lips are closed along
 * the inner contour (the template's own part by 5 mm).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeMouth, expressionBasis, expressionMotion, fitExpression, describeExpression } from '../../../src/geometry/fit/fit-expression.ts';
import { quatToMat3 } from '../../../src/geometry/fit/similarity.ts';
import { applySimilarity } from '../../../src/geometry/fit/fit-head.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { vertexNeighbours } from '../../../src/geometry/mesh/adjacency.ts';

const tpl = loadTemplateView('2.0');
const template = tpl.meshes[0].geometry.positions;
const basis = expressionBasis(tpl.source);
const FACE = 468;
const norm = Math.hypot(0.98, 0.1, -0.15, 0.05);
const pose = { scale: 1.12, rotation: quatToMat3(0.98 / norm, 0.1 / norm, -0.15 / norm, 0.05 / norm), translation: [1.5, -2, 40] as [number, number, number] };

/** 478 landmarks: the template's face posed with these weights, moved by `pose` (irises: copies of face points). */
function posedLandmarks(weights: Record<string, number>): Float32Array {
  const face = template.slice(0, FACE * 3);
  basis.names.forEach((name, s) => {
    const w = weights[name] ?? 0;
    for (let i = 0; i < face.length; i++) face[i] += w * basis.deltas[s][i];
  });
  const out = new Float32Array(478 * 3);
  for (let v = 0; v < 478; v++) out.set(applySimilarity(pose, ...(Array.from(face.subarray((v % FACE) * 3, (v % FACE) * 3 + 3)) as [number, number, number])), v * 3);
  return out;
}

test('the template at rest shows no expression', () => {
  const fit = fitExpression(basis, template, posedLandmarks({}));
  assert.ok(Object.values(fit.expression).every((w) => w < 0.01), describeExpression(fit.expression));
  assert.ok(Math.abs(fit.pose.scale - pose.scale) < 1e-3);
});

const truth = { jawOpen: 0.3, mouthSmileLeft: 0.7, mouthSmileRight: 0.6, browInnerUp: 0.5, eyeBlinkLeft: 0.4 };
const rms = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < FACE * 3; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s / FACE);
};

test('without the ridge, known weights on the posed template are found and taken out', () => {
  const fit = fitExpression(basis, template, posedLandmarks(truth), { expression: 0, make: 0 });
  // Some shapes nearly share their landmark motion (mouthLowerDown with jawOpen and the lip shapes):
  // a little weight may go to a neighbour.
  for (const [name, w] of Object.entries(fit.expression)) assert.ok(Math.abs(w - (truth[name as keyof typeof truth] ?? 0)) < 0.15, `${name}: ${w.toFixed(3)}`);
  const rest = posedLandmarks({});
  assert.ok(rms(fit.neutral, rest) < 0.1 * rms(posedLandmarks(truth), rest), `rms ${rms(fit.neutral, rest).toFixed(4)}`);
});

test('with the ridge, the weights shrink (small shapes most) but the strongest shapes lead and most of the expression goes', () => {
  const lm = posedLandmarks(truth);
  const fit = fitExpression(basis, template, lm);
  for (const [name, w] of Object.entries(fit.expression)) {
    const want = truth[name as keyof typeof truth] ?? 0;
    assert.ok(want > 0 ? w >= 0.2 * want && w <= want + 0.02 : w < 0.15, `${name}: ${w.toFixed(3)}, posed with ${want}`);
  }
  assert.match(describeExpression(fit.expression), /^mouthSmileLeft:0\.\d\d,mouthSmileRight:0\.\d\d,jawOpen/);
  const rest = posedLandmarks({});
  assert.ok(rms(fit.neutral, rest) < 0.5 * rms(lm, rest), `rms ${rms(fit.neutral, rest).toFixed(3)} cm left of ${rms(lm, rest).toFixed(3)}`);
});

test('the closed neutral mouth meets along the inner lip contour, corners aside', () => {
  const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions]));
  const closed = closeMouth(tpl.source, { head: template, parts });
  const loop = tpl.source.loops.lipsInner;
  // The inner loop runs from one corner along the upper lip to the other corner, then back along the lower lip.
  const x = (p: ArrayLike<number>, v: number) => p[v * 3], y = (p: ArrayLike<number>, v: number) => p[v * 3 + 1];
  const xs = loop.map((v) => x(template, v));
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const [a, b] = [xs.indexOf(lo), xs.indexOf(hi)].sort((m, n) => m - n);
  const chains = [loop.slice(a, b + 1), [...loop.slice(b), ...loop.slice(0, a + 1)]];
  // A coordinate (1 height, 2 depth) along a chain, interpolated at x = `at`.
  const along = (p: ArrayLike<number>, chain: number[], at: number, k: 1 | 2) => {
    const s = [...chain].sort((m, n) => x(p, m) - x(p, n));
    const i = s.findIndex((v) => x(p, v) >= at);
    const [v0, v1] = [s[Math.max(0, i - 1)], s[i]];
    const t = (at - x(p, v0)) / (x(p, v1) - x(p, v0) || 1);
    return p[v0 * 3 + k] + t * (p[v1 * 3 + k] - p[v0 * 3 + k]);
  };
  const height = (p: ArrayLike<number>, chain: number[], at: number) => along(p, chain, at, 1);
  const gapAt = (p: ArrayLike<number>, at: number) => Math.abs(height(p, chains[0], at) - height(p, chains[1], at));
  // Across the middle 80 % of the mouth (right at the corners the seal fades out: closing them folds the skin).
  const places = Array.from({ length: 13 }, (_, i) => lo + (0.1 + (0.8 * i) / 12) * (hi - lo));
  assert.ok(Math.min(...places.map((at) => gapAt(template, at))) > 0.2, 'the template parts its lips at rest');
  for (const at of places) assert.ok(gapAt(closed, at) < 0.03, `${gapAt(closed, at).toFixed(3)} cm apart at x ${at.toFixed(2)}`);
  // At the mesh's resolution too: the 2.0 vertex refined between two contour landmarks (the one joined to
  // both) meets the other lip, in height and in depth (the preview looks through a slit in depth onto the teeth).
  const neighbours = vertexNeighbours(template.length / 3, tpl.meshes[0].geometry.indices);
  const z = (p: ArrayLike<number>, v: number) => p[v * 3 + 2];
  const depthAt = (p: ArrayLike<number>, chain: number[], at: number) => along(p, chain, at, 2);
  const between = (a: number, b: number) => {
    const mid = neighbours[a].filter((v) => neighbours[b].includes(v));
    assert.equal(mid.length, 1, `one vertex between ${a} and ${b}`);
    return mid[0];
  };
  const fine = chains.map((chain) => chain.flatMap((a, k) => (k === 0 ? [a] : [between(chain[k - 1], a), a])));
  let refined = 0;
  fine.forEach((chain, c) => {
    for (let k = 1; k < chain.length; k += 2) {
      const v = chain[k], at = x(closed, v);
      if (at < places[0] || at > places[places.length - 1]) continue;
      refined++;
      const gap = Math.abs(y(closed, v) - height(closed, fine[1 - c], at)), depth = Math.abs(z(closed, v) - depthAt(closed, fine[1 - c], at));
      assert.ok(gap < 0.03 && depth < 0.05, `refined vertex ${v}: ${gap.toFixed(3)} cm from the other lip in height, ${depth.toFixed(3)} in depth`);
    }
  });
  assert.ok(refined >= 10, `${refined} refined vertices checked`);
});

/** A corner's height above the inner lips' centre (template space, cm). */
const cornerHeight = (p: ArrayLike<number>, corner: number) => p[corner * 3 + 1] - (p[13 * 3 + 1] + p[14 * 3 + 1]) / 2;
/** The neutral landmarks carried back into template space by the fitted pose. */
function inTemplate(fit: ReturnType<typeof fitExpression>): Float32Array {
  const r = fit.pose.rotation, t = fit.pose.translation;
  const out = new Float32Array(FACE * 3);
  for (let i = 0; i < FACE; i++) {
    const d = [0, 1, 2].map((k) => fit.neutral[i * 3 + k] - t[k]);
    // The rotation's transpose undoes it.
    for (let k = 0; k < 3; k++) out[i * 3 + k] = (r[k] * d[0] + r[3 + k] * d[1] + r[6 + k] * d[2]) / fit.pose.scale;
  }
  return out;
}

test('the smile the ridge would leave is taken out: the neutral corners stand no higher than the template\'s', () => {
  for (const smile of [0.25, 0.5]) {
    const fit = fitExpression(basis, template, posedLandmarks({ mouthSmileLeft: smile, mouthSmileRight: smile }));
    const neutral = inTemplate(fit);
    for (const corner of [61, 291]) {
      const over = cornerHeight(neutral, corner) - cornerHeight(template, corner);
      assert.ok(over < 0.01, `smile ${smile}: corner ${corner} ${over.toFixed(3)} cm above the template's`);
    }
    assert.ok(fit.expression.mouthSmileLeft <= smile + 0.05 && fit.expression.mouthSmileRight <= smile + 0.05, describeExpression(fit.expression));
  }
  // Corners lower than the template's (a frown) are the face's own: no smile is added.
  const frown = fitExpression(basis, template, posedLandmarks({ mouthFrownLeft: 0.5, mouthFrownRight: 0.5 }));
  assert.ok(frown.expression.mouthSmileLeft < 0.01 && frown.expression.mouthSmileRight < 0.01, describeExpression(frown.expression));
});

test("the expression's motion: how far the named shapes' fitted weights move each face point, and no other shape's", () => {
  const weights = new Float64Array(basis.names.length);
  const smile = basis.names.indexOf('mouthSmileLeft'), jaw = basis.names.indexOf('jawOpen');
  weights[smile] = 0.5;
  weights[jaw] = 1;
  const motion = expressionMotion(basis, weights, new Set(['mouthSmileLeft']));
  const d = basis.deltas[smile];
  for (const i of [61, 291, 13, 1]) assert.ok(Math.abs(motion[i] - 0.5 * Math.hypot(d[i * 3], d[i * 3 + 1], d[i * 3 + 2])) < 1e-5);
  assert.ok(Math.max(...motion) > 0.2);
  assert.equal(Math.max(...expressionMotion(basis, weights, new Set(['mouthFrownLeft']))), 0);
});
