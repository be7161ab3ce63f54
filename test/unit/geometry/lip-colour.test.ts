import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesiseLips, LipPixel } from '../../../src/geometry/texture/lip-colour.ts';

type Point = [number, number];
const W = 120, H = 80;
/** An ellipse of points (closed loop). */
const ellipse = (cx: number, cy: number, rx: number, ry: number): Point[] =>
  Array.from({ length: 32 }, (_, k) => [cx + rx * Math.cos((k / 32) * 2 * Math.PI), cy + ry * Math.sin((k / 32) * 2 * Math.PI)]);
const outer = ellipse(60, 40, 40, 16);
const at = (img: { data: Uint8Array }, x: number, y: number) => Array.from(img.data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));

/** Skin, with lips (darker upper, lighter lower) inside the outer contour; `paint` changes pixels after. */
function photo(paint: (x: number, y: number) => number[] | undefined) {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const lip = ((x - 60) / 40) ** 2 + ((y - 40) / 16) ** 2 < 1;
      data.set(paint(x, y) ?? (lip ? (y < 40 ? [150, 70, 75] : [190, 100, 105]) : [210, 170, 150]), (y * W + x) * 3);
    }
  }
  return { width: W, height: H, data };
}

test("a closed mouth keeps the lips' own pale highlight; teeth in the slit between the lips become lip", () => {
  // Closed: the inner contour is a slit (2 px tall). Teeth-white in the slit, a pale grey highlight low on the lower lip.
  const inner = ellipse(60, 40, 30, 1);
  const img = photo((x, y) => (Math.abs(y - 40) <= 1 && Math.abs(x - 60) < 20 ? [235, 235, 230] : Math.abs(y - 50) <= 1 && Math.abs(x - 60) < 6 ? [225, 215, 215] : undefined));
  const out = synthesiseLips(img, outer, inner).photo;
  assert.deepEqual(at(out, 60, 50), [225, 215, 215], 'the highlight stays');
  const slit = at(out, 60, 40);
  assert.ok(slit[1] < 150, `the teeth are replaced: ${slit}`);
});

test('replaced pixels take the colour of the lip around them: the upper lip darker, the lower lighter', () => {
  // Open: teeth fill the opening (12 px tall).
  const inner = ellipse(60, 40, 28, 6);
  const img = photo((x, y) => (((x - 60) / 28) ** 2 + ((y - 40) / 6) ** 2 < 1 ? [240, 240, 235] : undefined));
  const out = synthesiseLips(img, outer, inner).photo;
  const top = at(out, 60, 35), bottom = at(out, 60, 45);
  for (const c of [top, bottom]) assert.ok(c[1] < 130 && c[0] > c[1] + 40, `lip-coloured, not teeth: ${c}`);
  assert.ok(top[0] < bottom[0] - 8, `the fill follows the lips' shading: top ${top}, bottom ${bottom}`);
});

test('specks of lip colour between the teeth of an open mouth become lip, as the teeth around them', () => {
  const inner = ellipse(60, 40, 28, 4);
  // Teeth in the opening and 6 px beyond it, with a dark-red gap between two of them above the opening, wider than
  // the teeth's grown rim.
  const gap = (x: number, y: number) => Math.abs(x - 60) <= 3 && Math.abs(y - 33) <= 1;
  const img = photo((x, y) => (((x - 60) / 28) ** 2 + ((y - 40) / 10) ** 2 < 1 ? (gap(x, y) ? [120, 60, 62] : [240, 240, 235]) : undefined));
  const out = synthesiseLips(img, outer, inner).photo;
  const speck = at(out, 60, 33), beside = at(out, 66, 33);
  assert.ok(Math.abs(speck[0] - beside[0]) <= 12, `the speck takes the colour around it: ${speck} beside ${beside}`);
});

test('yellow teeth reaching past the inner contour become lip', () => {
  // The detector's inner contour stops 6 px below the teeth's tops (as over p12-a's wide smile). Yellow: as saturated
  // as the lips, but not red: the colour of p12-a's teeth.
  const inner = ellipse(60, 42, 28, 5);
  const teeth = (x: number, y: number) => Math.abs(x - 60) < 20 && y >= 31 && y <= 46;
  const img = photo((x, y) => (teeth(x, y) ? [236, 222, 184] : undefined));
  const out = synthesiseLips(img, outer, inner).photo;
  for (const [x, y] of [[60, 34], [50, 32], [70, 31]]) {
    const c = at(out, x, y);
    assert.ok(c[0] - c[1] > 30, `(${x}, ${y}) is no longer teeth: ${c}`);
  }
});

