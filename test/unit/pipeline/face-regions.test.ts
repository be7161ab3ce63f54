import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWS, EYE_CONTOURS, LIPS, eyesAlike, featureMask, measureIris, measureTeeth } from '../../../src/pipeline/face/face-regions.ts';
import { FEATURE } from '../../../src/geometry/texture/photo-features.ts';
import { IRIS_MINUS_X, IRIS_PLUS_X } from '../../../src/pipeline/face/pose.ts';

/** The inner lip contour: 20 points on an ellipse of these radii about (50, 50). */
function innerLips(rx: number, ry: number): [number, number][] {
  return Array.from({ length: 20 }, (_, k) => {
    const a = (2 * Math.PI * k) / 20;
    return [50 + rx * Math.cos(a), 50 + ry * Math.sin(a)];
  });
}

/** Skin everywhere, a dark red mouth inside the contour with an upper row of pale teeth. */
function openMouth(): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(100 * 100 * 3);
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 100; x++) {
      const teeth = y >= 40 && y < 47;
      data.set(teeth ? [235, 217, 203] : Math.hypot((x - 50) / 20, (y - 50) / 12) < 1 ? [120, 40, 45] : [205, 160, 135], (y * 100 + x) * 3);
    }
  }
  return { width: 100, height: 100, data };
}

test('the teeth are the bright part of the open mouth, not its dark inside or the skin around it', () => {
  const teeth = measureTeeth(openMouth(), innerLips(20, 12));
  assert.ok(teeth, 'an open mouth is measured');
  assert.deepEqual(teeth.colour, [235, 217, 203]);
  assert.ok(teeth.pixels > 100, `pixels ${teeth.pixels}`);
});

test('a closed mouth has no teeth to measure', () => {
  assert.equal(measureTeeth(openMouth(), innerLips(20, 0.3)), undefined);
});

/**
 * Two eyes 60 px apart on skin, each a blue-grey iris (radius 10) whose top and bottom the lids cover: the eye's
 * opening (its contour landmarks, an almond 36 x 7 px, a narrowed eye) shows only the ring's middle band, a third of
 * it; above and below it, inside the iris's circle, lid skin. The subject's right eye (EYE_CONTOURS[0], the iris on
 * the head's -x side) is the image's left one.
 */
function lidCoveredEyes(): { image: { width: number; height: number; data: Uint8Array }; lm: Float32Array } {
  const width = 120, height = 60, data = new Uint8Array(width * height * 3);
  const centres: [number, number][] = [[30, 30], [90, 30]];
  const opening = (cx: number, cy: number, x: number, y: number) => Math.abs(y - cy) < 3.5 * (1 - ((x - cx) / 18) ** 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [cx, cy] = x < 60 ? centres[0] : centres[1];
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const c = !opening(cx, cy, x + 0.5, y + 0.5) ? [190, 120, 100] : d < 3.5 ? [10, 10, 12] : d < 10 ? [90, 110, 130] : [215, 210, 205];
      data.set(c, (y * width + x) * 3);
    }
  }
  const lm = new Float32Array(478 * 3);
  EYE_CONTOURS.forEach((contour, e) => {
    const [cx, cy] = centres[e];
    // The contour's points round the almond, in order.
    contour.forEach((i, k) => {
      const a = (2 * Math.PI * k) / contour.length;
      lm.set([cx + 18 * Math.cos(a), cy + 3.5 * Math.sin(a)], i * 3);
    });
    const iris = e === 0 ? IRIS_MINUS_X : IRIS_PLUS_X;
    lm.set([cx, cy], iris * 3);
    [[10, 0], [0, 10], [-10, 0], [0, -10]].forEach(([dx, dy], k) => lm.set([cx + dx, cy + dy], (iris + 1 + k) * 3));
  });
  return { image: { width, height, data }, lm };
}

test("the iris's colour is taken inside each eye's own opening: the lids covering the ring's top and bottom are left out", () => {
  const { image, lm } = lidCoveredEyes();
  const colour = measureIris(image, lm);
  // The ring [90, 110, 130] over the socket's shade (0.86); the lids' skin (or the rings read against the other eye's
  // opening, which leaves none of them) would pull it red.
  [90, 110, 130].forEach((c, i) => assert.ok(Math.abs(colour[i] - c / 0.86) <= 2, `channel ${i}: ${colour[i]}, the ring's ${c}`));
});

test("eyes alike: two openings showing an iris and a white read alike; a contour put on smooth skin does not", () => {
  const width = 200, height = 100;
  const data = new Uint8Array(width * height * 3);
  // Skin with a faint grain; a dark iris on a white band in the right half only.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const eye = x >= 120 && x < 180 && y >= 40 && y < 60;
      const iris = Math.hypot(x - 150, y - 50) < 8;
      const grain = (x * 7 + y * 13) % 5;
      data.set(eye ? (iris ? [60, 50, 45] : [225, 220, 215]) : [200 + grain, 160 + grain, 140 + grain], (y * width + x) * 3);
    }
  }
  const image = { width, height, data };
  /** Landmarks with each eye's contour as an ellipse about (cx, 50). */
  const withEyes = (right: number, left: number) => {
    const lm = new Float32Array(478 * 3);
    EYE_CONTOURS.forEach((contour, e) =>
      contour.forEach((i, k) => {
        const a = (2 * Math.PI * k) / contour.length;
        lm.set([(e === 0 ? right : left) + 28 * Math.cos(a), 50 + 9 * Math.sin(a), 0], i * 3);
      }),
    );
    return lm;
  };
  assert.ok(eyesAlike(image, withEyes(150, 150)) > 0.99, 'the same opening twice');
  const onSkin = eyesAlike(image, withEyes(50, 150));
  assert.ok(onSkin < 0.2, `one contour on the skin: ${onSkin.toFixed(2)}`);
});

/** Landmarks (478, x y z) with each listed loop on an ellipse about its centre; the rest at the image's corner. */
function loopsAt(loops: { ids: readonly number[]; centre: [number, number]; radii: [number, number] }[]): Float32Array {
  const lm = new Float32Array(478 * 3);
  for (const { ids, centre, radii } of loops) {
    ids.forEach((id, k) => {
      const a = (2 * Math.PI * k) / ids.length;
      lm.set([centre[0] + radii[0] * Math.cos(a), centre[1] + radii[1] * Math.sin(a), 0], id * 3);
    });
  }
  return lm;
}

test('the feature mask tells the brows from the eyes and the lips; where a brow meets an eye on the lid, the eye', () => {
  // Grown (brows 1.35, eyes 1.6) the brows reach rows 41.3-46.7 and the eyes 43.6-56.4: both cover rows 44-46.
  const lm = loopsAt([
    { ids: EYE_CONTOURS[0], centre: [30, 50], radii: [8, 4] },
    { ids: EYE_CONTOURS[1], centre: [70, 50], radii: [8, 4] },
    { ids: BROWS[0], centre: [30, 44], radii: [10, 2] },
    { ids: BROWS[1], centre: [70, 44], radii: [10, 2] },
    { ids: LIPS, centre: [50, 80], radii: [12, 5] },
  ]);
  const mask = featureMask(lm, 100, 100);
  const at = (x: number, y: number) => mask[y * 100 + x];
  for (const x of [30, 70]) {
    assert.equal(at(x, 42), FEATURE.brow);
    assert.equal(at(x, 45), FEATURE.eye);
    assert.equal(at(x, 50), FEATURE.eye);
  }
  assert.equal(at(50, 80), FEATURE.lips);
  assert.equal(at(50, 62), FEATURE.skin);
});
