import { vertex } from '../mesh/vec.ts';

/**
 * UV islands of the skin behind the front island's seam and of the bust's sides: a band of rings of
 * equal vertex counts, from the seam behind the ears and under the chin down through the neck cut
 * to the bust's bottom edge, between two columns, unrolled flat. Each ring keeps its own length
 * across the island and each column its own arc length down it, measured from the neck cut, so
 * texels stay close to square on the surface (a radial layout around the face had stretched the
 * neck round its circumference). The bust, which is seen least, shrinks towards its bottom edge.
 */
export interface IslandOptions {
  /** Index of the neck cut among the rings. */
  neckRing: number;
  /** Scale of the bust's bottom edge against the head's rings (1: same texel density). */
  bottomScale: number;
}

interface Island {
  /** uv[j][c]: place of ring j, column c, in cm at the head's scale, the island's box starting at 0. */
  uv: [number, number][][];
  size: [number, number];
}

/** How much an island's width may change between rings, against their spacing. */
const MAX_LEAN = 1.5;
const clamp = (x: number, around: number, reach: number) => Math.min(around + reach, Math.max(around - reach, x));

/** Unrolls `rings` (open rows of vertices, the same count each, ordered like the mesh's columns). */
function unrollIsland(positions: ArrayLike<number>, rings: readonly (readonly number[])[], options: IslandOptions): Island {
  const N = rings[0].length - 1;
  const dist = (a: number, b: number) => {
    const p = vertex(positions, a), q = vertex(positions, b);
    return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  };
  const last = rings.length - 1;
  const ringScale = (j: number) => (j <= options.neckRing ? 1 : 1 - ((1 - options.bottomScale) * (j - options.neckRing)) / (last - options.neckRing));
  // Across: arc length along the ring, centred on its middle. Where rings shorten faster than
  // their spacing (over the crown's dome), the island's ends would lean over and fold its cells:
  // the width changes by at most MAX_LEAN times the least spacing from the next ring towards the neck.
  const cumulative = rings.map((ring) => {
    const sums = [0];
    for (let c = 0; c < N; c++) sums.push(sums[c] + dist(ring[c], ring[c + 1]));
    return sums;
  });
  const width = cumulative.map((sums) => sums[N]);
  const spacing = (j: number, k: number) => Math.min(...rings[j].map((v, c) => dist(v, rings[k][c])));
  for (let j = options.neckRing - 1; j >= 0; j--) width[j] = clamp(width[j], width[j + 1], MAX_LEAN * spacing(j, j + 1));
  for (let j = options.neckRing + 1; j <= last; j++) width[j] = clamp(width[j], width[j - 1], MAX_LEAN * spacing(j, j - 1));
  const across = cumulative.map((sums, j) => sums.map((s) => (s / sums[N] - 0.5) * width[j] * ringScale(j)));
  // Down: arc length along each column from the neck cut, up positive. Below the cut, where the
  // bust's rings shrink, each ring is a level row at its mean distance: rows that were not level
  // would fold the narrowing cells at the island's ends.
  const down = rings.map(() => new Array<number>(N + 1).fill(0));
  for (let c = 0; c <= N; c++) {
    for (let j = options.neckRing - 1; j >= 0; j--) down[j][c] = down[j + 1][c] + dist(rings[j][c], rings[j + 1][c]);
  }
  for (let j = options.neckRing + 1; j <= last; j++) {
    const step = rings[j].reduce((sum, v, c) => sum + dist(v, rings[j - 1][c]), 0) / (N + 1);
    down[j].fill(down[j - 1][0] - (step * (ringScale(j) + ringScale(j - 1))) / 2);
  }
  let [minU, minV, maxU, maxV] = [Infinity, Infinity, -Infinity, -Infinity];
  rings.forEach((_, j) =>
    across[j].forEach((u, c) => {
      [minU, maxU, minV, maxV] = [Math.min(minU, u), Math.max(maxU, u), Math.min(minV, down[j][c]), Math.max(maxV, down[j][c])];
    }),
  );
  return { uv: rings.map((_, j) => across[j].map((u, c): [number, number] => [u - minU, down[j][c] - minV])), size: [maxU - minU, maxV - minV] };
}

function placeIsland(island: Island, origin: [number, number], scale: number): [number, number][][] {
  return island.uv.map((row) => row.map(([u, v]): [number, number] => [origin[0] + u * scale, origin[1] + v * scale]));
}

export interface BehindSeamOptions extends IslandOptions {
  /** Columns where the closed rings are cut apart, as fractions of the ring (ascending round it). */
  seams: number[];
  /** Per island (the one starting at each seam), its box (min u, min v, max u, max v). */
  boxes: [number, number, number, number][];
}

/**
 * Cuts closed `rings` into islands at the seam columns and places them in their boxes at one scale,
 * the largest at which each fits its box, each at its box's top. Returns the UV of ring j, column c
 * for a triangle in the cell after column `cell` (which tells the two copies of a seam column apart).
 */
export function layoutBehindSeam(positions: ArrayLike<number>, rings: readonly (readonly number[])[], options: BehindSeamOptions): (cell: number, j: number, c: number) => [number, number] {
  const M = rings[0].length;
  const islands = options.seams.map((from, i) => {
    const to = options.seams[(i + 1) % options.seams.length];
    const first = Math.round(from * M), count = Math.round(((((to - from) % 1) + 1) % 1 || 1) * M);
    const rows = rings.map((ring) => Array.from({ length: count + 1 }, (_, c) => ring[(first + c) % M]));
    return { first, count, island: unrollIsland(positions, rows, options) };
  });
  const boxes = options.boxes;
  const scale = Math.min(...islands.map(({ island }, i) => Math.min((boxes[i][2] - boxes[i][0]) / island.size[0], (boxes[i][3] - boxes[i][1]) / island.size[1])));
  const placed = islands.map(({ island }, i) => placeIsland(island, [boxes[i][0], boxes[i][3] - island.size[1] * scale], scale));
  return (cell, j, c) => {
    const i = islands.findIndex((x) => (cell - x.first + M) % M < x.count);
    return placed[i][j][(c - islands[i].first + M) % M];
  };
}