test("a closed mouth on a rolled head is closed: its pale lower lip stays, and the repair says which pixels it painted", () => {
  // The mouth rolled by 12 degrees: its slit spans 12 px in y, more than an open mouth's 0.08 of its width.
  const roll = (12 * Math.PI) / 180;
  const turn = ([x, y]: Point): Point => [60 + (x - 60) * Math.cos(roll) - (y - 40) * Math.sin(roll), 40 + (x - 60) * Math.sin(roll) + (y - 40) * Math.cos(roll)];
  const inner = ellipse(60, 40, 30, 1).map(turn);
  const tilted = outer.map(turn);
  // A pale, greyish highlight on the lower lip, well away from the slit.
  const pale = turn([60, 50]).map(Math.round);
  const img = photo((x, y) => (Math.abs(x - pale[0]) <= 2 && Math.abs(y - pale[1]) <= 1 ? [225, 215, 215] : undefined));
  const repair = synthesiseLips(img, tilted, inner);
  assert.deepEqual(at(repair.photo, pale[0], pale[1]), [225, 215, 215], 'the highlight stays');
  assert.equal(repair.pixels[pale[1] * W + pale[0]], LipPixel.kept);
  assert.equal(repair.pixels[0], LipPixel.outside);
});

test('the pixels an open mouth replaced are marked as replaced, and only those changed', () => {
  const inner = ellipse(60, 40, 28, 6);
  const img = photo((x, y) => (((x - 60) / 28) ** 2 + ((y - 40) / 6) ** 2 < 1 ? [240, 240, 235] : undefined));
  const repair = synthesiseLips(img, outer, inner);
  let changed = 0, marked = 0;
  for (let i = 0; i < W * H; i++) {
    const differs = [0, 1, 2].some((c) => repair.photo.data[i * 3 + c] !== img.data[i * 3 + c]);
    if (differs) {
      changed++;
      assert.equal(repair.pixels[i], LipPixel.replaced, `pixel ${i} changed but is not marked`);
    }
    if (repair.pixels[i] === LipPixel.replaced) marked++;
  }
  assert.equal(repair.pixels[40 * W + 60], LipPixel.replaced);
  assert.equal(marked, repair.replaced);
  assert.ok(changed > 0 && changed <= marked);
});

test("an open mouth's teeth take their shaded edge with them, less red than the lips, but not the lips or their gloss beyond it", () => {
  // Teeth reaching 3 px above the detector's inner contour, then 3 rows of their shaded edge: darker than the lips,
  // redder than the teeth, but less red than the lips (as under p08-a's upper lip). The colour tests alone keep it.
  const inner = ellipse(60, 42, 28, 5);
  const teeth = (x: number, y: number) => Math.abs(x - 60) < 20 && y >= 34 && y <= 46;
  const shade = (x: number, y: number) => Math.abs(x - 60) < 20 && y >= 31 && y <= 33;
  // Below the opening, the lower lip's gloss: as little red, but brighter than the lips.
  const gloss = (x: number, y: number) => Math.abs(x - 60) < 10 && (y === 48 || y === 49);
  const img = photo((x, y) => (shade(x, y) ? [120, 100, 92] : teeth(x, y) ? [240, 240, 235] : gloss(x, y) ? [230, 200, 150] : undefined));
  const repair = synthesiseLips(img, outer, inner);
  for (const y of [31, 32, 33]) {
    assert.equal(repair.pixels[y * W + 60], LipPixel.replaced, `the shaded edge at row ${y} is replaced`);
    const c = at(repair.photo, 60, y);
    assert.ok(c[0] - c[1] > 40, `and takes the lips' colour: ${c}`);
  }
  assert.equal(repair.pixels[29 * W + 60], LipPixel.kept, 'the upper lip above it stays');
  for (const y of [48, 49]) assert.equal(repair.pixels[y * W + 60], LipPixel.kept, `the gloss at row ${y} stays`);
});

