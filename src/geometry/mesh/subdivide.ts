import { edgeKey } from './adjacency.ts';

/** Per-vertex data carried through a subdivision. */
export interface SubdivisionInput {
  positions: ArrayLike<number>;
  uvs: ArrayLike<number>;
  indices: ArrayLike<number>;
  /** Any other per-vertex rows (e.g. skin weights), averaged at edge midpoints. */
  rows: readonly (readonly number[])[];
  /** Whether an edge's new vertex may be smoothed (butterfly) or must stay on the flat edge. */
  smooth: (a: number, b: number) => boolean;
  /**
   * Per vertex, the vertex it is one point of the surface with (copies along a UV seam), so the
   * butterfly reaches across seams and both sides of a seam get the same new vertices. Default: itself.
   */
  weld?: ArrayLike<number>;
}

export interface SubdivisionOutput {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  rows: number[][];
  /** For every new vertex (after the old ones), the edge it splits. */
  parents: [number, number][];
}

/**
 * One 1:4 split of every triangle. Old vertices keep their indices and positions (the face's
 * landmark vertices stay put); each edge gets a new vertex, placed by the interpolating
 * butterfly stencil where `smooth` allows and all its neighbours exist, else at the midpoint.
 * UVs and rows are interpolated linearly, so a valid UV layout stays valid.
 */
export function subdivide(input: SubdivisionInput): SubdivisionOutput {
  const { positions, uvs, indices } = input;
  const oldCount = positions.length / 3;
  // The vertex opposite each directed edge, to find the butterfly's wings.
  const weld = input.weld ?? Uint32Array.from({ length: oldCount }, (_, v) => v);
  const opposite = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [weld[indices[t]], weld[indices[t + 1]], weld[indices[t + 2]]];
    opposite.set(edgeKey(a, b), c);
    opposite.set(edgeKey(b, c), a);
    opposite.set(edgeKey(c, a), b);
  }
  const midpoint = new Map<number, number>();
  const parents: [number, number][] = [];
  const pos: number[] = Array.from(positions);
  const uv: number[] = Array.from(uvs);
  const rows = input.rows.map((r) => [...r]);
  const split = (a: number, b: number): number => {
    const key = edgeKey(Math.min(a, b), Math.max(a, b));
    const known = midpoint.get(key);
    if (known !== undefined) return known;
    const id = oldCount + parents.length;
    parents.push([a, b]);
    midpoint.set(key, id);
    const stencil = input.smooth(a, b) ? butterfly(opposite, weld[a], weld[b]) : undefined;
    for (let k = 0; k < 3; k++) {
      const p = (v: number) => positions[3 * v + k];
      pos.push(stencil ? (p(a) + p(b)) / 2 + (p(stencil.c) + p(stencil.d)) / 8 - stencil.wings.reduce((s, w) => s + p(w), 0) / 16 : (p(a) + p(b)) / 2);
    }
    uv.push((uvs[2 * a] + uvs[2 * b]) / 2, (uvs[2 * a + 1] + uvs[2 * b + 1]) / 2);
    rows.push(input.rows[a].map((x, j) => (x + input.rows[b][j]) / 2));
    return id;
  };
  const out: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]];
    const ab = split(a, b), bc = split(b, c), ca = split(c, a);
    out.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
  }
  return { positions: Float32Array.from(pos), uvs: Float32Array.from(uv), indices: Uint32Array.from(out), rows, parents };
}

/** The butterfly stencil of edge a-b: the two opposite vertices and the four wing tips, if all exist. */
function butterfly(opposite: Map<number, number>, a: number, b: number): { c: number; d: number; wings: number[] } | undefined {
  const c = opposite.get(edgeKey(a, b)), d = opposite.get(edgeKey(b, a));
  if (c === undefined || d === undefined) return undefined;
  // Across the other edges of triangles a-b-c and b-a-d: the twins' opposite vertices.
  const wings = [opposite.get(edgeKey(c, b)), opposite.get(edgeKey(a, c)), opposite.get(edgeKey(d, a)), opposite.get(edgeKey(b, d))];
  if (wings.some((w) => w === undefined)) return undefined;
  return { c, d, wings: wings as number[] };
}
