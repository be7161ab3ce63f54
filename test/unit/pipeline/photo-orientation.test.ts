import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  boxAsUploaded,
  levelImage,
  levelledPoint,
  personAboveFace,
  pointAsUploaded,
  pointBeforeTurns,
  quarterTurnsUpright,
  rollAsUploaded,
  rollBeforeTurns,
  turnImage,
  type PhotoOrientation,
} from '../../../src/pipeline/face/photo-orientation.ts';
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
  const corner = [0, 0, 0, 1, 1, 0];
  assert.deepEqual(boxAsUploaded({ turns: 1, level: 0, turnedSize: [2, 3] }, corner, 2, [2, 3]), [0, 1, 1, 1]);
  assert.deepEqual(boxAsUploaded({ turns: 2, level: 0, turnedSize: [3, 2] }, corner, 2, [3, 2]), [2, 1, 1, 1]);
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

test('an image levelled by any angle, and its points taken back to the photo as uploaded', () => {
  // A quarter turn levelled is the quarter turn: every pixel centre lands on one.
  const small = { width: 3, height: 2, data: new Uint8Array(18).map((_, i) => i * 10) };
  assert.deepEqual(levelImage(small, 90), turnImage(small, 1));
  // A linear ramp, which bilinear sampling keeps exactly: each levelled pixel holds the ramp's value where it came from.
  const [width, height] = [40, 30];
  const ramp = (x: number, y: number) => 3 * (x - 0.5) + 2 * (y - 0.5);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(ramp(x + 0.5, y + 0.5), (y * width + x) * 3, (y * width + x) * 3 + 3);
  const turned = turnImage({ width, height, data }, 1);
  for (const level of [30, -17, 45]) {
    const levelled = levelImage(turned, level);
    const rad = (Math.abs(level) * Math.PI) / 180;
    // The canvas holds all of the turned image (30 x 40).
    assert.equal(levelled.width, Math.ceil(30 * Math.cos(rad) + 40 * Math.sin(rad) - 1e-6));
    assert.equal(levelled.height, Math.ceil(30 * Math.sin(rad) + 40 * Math.cos(rad) - 1e-6));
    const o: PhotoOrientation = { turns: 1, level, turnedSize: [30, 40] };
    let checked = 0;
    for (let y = 0; y < levelled.height; y++) {
      for (let x = 0; x < levelled.width; x++) {
        const [px, py] = pointAsUploaded(o, x + 0.5, y + 0.5, [levelled.width, levelled.height]);
        if (px < 0.5 || py < 0.5 || px > width - 0.5 || py > height - 0.5) continue;
        assert.ok(Math.abs(levelled.data[(y * levelled.width + x) * 3] - ramp(px, py)) <= 1, `${level}°: (${x}, ${y}) from (${px}, ${py})`);
        checked++;
      }
    }
    assert.ok(checked > 600, `${checked} pixels checked`);
    // Where the levelling puts a point of the turned image, taken back, is where it was.
    const [lx, ly] = levelledPoint(12.3, 4.5, level, [30, 40], [levelled.width, levelled.height]);
    const [bx, by] = pointAsUploaded({ turns: 0, level, turnedSize: [30, 40] }, lx, ly, [levelled.width, levelled.height]);
    assert.ok(Math.abs(bx - 12.3) < 1e-9 && Math.abs(by - 4.5) < 1e-9, `${level}°: (${bx}, ${by})`);
  }
  // The roll as uploaded: levelling turns clockwise as the quarter turns do, each taking its angle off the roll.
  assert.equal(rollAsUploaded({ turns: 1, level: 20, turnedSize: [1, 1] }, 5), 115);
  assert.equal(rollAsUploaded({ turns: 0, level: -30, turnedSize: [1, 1] }, 2), -28);
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
