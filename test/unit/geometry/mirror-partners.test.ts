import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mirrorPartners } from '../../../src/geometry/texture/mirror-partners.ts';

/** Points 1 cm apart on a row at y = z = 0, x from -3 to 3. */
function row(): Float32Array {
  const p = new Float32Array(7 * 3);
  for (let i = 0; i < 7; i++) p[i * 3] = i - 3;
  return p;
}

test('each vertex is paired with the candidate nearest its mirror image across the plane', () => {
  const positions = row();
  // Vertices 0-2 (x -3..-1) look among 4-6 (x 1..3) across x = 0.
  assert.deepEqual(Array.from(mirrorPartners(positions, [0, 1, 2], [4, 5, 6], 0, 0.6)), [6, 5, 4]);
  // Across x = 0.5 the mirror images of x -2 and -1 are 3 and 2 (vertices 6 and 5); that of -3 (x 4) has none.
  assert.deepEqual(Array.from(mirrorPartners(positions, [0, 1, 2], [4, 5, 6], 0.5, 0.6)), [-1, 6, 5]);
});

test('a partner farther than the reach from the mirror image is none (the face is not that symmetric there)', () => {
  const positions = row();
  // The candidates 0.8 cm above the mirror images across x = 0.
  for (const v of [4, 5, 6]) positions[v * 3 + 1] = 0.8;
  assert.deepEqual(Array.from(mirrorPartners(positions, [0, 1], [4, 5, 6], 0, 0.6)), [-1, -1]);
  assert.deepEqual(Array.from(mirrorPartners(positions, [0, 1], [4, 5, 6], 0, 1)), [6, 5]);
});
