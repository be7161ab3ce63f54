import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourClusters, colourFeatureInto, cost, distance2, fitColourMixture, fitColourModel, type ColourFeature } from '../../../src/pipeline/hair/colour-model.ts';
import { faceFrame, fromFace, toFace } from '../../../src/pipeline/hair/face-frame.ts';

function feature(r: number, g: number, b: number): ColourFeature {
  const out = new Float32Array(3);
  colourFeatureInto(out, 0, r, g, b);
  return [out[0], out[1], out[2]];
}

/** Deterministic jitter around a colour, with shading: the same material lit more or less. */
function samples(rgb: [number, number, number], n: number, seed: number): ColourFeature[] {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
  return Array.from({ length: n }, () => {
    const shade = 1 + 0.3 * rand();
    return feature(...(rgb.map((v) => Math.min(255, Math.max(0, v * shade + 6 * rand()))) as [number, number, number]));
  });
}

test('a colour model fitted on skin with a few stray hair pixels keeps to the skin', () => {
  const skin = samples([200, 150, 120], 200, 1);
  const strays = samples([40, 30, 25], 20, 2);
  const model = fitColourModel([...skin, ...strays])!;
  assert.ok(distance2(model, feature(205, 152, 118)) < 16, 'a skin colour is inside');
  assert.ok(distance2(model, feature(40, 30, 25)) > 40, 'the stray dark colour is far outside (the gate is 16.3)');
  assert.equal(fitColourModel(skin.slice(0, 5)), undefined, 'too few samples give no model');
});

test('shading moves a colour less than a change of hue does', () => {
  const model = fitColourModel(samples([200, 150, 120], 200, 3))!;
  assert.ok(distance2(model, feature(150, 112, 90)) < distance2(model, feature(150, 150, 150)));
});

test('a two-coloured region gets a model per colour', () => {
  const models = fitColourMixture([...samples([30, 30, 35], 150, 4), ...samples([220, 190, 80], 150, 5)], 2);
  assert.equal(models.length, 2);
  const best = (f: ColourFeature) => models.reduce((a, m, i) => (cost(m, f) < cost(models[a], f) ? i : a), 0);
  assert.notEqual(best(feature(30, 30, 35)), best(feature(220, 190, 80)));
  for (const f of [feature(30, 30, 35), feature(220, 190, 80)]) assert.ok(Math.min(...models.map((m) => distance2(m, f))) < 16);
});

test('the face frame: chin at t 0, top of the face at t 1, cheeks at s -0.5 and 0.5, whatever the roll', () => {
  for (const roll of [0, 0.4]) {
    const lm = new Float32Array(478 * 3);
    const put = (i: number, x: number, y: number) => {
      // Rotate about (100, 100) by the roll.
      const [dx, dy] = [x - 100, y - 100];
      lm.set([100 + dx * Math.cos(roll) - dy * Math.sin(roll), 100 + dx * Math.sin(roll) + dy * Math.cos(roll), 0], i * 3);
    };
    put(152, 100, 180); // chin
    put(10, 100, 20); // top of the face mesh
    put(234, 40, 100);
    put(454, 160, 100);
    put(33, 60, 80);
    put(263, 140, 80);
    const f = faceFrame(lm);
    const at = (i: number) => toFace(f, lm[i * 3], lm[i * 3 + 1]);
    assert.ok(Math.abs(at(152)[1]) < 1e-6 && Math.abs(at(10)[1] - 1) < 1e-6);
    assert.ok(Math.abs(at(234)[0] + 0.5) < 1e-6 && Math.abs(at(454)[0] - 0.5) < 1e-6);
    const [x, y] = fromFace(f, 0.3, 1.4);
    const [s, t] = toFace(f, x, y);
    assert.ok(Math.abs(s - 0.3) < 1e-9 && Math.abs(t - 1.4) < 1e-9);
  }
});

test('colour clusters come largest first: the main colour of a region with an accessory in it', () => {
  const hair = samples([200, 180, 150], 240, 6);
  const band = samples([20, 20, 25], 60, 7);
  const all = [...band, ...hair];
  const clusters = colourClusters(all, 2);
  assert.equal(clusters.length, 2);
  assert.equal(clusters[0].length, 240);
  assert.ok(clusters[0].every((i) => i >= band.length), 'the largest cluster is the hair');
});
