import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillCornerCreases, type MouthCorner } from '../../../src/geometry/texture/corner-crease.ts';

const W = 200, H = 100;
const SKIN = [200, 160, 140], LIP = [170, 90, 95], CREASE = [120, 85, 75];
/** A closed mouth from x 50 to 150 on y 50 (lips 8 px tall each side of the seam), skin around it; `paint` changes pixels after. */
function face(paint: (x: number, y: number) => number[] | undefined) {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const lip = x >= 50 && x < 150 && Math.abs(y - 50) < 8 * Math.sin(((x - 50) / 100) * Math.PI) + 1;
      data.set(paint(x, y) ?? (lip ? LIP : SKIN), (y * W + x) * 3);
    }
  }
  return { width: W, height: H, data };
}
const corners: MouthCorner[] = [
  { outer: [50, 50.5], inner: [56, 50.5] },
  { outer: [150, 50.5], inner: [144, 50.5] },
];
/** The outer lip contour: the mouth's ellipse-like outline (x 50-150, 9 px each side of y 50). */
const LIPS: [number, number][] = Array.from({ length: 32 }, (_, k) => [100 + 50 * Math.cos((k / 32) * 2 * Math.PI), 50.5 + 9 * Math.sin((k / 32) * 2 * Math.PI)]);
const at = (img: { data: Uint8Array }, x: number, y: number) => Array.from(img.data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));

test("a thin dark line continuing the lips' seam beyond a corner, rising as a smile's, takes the skin's colour; the lips stay", () => {
  // Beyond the right corner the seam runs on 12 px, rising 1 px in 3; 2 px wide.
  const onCrease = (x: number, y: number) => x >= 150 && x < 162 && Math.abs(y - (50 - (x - 150) / 3)) < 1;
  const img = face((x, y) => (onCrease(x, y) ? CREASE : Math.abs(y - 50) < 1 && x >= 50 && x < 150 ? CREASE : undefined));
  const { photo, traced } = fillCornerCreases(img, corners, LIPS);
  assert.ok(traced[1].length >= 10, `the crease is followed: ${traced[1].length - 1} px`);
  assert.ok(traced[1].at(-1)![1] < 48, `upwards: ends at ${traced[1].at(-1)}`);
  for (const x of [152, 156, 160]) {
    const y = Math.round(50 - (x - 150) / 3 - 0.5);
    assert.deepEqual(at(photo, x, y), SKIN, `crease at ${x},${y}`);
  }
  assert.deepEqual(at(photo, 100, 50), CREASE, "the seam between the lips stays");
  assert.deepEqual(at(photo, 140, 47), LIP, 'the lips stay');
});

test('an edge (skin to a darker region) beyond a corner is not a crease, and plain skin is left as it is', () => {
  // Below y 52, right of the mouth, the skin is as dark as the crease (a shadow, a beard).
  const img = face((x, y) => (x >= 150 && y >= 52 ? CREASE : undefined));
  const { photo, traced } = fillCornerCreases(img, corners, LIPS);
  assert.ok(traced[1].length <= 2, `edge followed ${traced[1].length - 1} px`);
  assert.deepEqual(traced[0].length, 1, 'plain skin: no crease');
  assert.deepEqual(Array.from(photo.data), Array.from(img.data));
});
