import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeLidStreaks } from '../../../src/geometry/texture/lid-streaks.ts';
import { blinkReach } from '../../../src/geometry/expressions/blink-reach.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { upperAndLower } from '../../../src/geometry/expressions/primitives.ts';
import { templateFrame } from '../../../src/geometry/expressions/frame.ts';

const SIZE = 1024;
const SKIN = [200, 150, 130], LASH = [40, 30, 25], PALE = [245, 225, 215], LINER = [20, 15, 15];

/**
 * One quad over the atlas's middle (texels 256-767 both ways), the blink's reach 1 on its top edge and 0 on its bottom:
 * the lid is its upper part (reach over LID_FROM), from the top down to about row 757.
 */
function lidAtlas(paint: (x: number, y: number) => number[]) {
  const uvs = new Float32Array([0.25, 0.75, 0.75, 0.75, 0.75, 0.25, 0.25, 0.25]);
  const indices = new Uint32Array([0, 1, 2, 0, 2, 3]);
  // v up: the top edge (v 0.75) is atlas row 64.
  const reach = new Float32Array([1, 1, 0, 0]);
  const rgba = new Uint8Array(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) rgba.set([...paint(x, y), 255], (y * SIZE + x) * 4);
  return { rgba, size: SIZE, uvs, indices, reach };
}
const at = (rgba: Uint8Array, x: number, y: number) => Array.from(rgba.subarray((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 3));
const luma = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

test('lashes crossing the lid (thin dark and pale lines from the margin up) go; a liner along it stays', () => {
  // Lashes: 1-texel lines every 4 texels, alternately dark and pale; the liner: rows 400-405 across the lid.
  const paint = (x: number, y: number) => (y >= 400 && y <= 405 ? LINER : x % 4 === 0 ? LASH : x % 4 === 2 ? PALE : SKIN);
  const input = lidAtlas(paint);
  removeLidStreaks(input);
  // Along the lid the lightness spreads at most a tenth of the lashes' contrast.
  for (const y of [300, 350, 450]) {
    const row = Array.from({ length: 40 }, (_, k) => luma(at(input.rgba, 400 + k, y)));
    const spread = Math.max(...row) - Math.min(...row);
    assert.ok(spread < 0.1 * (luma(PALE) - luma(LASH)), `row ${y}: lightness along the lid spreads ${spread.toFixed(1)} (the lashes ${(luma(PALE) - luma(LASH)).toFixed(1)})`);
    // The lashes' darkness stays as a tone: the row's mean is the painted one's.
    const mean = row.reduce((s, l) => s + l, 0) / row.length;
    const painted = [LASH, SKIN, PALE, SKIN].reduce((s, c) => s + luma(c), 0) / 4;
    assert.ok(Math.abs(mean - painted) < 3, `row ${y}: mean ${mean.toFixed(1)} against ${painted.toFixed(1)}`);
  }
  for (const x of [400, 402, 512, 600]) assert.deepEqual(at(input.rgba, x, 403), LINER, `liner at ${x}`);
  // Outside the quad, and below the lid (the reach under LID_FROM), nothing changes.
  assert.deepEqual(at(input.rgba, 200, 300), LASH);
  assert.deepEqual(at(input.rgba, 400, 765), paint(400, 765));
});

test('a lid without lashes is left as it is, broad changes along it too', () => {
  // Lighter towards the right over the whole lid (the photo's light on it): no texel is a median's outlier.
  const paint = (x: number) => SKIN.map((c) => Math.min(255, c + Math.floor(x / 8)));
  const input = lidAtlas(paint);
  const before = input.rgba.slice();
  removeLidStreaks(input);
  let changed = 0;
  for (let i = 0; i < before.length; i++) if (Math.abs(before[i] - input.rgba[i]) > 2) changed++;
  assert.equal(changed, 0);
});

for (const version of ['1.6', '2.0'] as const) {
  test(`template ${version}: the blink reaches the upper lids' skin, not the lower lids or the brows`, () => {
    const template = buildTemplate(version);
    const reach = blinkReach(template);
    const frame = templateFrame(template);
    for (const loop of [template.loops.leftEye, template.loops.rightEye]) {
      const { upper, lower } = upperAndLower(frame, loop);
      // The upper contour's middle third moves the most; the lower lid does not move down.
      const middle = upper.slice(Math.floor(upper.length / 3), Math.ceil((2 * upper.length) / 3));
      assert.ok(Math.min(...middle.map((v) => reach[v])) > 0.5, `upper middle ${middle.map((v) => reach[v].toFixed(2))}`);
      assert.deepEqual(lower.map((v) => reach[v]), lower.map(() => 0), 'the lower lid');
    }
    // The brows (their landmarks) and the forehead stay out of it.
    for (const v of [105, 334, 66, 296, 151, 10]) assert.equal(reach[v], 0, `landmark ${v}`);
  });
}
