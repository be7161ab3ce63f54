import { test } from 'node:test';
import assert from 'node:assert/strict';
import { easeExpressionCreases, type CreaseEasing } from '../../../src/geometry/texture/expression-creases.ts';

const W = 160, H = 120;
const SKIN = [200, 160, 140], CREASE = [150, 105, 95], BEARD = [60, 45, 40];
/** 20 px to the centimetre: a crease 3 px wide is 1.5 mm, a spot 5 px across is a 2.5 mm freckle. */
const PX_PER_CM = 20;
const onLine = (x: number, y: number) => x >= 30 && x < 70 && Math.abs(y - (40 + (x - 30) * 0.5)) < 1.5;
const onSpot = (x: number, y: number) => Math.hypot(x - 110, y - 40) < 2.5;

function photo(paint: (x: number, y: number) => number[] | undefined) {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.set(paint(x, y) ?? SKIN, (y * W + x) * 3);
  return { width: W, height: H, data };
}

/** Face points on a 10 px grid, all moved `motion` cm. */
function easing(motion: number, extra: Partial<CreaseEasing> = {}): CreaseEasing {
  const pts: number[] = [];
  for (let y = 5; y < H; y += 10) for (let x = 5; x < W; x += 10) pts.push(x, y);
  return { points: new Float32Array(pts), motion: new Float32Array(pts.length / 2).fill(motion), pixelsPerCm: PX_PER_CM, skin: SKIN as [number, number, number], ...extra };
}
const at = (img: { data: Uint8Array }, x: number, y: number) => Array.from(img.data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));
/** How much of the crease's darkness (against the skin, in green) is left at a pixel. */
const darknessLeft = (img: { data: Uint8Array }, x: number, y: number) => (SKIN[1] - at(img, x, y)[1]) / (SKIN[1] - CREASE[1]);

test('where an expression moved the skin, a dark line takes the skin around it; a dark spot stays', () => {
  const img = photo((x, y) => (onLine(x, y) || onSpot(x, y) ? CREASE : undefined));
  const eased = easeExpressionCreases(img, easing(0.6));
  // The line's middle (x 50, y 50).
  assert.ok(darknessLeft(eased, 50, 50) < 0.35, `line left ${darknessLeft(eased, 50, 50)}`);
  assert.ok(darknessLeft(eased, 110, 40) > 0.8, `spot left ${darknessLeft(eased, 110, 40)}`);
  // The skin is not brightened.
  assert.deepEqual(at(eased, 10, 100), SKIN);
  // The photo given is not changed.
  assert.deepEqual(at(img, 50, 50), CREASE);
});

test('the easing follows how far the skin moved: none without an expression, in part for a mild one', () => {
  const img = photo((x, y) => (onLine(x, y) ? CREASE : undefined));
  assert.deepEqual(easeExpressionCreases(img, easing(0)).data, img.data);
  const half = darknessLeft(easeExpressionCreases(img, easing(0.3)), 50, 50);
  const full = darknessLeft(easeExpressionCreases(img, easing(0.6)), 50, 50);
  assert.ok(half > full + 0.2 && half < 0.95, `small ${half}, full ${full}`);
});

test('the eyes, brows and lips keep their lines, and so does a beard', () => {
  const features = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < 50; x++) features[y * W + x] = 3;
  const beard = (x: number, y: number) => y >= 80 && x >= 80 && x < 150;
  const beardLine = (x: number, y: number) => beard(x, y) && Math.abs(y - 95) < 1.5;
  const img = photo((x, y) => (onLine(x, y) ? CREASE : beardLine(x, y) ? [20, 15, 12] : beard(x, y) ? BEARD : undefined));
  const eased = easeExpressionCreases(img, easing(0.6, { features }));
  // On the lips (x < 50) the line is kept; beyond them it is eased.
  assert.deepEqual(at(eased, 40, 45), CREASE);
  assert.ok(darknessLeft(eased, 60, 55) < 0.35);
  assert.deepEqual(at(eased, 115, 95), [20, 15, 12]);
});

test("the lips' own motion eases no skin beside them", () => {
  const img = photo((x, y) => (onLine(x, y) ? CREASE : undefined));
  const e = easing(0.6);
  // Every point on the lips (all of the image), as far as they moved: nothing changes.
  const features = new Uint8Array(W * H).fill(3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (onLine(x, y)) features[y * W + x] = 0;
  assert.deepEqual(easeExpressionCreases(img, { ...e, features }).data, img.data);
});
