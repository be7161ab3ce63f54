import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boxBeforeTurns, personAboveFace, pointBeforeTurns, quarterTurnsUpright, rollBeforeTurns, turnImage } from '../../../src/pipeline/face/photo-orientation.ts';
import type { PersonMatte } from '../../../src/pipeline/face/person-matte.ts';

test('the quarter turns that stand a face upright follow its roll, and the roll as uploaded is taken back', () => {
  assert.deepEqual([10, -30, -87, 89, 178, -178, 130].map(quarterTurnsUpright), [0, 0, 3, 1, 2, 2, 1]);
  for (const roll of [-87, 89, 178, -178, 3]) {
    const turns = quarterTurnsUpright(roll);
    const upright = rollBeforeTurns(roll, -turns);
    assert.ok(Math.abs(upright) <= 45, `${roll}: ${upright}`);
    assert.ok(Math.abs(rollBeforeTurns(upright, turns) - roll) < 1e-9, `${roll}: back to ${rollBeforeTurns(upright, turns)}`);
  }
});

test('an image turned by quarter turns, and its points taken back to where they were', () => {
  const [width, height] = [3, 2];
  const data = new Uint8Array(width * height * 3).map((_, i) => i);
  const image = { width, height, data };
  const one = turnImage(image, 1);
  assert.deepEqual([one.width, one.height], [2, 3]);
  // Clockwise: the bottom-left pixel (0, 1) goes to the top-left.
  assert.deepEqual([...one.data.subarray(0, 3)], [...data.subarray(9, 12)]);
  assert.deepEqual(turnImage(turnImage(image, 1), 3), image);
  assert.deepEqual(turnImage(turnImage(image, 2), 2), image);
  // The turned image's top-left pixel came from the bottom-left one; half round, from the bottom-right one.
  assert.deepEqual(boxBeforeTurns([0, 0, 1, 1], 1, 2, 3), [0, 1, 1, 1]);
  assert.deepEqual(boxBeforeTurns([0, 0, 1, 1], 2, 3, 2), [2, 1, 1, 1]);
  for (const turns of [1, 2, 3]) {
    const turned = turnImage(image, turns);
    for (let y = 0; y < turned.height; y++) {
      for (let x = 0; x < turned.width; x++) {
        const [px, py] = pointBeforeTurns(x + 0.5, y + 0.5, turns, turned.width, turned.height);
        const from = (Math.floor(py) * width + Math.floor(px)) * 3;
        assert.equal(turned.data[(y * turned.width + x) * 3], data[from], `${turns} turns: (${x}, ${y}) from (${px}, ${py})`);
      }
    }
  }
});

/** A 100 x 100 matte, the person where `person(y)` holds. */
function matte(person: (y: number) => boolean): PersonMatte {
  const alpha = new Uint8Array(100 * 100);
  for (let y = 0; y < 100; y++) for (let x = 20; x < 80; x++) alpha[y * 100 + x] = person(y) ? 255 : 0;
  return { width: 100, height: 100, alpha };
}

/** Landmarks with the forehead's top (10) and the chin (152) at the given heights, x = 50. */
function face(forehead: number, chin: number): Float32Array {
  const lm = new Float32Array(478 * 3);
  lm.set([50, forehead, 0], 10 * 3);
  lm.set([50, chin, 0], 152 * 3);
  return lm;
}

test('the person lies above the face where the matte runs on past its forehead and ends past its chin', () => {
  // Upright: hair above the forehead, the neck and the body below the chin to the photo's border.
  assert.equal(personAboveFace(face(30, 60), matte((y) => y > 15)), false);
  // Upside down, read upright: past the read chin the top of the head ends; past the read forehead the body goes on.
  assert.equal(personAboveFace(face(40, 70), matte((y) => y < 85)), true);
  // A crop that ends below the chin, the hair standing tall: the person goes on to the border past the chin.
  assert.equal(personAboveFace(face(40, 90), matte((y) => y > 5)), false);
});
