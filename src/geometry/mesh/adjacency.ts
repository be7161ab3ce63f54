/** Half-edge key; vertex counts stay far below 2^26, so the product fits a double exactly. */
export const edgeKey = (a: number, b: number): number => a * 67108864 + b;

/** How many triangles use each directed edge a->b. */
export function halfEdgeCounts(indices: ArrayLike<number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(indices[t + k], indices[t + ((k + 1) % 3)]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Boundary loops: chains of half-edges a->b that have no twin b->a. Each loop is ordered the way
 * its triangles run, so that new triangles closing it must use the reversed edges.
 */
export function boundaryLoops(indices: ArrayLike<number>): number[][] {
  const counts = halfEdgeCounts(indices);
  const next = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k], b = indices[t + ((k + 1) % 3)];
      if (!counts.has(edgeKey(b, a))) next.set(a, b);
    }
  }
  const loops: number[][] = [];
  const seen = new Set<number>();
  for (const start of [...next.keys()].sort((x, y) => x - y)) {
    if (seen.has(start)) continue;
    const loop: number[] = [];
    for (let v: number | undefined = start; v !== undefined && !seen.has(v); v = next.get(v)) {
      seen.add(v);
      loop.push(v);
    }
    loops.push(loop);
  }
  return loops;
}

/** Vertex neighbours (one ring) of every vertex, sorted, without duplicates. */
export function vertexNeighbours(vertexCount: number, indices: ArrayLike<number>): number[][] {
  const sets = Array.from({ length: vertexCount }, () => new Set<number>());
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k], b = indices[t + ((k + 1) % 3)];
      sets[a].add(b);
      sets[b].add(a);
    }
  }
  return sets.map((s) => [...s].sort((x, y) => x - y));
}

/** Every vertex's neighbours, packed: those of v are list[start[v]] to list[start[v + 1] - 1]. */
export interface NeighbourLists {
  start: Uint32Array;
  list: Uint32Array;
}

/**
 * The one ring of every vertex in typed arrays, for walks over many vertices: a neighbour appears once per
 * triangle edge joining the two (so mostly twice), in no order.
 */
export function neighbourLists(vertexCount: number, indices: ArrayLike<number>): NeighbourLists {
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < indices.length; i++) start[indices[i] + 1] += 2;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, vertexCount);
  const list = new Uint32Array(start[vertexCount]);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k], b = indices[t + ((k + 1) % 3)];
      list[fill[a]++] = b;
      list[fill[b]++] = a;
    }
  }
  return { start, list };
}

/** `seed` with `rings` rings of neighbours around it. */
export function grow(seed: Set<number>, neighbours: number[][], rings: number): Set<number> {
  const out = new Set(seed);
  let front = [...seed];
  for (let r = 0; r < rings; r++) {
    const next: number[] = [];
    for (const v of front) for (const u of neighbours[v]) if (!out.has(u)) (out.add(u), next.push(u));
    front = next;
  }
  return out;
}
