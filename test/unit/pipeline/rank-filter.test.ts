import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rankFilter } from '../../../src/pipeline/face/rank-filter.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';

/** The square window's extreme, pixel by pixel, the window clipped at the image's edges. */
function bruteForce(values: Float32Array, width: number, height: number, r: number, kind: 'max' | 'min'): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = kind === 'max' ? -Infinity : Infinity;
      for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) {
        for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) {
          best = kind === 'max' ? Math.max(best, values[v * width + u]) : Math.min(best, values[v * width + u]);
        }
      }
      out[y * width + x] = best;
    }
  }
  return out;
}

/** The pixels whose window lies inside the image. */
function interior(image: Float32Array, width: number, height: number, r: number): number[] {
  const out: number[] = [];
  for (let y = r; y < height - r; y++) for (let x = r; x < width - r; x++) out.push(image[y * width + x]);
  return out;
}

// Within r of the image's edges the filter reads the whole first (last) block of 2r + 1 pixels, a window up to
// one block wider than the clipped one: only the pixels whose window lies inside the image are compared.
test('rank filter: the max and min of every square window inside the image, as a brute-force scan finds them', () => {
  const random = seededRandom(7);
  const [width, height] = [37, 23];
  const values = Float32Array.from({ length: width * height }, () => Math.round(random() * 1000) / 10);
  for (const r of [0, 1, 3, 8]) {
    for (const kind of ['max', 'min'] as const) {
      const got = interior(rankFilter(values, width, height, r, kind), width, height, r);
      assert.deepEqual(got, interior(bruteForce(values, width, height, r, kind), width, height, r), `${kind} r=${r}`);
    }
  }
});

test('rank filter into bytes: a byte image filtered into a Uint8Array holds the values filtered into floats', () => {
  const random = seededRandom(11);
  const [width, height] = [41, 19];
  const bytes = Uint8Array.from({ length: width * height }, () => Math.floor(random() * 256));
  for (const kind of ['max', 'min'] as const) {
    const floats = rankFilter(bytes, width, height, 2, kind);
    const into = new Uint8Array(width * height);
    assert.equal(rankFilter(bytes, width, height, 2, kind, into), into);
    assert.deepEqual(Array.from(into), Array.from(floats), kind);
  }
});
