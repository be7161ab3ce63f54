import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hypot3 } from '../../../src/geometry/mesh/vec.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

// hypot3 stands in for Math.hypot in the hot loops, and the avatar's files must not change by a bit: it has to
// give this Node's Math.hypot exactly, over magnitudes far apart, float32 inputs, repeats and the special values.
test('hypot3 gives Math.hypot of three numbers to the last bit', () => {
  const random = seededRandom(7);
  const special = [0, -0, 1, -1, 3, 4, 12, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE, 1e-300, 1e300];
  const number = () => {
    const k = random();
    if (k < 0.1) return special[Math.floor(random() * special.length)];
    const x = (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
    return k < 0.5 ? Math.fround(x) : x;
  };
  for (let i = 0; i < 200_000; i++) {
    const x = number(), y = number(), z = i % 5 === 0 ? x : number();
    const want = Math.hypot(x, y, z), got = hypot3(x, y, z);
    assert.ok(Object.is(got, want), `hypot3(${x}, ${y}, ${z}) = ${got}, Math.hypot gives ${want}`);
  }
});