test("an open mouth keeps a moustache over its upper lip, but not a dark corner beside it", () => {
  // Teeth in the opening. A dark-brown moustache from 6 px above the outer contour down into the upper lip (the
  // contour's top is at y = 24), across most of the mouth; at the left corner the mouth's dark inside, joined to a
  // crease running out of the contour.
  const inner = ellipse(60, 42, 28, 6);
  const moustache = (x: number, y: number) => Math.abs(x - 60) < 30 && y >= 18 && y <= 29;
  const corner = (x: number, y: number) => (x >= 22 && x <= 30 && y >= 38 && y <= 42) || (x >= 8 && x < 22 && y >= 40 && y <= 41);
  const teeth = (x: number, y: number) => ((x - 60) / 28) ** 2 + ((y - 42) / 6) ** 2 < 1;
  const img = photo((x, y) => (moustache(x, y) ? [60, 45, 35] : corner(x, y) ? [70, 35, 35] : teeth(x, y) ? [240, 240, 235] : undefined));
  const repair = synthesiseLips(img, outer, inner);
  for (const y of [25, 27, 29]) {
    assert.equal(repair.pixels[y * W + 60], LipPixel.kept, `the moustache at row ${y} is kept`);
    assert.deepEqual(at(repair.photo, 60, y), [60, 45, 35]);
  }
  assert.equal(repair.pixels[42 * W + 60], LipPixel.replaced, 'the teeth are replaced');
  assert.equal(repair.pixels[40 * W + 26], LipPixel.replaced, "the corner's dark inside is replaced");
  // Without the hair beyond the contour the same dark pixels in the lip are the mouth's shade under the upper lip.
  const shaded = synthesiseLips(photo((x, y) => (moustache(x, y) && y >= 25 ? [60, 45, 35] : teeth(x, y) ? [240, 240, 235] : undefined)), outer, inner);
  assert.equal(shaded.pixels[27 * W + 60], LipPixel.replaced, 'dark lip pixels not joined to hair are replaced');
});

test("an open mouth's dark pixels near the outer contour are shade beyond the lips and stay; those by the opening are its inside", () => {
  // Teeth in the opening. Below its left half, the shade of a beard that the detected outer contour took in (as under
  // p08-a's smiling corner): dark inside and outside the contour. Along the opening's lower edge, the mouth's dark inside.
  const inner = ellipse(60, 40, 28, 6);
  const beard = (x: number, y: number) => x < 40 && y >= 44;
  const inside = (x: number, y: number) => Math.abs(x - 60) < 15 && (y === 46 || y === 47);
  const teeth = (x: number, y: number) => ((x - 60) / 28) ** 2 + ((y - 40) / 6) ** 2 < 1;
  const img = photo((x, y) => (beard(x, y) ? [45, 36, 30] : inside(x, y) ? [60, 30, 30] : teeth(x, y) ? [240, 240, 235] : undefined));
  const repair = synthesiseLips(img, outer, inner);
  for (const [x, y] of [[30, 50], [26, 48], [24, 45]]) {
    assert.equal(repair.pixels[y * W + x], LipPixel.kept, `the shade at ${x}, ${y}, by the outer contour, is kept`);
    assert.deepEqual(at(repair.photo, x, y), [45, 36, 30]);
  }
  for (const x of [50, 60, 70]) assert.equal(repair.pixels[47 * W + x], LipPixel.replaced, `the dark inside at ${x}, 47 is replaced`);
  assert.equal(repair.pixels[40 * W + 60], LipPixel.replaced, 'the teeth are replaced');
});

test("an open mouth's dark corner by the outer contour is its inside where only the corner's crease meets it", () => {
  // Teeth in the opening; at the left corner the mouth's dark inside reaches the outer contour's tip, where a thin crease
  // runs on out of the contour: it meets dark pixels outside at a point, not along the contour as shade beyond a lip does.
  const inner = ellipse(60, 40, 28, 6);
  const pocket = (x: number, y: number) => x >= 21 && x <= 33 && y >= 39 && y <= 41;
  const crease = (x: number, y: number) => x >= 8 && x < 21 && y === 40;
  const teeth = (x: number, y: number) => ((x - 60) / 28) ** 2 + ((y - 40) / 6) ** 2 < 1;
  const img = photo((x, y) => (pocket(x, y) || crease(x, y) ? [60, 30, 30] : teeth(x, y) ? [240, 240, 235] : undefined));
  const repair = synthesiseLips(img, outer, inner);
  for (const x of [22, 24, 28]) assert.equal(repair.pixels[40 * W + x], LipPixel.replaced, `the corner's dark inside at ${x}, 40 is replaced`);
  assert.deepEqual(at(repair.photo, 12, 40), [60, 30, 30], 'the crease outside stays');
});
