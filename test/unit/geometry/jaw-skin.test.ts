import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearJawSkin, jawArea } from '../../../src/geometry/fit/jaw-skin.ts';
import { trianglesIntersect } from '../../../src/geometry/mesh/triangle-tests.ts';
import type { Skin, Vec3 } from '../../../src/model/avatar.ts';

const HEAD = 4, JAW = 5;
const PIVOT: Vec3 = [0, 2, -6];

/**
 * Two sheets (2 cm wide, 4 cm tall, 8 x 8 cells) facing forward, `gap` cm apart, as a fitted face can bring the lower
 * lip against the upper lip's rim: their vertices' jaw weights are `back` and `front`, the rest the head's.
 */
function sheets(gap: number, back: number, front: number) {
  const n = 8, positions: number[] = [], indices: number[] = [], jaw: number[] = [];
  for (const [z, w] of [[0, back], [gap, front]]) {
    const first = positions.length / 3;
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push(-1 + (2 * i) / n, -3 + (4 * j) / n, z), jaw.push(w);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const a = first + j * (n + 1) + i;
        indices.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
      }
    }
  }
  // Jaw-only corners keep their head slot empty, as the template's skin packs them.
  const skin: Skin = { joints: new Uint16Array(4 * jaw.length), weights: new Float32Array(4 * jaw.length) };
  jaw.forEach((w, v) => {
    const rows = [[JAW, w], [HEAD, 1 - w]].filter(([, x]) => x > 0);
    rows.forEach(([joint, x], k) => ((skin.joints[4 * v + k] = joint), (skin.weights[4 * v + k] = x)));
  });
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices), skin };
}

/** The sheets with the jaw turned open by `deg` about the x axis through PIVOT, by linear blend skinning. */
function turned(positions: Float32Array, skin: Skin, deg: number): Float64Array {
  const c = Math.cos((deg * Math.PI) / 180), s = Math.sin((deg * Math.PI) / 180);
  const out = Float64Array.from(positions);
  for (let v = 0; v < positions.length / 3; v++) {
    let w = 0;
    for (let k = 0; k < 4; k++) if (skin.joints[4 * v + k] === JAW) w += skin.weights[4 * v + k];
    const y = positions[3 * v + 1] - PIVOT[1], z = positions[3 * v + 2] - PIVOT[2];
    out[3 * v + 1] = (1 - w) * positions[3 * v + 1] + w * (PIVOT[1] + c * y - s * z);
    out[3 * v + 2] = (1 - w) * positions[3 * v + 2] + w * (PIVOT[2] + s * y + c * z);
  }
  return out;
}

/** Pairs of triangles, every pair tried, that cut through each other (neighbours share a corner and are left out). */
function crossings(at: Float64Array, indices: Uint32Array): number {
  let count = 0;
  const tris = indices.length / 3;
  for (let i = 0; i < tris; i++) {
    for (let j = i + 1; j < tris; j++) {
      const a = [0, 1, 2].map((k) => indices[3 * i + k]), b = [0, 1, 2].map((k) => indices[3 * j + k]);
      if (a.some((v) => b.includes(v))) continue;
      if (trianglesIntersect(at, a.map((v) => 3 * v), b.map((v) => 3 * v), 1e-6)) count++;
    }
  }
  return count;
}

const everyVertex = (positions: Float32Array) => Array.from({ length: positions.length / 3 }, (_, v) => v);

test('a jaw sheet turned through the head sheet behind it: the weights cleared so that neither half open nor open crosses', () => {
  const { positions, indices, skin } = sheets(0.5, 0, 1);
  assert.ok(crossings(turned(positions, skin, 10), indices) > 0, 'the sheets cross before');
  const area = jawArea(positions, indices, everyVertex(positions), 1);
  const given = { joints: skin.joints.slice(), weights: skin.weights.slice() };
  const cleared = clearJawSkin(positions, skin, { bone: JAW, head: HEAD, pivot: PIVOT }, area);
  assert.deepEqual(skin, given, 'the given skin (the template\'s) is left as it was');
  for (const deg of [10, 20]) assert.equal(crossings(turned(positions, cleared, deg), indices), 0, `${deg} degrees`);
  for (let v = 0; v < positions.length / 3; v++) {
    const row = [0, 1, 2, 3].map((k) => cleared.weights[4 * v + k]);
    assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 1e-6, `vertex ${v}'s weights sum to 1`);
    assert.ok(row.every((w) => w >= 0 && w <= 1));
    for (let k = 0; k < 4; k++) if (cleared.weights[4 * v + k] > 0) assert.ok([HEAD, JAW].includes(cleared.joints[4 * v + k]));
  }
});

test('the skin is returned as given where the jaw turned open folds nothing', () => {
  for (const [gap, back, front] of [[0.5, 0.5, 0.5], [3, 0, 1]]) {
    const { positions, indices, skin } = sheets(gap, back, front);
    const area = jawArea(positions, indices, everyVertex(positions), 1);
    for (const deg of [10, 20]) assert.equal(crossings(turned(positions, skin, deg), indices), 0);
    assert.equal(clearJawSkin(positions, skin, { bone: JAW, head: HEAD, pivot: PIVOT }, area), skin);
  }
});

test('the area holds the triangles with a corner within reach of the contour, numbered densely', () => {
  const { positions, indices } = sheets(3, 0, 1);
  // The back sheet's centre vertex (4, 4), its neighbours 0.25 cm and more away out of reach: its six triangles.
  const area = jawArea(positions, indices, [4 * 9 + 4], 0.1);
  assert.equal(area.triangles.length / 3, 6);
  assert.equal(area.vertices.length, 7);
  assert.ok(area.triangles.every((v) => v < area.vertices.length));
  assert.ok(area.cellSize > 0.6 && area.cellSize < 1.2);
});
