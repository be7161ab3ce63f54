import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskOnGrid, silhouetteGrid } from '../../../src/pipeline/hair/silhouette.ts';
import { matteEdgeDistance, type HairGrid } from '../../../src/pipeline/hair/hair-grid.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** maskOnGrid by its definition, pixel by pixel: a cell is inside when more than half of its pixels are. */
function maskOnGridByPixel(mask: { width: number; height: number; alpha: Uint8Array }, grid: ReturnType<typeof silhouetteGrid>): Uint8Array {
  const count = new Uint32Array(grid.columns * grid.rows), total = new Uint32Array(count.length);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      const gx = Math.floor((x - grid.x0) / grid.step), gy = Math.floor((y - grid.y0) / grid.step);
      if (gx < 0 || gy < 0 || gx >= grid.columns || gy >= grid.rows) continue;
      total[gy * grid.columns + gx]++;
      if (mask.alpha[y * mask.width + x] > 127) count[gy * grid.columns + gx]++;
    }
  }
  return Uint8Array.from(count, (c, i) => (c * 2 > total[i] ? 1 : 0));
}

test('a mask on a grid: a cell is inside where most of its pixels are, for grids off the photo, finer or coarser than it', () => {
  const rand = random(4);
  const width = 97, height = 71;
  // Blobs, so that cells are mixed at their edges.
  const alpha = new Uint8Array(width * height);
  const blobs = Array.from({ length: 6 }, () => [rand() * width, rand() * height, 5 + rand() * 20]);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) alpha[y * width + x] = blobs.some(([bx, by, r]) => (x - bx) ** 2 + (y - by) ** 2 < r * r) ? 200 + Math.floor(rand() * 55) : Math.floor(rand() * 128);
  const mask = { width, height, alpha };
  let inside = 0;
  for (const [w, h, cells, x0, y0] of [[97, 71, 30, 0, 0], [60, 50, 17, 20.5, 9.25], [150, 120, 40, -30.3, -20.7], [40, 30, 200, 55.1, 40.9], [30, 30, 3, -10, 60]]) {
    const grid = silhouetteGrid(w, h, cells, x0, y0);
    const got = maskOnGrid(mask, grid);
    assert.deepEqual(got, maskOnGridByPixel(mask, grid), `grid ${w}x${h}/${cells} at ${x0},${y0}`);
    inside += got.reduce((a, b) => a + b, 0);
  }
  assert.ok(inside > 50, 'some cells are inside');
});

test('the distance to the matte edge: 0 outside, the chamfer distance (1 and 1.4) to the nearest outside cell inside', () => {
  const rand = random(8);
  const columns = 23, rows = 17;
  const person = Uint8Array.from({ length: columns * rows }, (_, c) => (Math.hypot((c % columns) - 11, Math.floor(c / columns) - 8) < 7 || rand() < 0.1 ? 1 : 0));
  const d = matteEdgeDistance({ columns, rows, person } as HairGrid);
  // The chamfer distance by its definition: shortest paths of 1 and sqrt(2) steps, relaxed until nothing changes.
  const want = Float64Array.from(person, (p) => (p ? Infinity : 0));
  for (let changed = true; changed; ) {
    changed = false;
    for (let c = 0; c < want.length; c++) {
      const x = c % columns, y = Math.floor(c / columns);
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
        if (x + dx < 0 || y + dy < 0 || x + dx >= columns || y + dy >= rows) continue;
        const v = want[(y + dy) * columns + x + dx] + (dx && dy ? Math.SQRT2 : 1);
        if (v < want[c]) (want[c] = v), (changed = true);
      }
    }
  }
  // The two passes keep float32 sums: equal up to their rounding.
  d.forEach((v, c) => assert.ok(v === want[c] || Math.abs(v - want[c]) < 1e-5, `cell ${c}: ${v} vs ${want[c]}`));
  assert.ok(d.some((v) => v > 3) && d.some((v) => v === 0));
});
