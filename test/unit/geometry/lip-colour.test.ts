/**
 * synthesiseLips on a drawn mouth: lips between two ellipses, teeth in the opening, a pixel-wide paler
 * edge where the teeth blend into the lips, a gloss spot on the lower lip. The teeth and the lip pixels at their edge take the lip colour, the gloss comes down to the
 * knee and keeps the lip's hue, plain lip and skin stay as they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesiseLips } from '../../../src/geometry/texture/lip-colour.ts';
import type { Rgb, RgbImage } from '../../../src/geometry/texture/rgb-image.ts';
import { insidePolygon } from '../../../src/geometry/spatial/inside-polygon.ts';

type Point = [number, number];
const W = 120, H = 80, CX = 60, CY = 40;
const ellipse = (rx: number, ry: number): Point[] =>
  Array.from({ length: 48 }, (_, k): Point => [CX + rx * Math.cos((2 * Math.PI * k) / 48), CY + ry * Math.sin((2 * Math.PI * k) / 48)]);
const outer = ellipse(40, 20), inner = ellipse(30, 5), edge = ellipse(31.2, 6.2);
const SKIN: Rgb = [220, 170, 150], LIP: Rgb = [190, 90, 95], TEETH: Rgb = [235, 230, 220], GLOSS: Rgb = [250, 215, 215];
/** Paler than the lips, but too saturated for teeth: only its place next to the teeth tells it. */
const EDGE: Rgb = [205, 150, 150];
const GLOSS_AT: Point = [60, 52];

function mouth(): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p: Point = [x + 0.5, y + 0.5];
      const c = insidePolygon(inner, ...p) ? TEETH : insidePolygon(edge, ...p) ? EDGE : Math.hypot(x - GLOSS_AT[0], y - GLOSS_AT[1]) <= 2 ? GLOSS : insidePolygon(outer, ...p) ? LIP : SKIN;
      data.set(c, (y * W + x) * 3);
    }
  }
  return { width: W, height: H, data };
}

const at = (img: RgbImage, x: number, y: number): Rgb => Array.from(img.data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)) as Rgb;
const luma = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

test('the teeth and the lip pixel at their edge take the lip colour; plain lip and skin stay', () => {
  const photo = mouth();
  const { photo: out, colour } = synthesiseLips(photo, outer, inner);
  assert.deepEqual(colour, LIP);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const was = at(photo, x, y).join();
      if (was === TEETH.join() || was === EDGE.join()) assert.deepEqual(at(out, x, y), LIP, `${was} left at ${x},${y}`);
    }
  }
  assert.deepEqual(at(photo, CX, 34), EDGE);
  assert.deepEqual(at(out, CX, 25), LIP);
  assert.deepEqual(at(out, 5, 5), SKIN);
});

test('a gloss spot on the lip comes down to the knee and keeps the lip\'s hue', () => {
  const { photo: out } = synthesiseLips(mouth(), outer, inner);
  const spot = at(out, GLOSS_AT[0], GLOSS_AT[1]);
  assert.ok(luma(spot) < luma(GLOSS) - 20, `gloss ${spot.join()}`);
  assert.ok(luma(spot) >= luma(LIP), `gloss ${spot.join()} darker than the lip`);
  // Less white in it: more saturated than the gloss, red above green and blue as the lip.
  const saturation = (c: Rgb) => (Math.max(...c) - Math.min(...c)) / Math.max(...c);
  assert.ok(saturation(spot) > saturation(GLOSS) + 0.1, `gloss ${spot.join()}`);
  assert.ok(spot[0] > spot[1] && spot[0] > spot[2]);
});
