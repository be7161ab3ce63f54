/**
 * The eyes' texture (issue 20 item 3): an iris that holds up close. Its fibres are smooth, its edges (the pupil, the
 * limbal ring, the white) soft, and its mean shade the one the iris colour's measure was tuned with. The wedge
 * pattern before it stepped by up to 180 of 255 levels between neighbouring texels of a grey iris: its 64 fibres,
 * its collarette and its limbal ring were hard edges, and close up they read as blocks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bakeEyeTexture, SCLERA } from '../../../src/geometry/texture/bake-parts.ts';
import { EYE_TEXTURE_SIZE } from '../../../src/pipeline/part-textures.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';

const iris = loadTemplateView('2.0').irisUv;
const size = EYE_TEXTURE_SIZE;
const grey = 200;
const image = bakeEyeTexture(size, iris, [grey, grey, grey]);
const pupil = iris.pupilRadius / iris.radius;
/** Each texel's distance from the iris's centre over its radius, and its shade (red channel over the iris colour). */
const texels = Array.from({ length: size * size }, (_, i) => {
  const [x, y] = [i % size, Math.floor(i / size)];
  const d = Math.hypot((x + 0.5) / size - iris.center[0], 1 - (y + 0.5) / size - iris.center[1]) / iris.radius;
  return { d, angle: Math.atan2(1 - (y + 0.5) / size - iris.center[1], (x + 0.5) / size - iris.center[0]), shade: image[4 * i] / grey };
});
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

test('the iris spans 256 texels and keeps the mean shade the iris colour was measured with', () => {
  assert.ok(2 * iris.radius * size >= 256);
  const shade = mean(texels.filter((t) => t.d >= pupil && t.d < 1).map((t) => t.shade));
  assert.ok(Math.abs(shade - 0.802) < 0.01, `mean shade ${shade.toFixed(3)}`);
});

test('neighbouring texels differ by little anywhere: no hard fibre, ring or pupil edge', () => {
  let worst = 0;
  for (let y = 0; y < size; y++) for (let x = 0; x + 1 < size; x++) for (const [a, b] of [[y * size + x, y * size + x + 1], [y * size + x, Math.min(size - 1, y + 1) * size + x]]) worst = Math.max(worst, Math.abs(image[4 * a] - image[4 * b]));
  // The largest is at the pupil's edge, from the iris to the pupil over four texels (66 of 255); the fibres' and the
  // limbal ring's up to 38.
  assert.ok(worst <= 72, `largest step between neighbours ${worst} of 255`);
});

test('the iris has radial fibres, a darker limbal ring and a pupil', () => {
  const onCircle = (d: number) => texels.filter((t) => Math.abs(t.d - d) < 0.01).sort((a, b) => a.angle - b.angle).map((t) => t.shade);
  const middle = onCircle(0.5);
  const spread = Math.sqrt(mean(middle.map((s) => (s - mean(middle)) ** 2)));
  assert.ok(spread > 0.08, `shade along the middle of the iris varies by ${spread.toFixed(3)}`);
  assert.ok(mean(onCircle(0.96)) < 0.6 * mean(middle), `limbal ring ${mean(onCircle(0.96)).toFixed(2)} against ${mean(middle).toFixed(2)}`);
  assert.ok(Math.max(...texels.filter((t) => t.d < pupil * 0.8).map((t) => t.shade)) < 0.1);
  // Past the iris's soft edge, the eye's white as it is set (bake-parts.ts).
  assert.ok(texels.filter((t) => t.d > 1.1).every((t) => Math.abs(t.shade * grey - SCLERA[0]) < 3), 'the white');
});
