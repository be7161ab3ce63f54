import { ORIENTED_BOX_STRIDE, fitOrientedBox } from './oriented-box.ts';

/**
 * Builds the node records of a binary BVH over triangles.
 *
 * Each inner node is one 64-byte record (a cache line) holding both children: float32 boxes
 * [0..5] left and [6..11] right (min xyz, max xyz), then uint32 [12] left ref, [13] right ref,
 * [14] left count, [15] right count. A child with count > 0 is a leaf of `count` triangles starting
 * at leaf-order slot `ref`; a child with count 0 is the inner node record `ref`. Reading one record
 * gives the distances to both children, which is what a closest-point traversal needs next.
 */
export const RECORD = 16;

/** Children with at most this many triangles also get an oriented box (see oriented-box.ts). */
const ORIENTED_MAX_TRIANGLES = 16;

export interface Hierarchy {
  /** Inner node records (see above), sharing one buffer as float32 and uint32. */
  boxes: Float32Array;
  refs: Uint32Array;
  /** The root as a child entry: its box, ref and count. */
  rootBox: Float32Array;
  rootRef: number;
  rootCount: number;
  /** Per child entry (2 · record + side): index of its oriented box in `oriented`, or -1. */
  childOriented: Int32Array;
  oriented: Float64Array;
  /** Original triangle index at each leaf-order slot. */
  order: Uint32Array;
  /** Longest root-to-leaf path, in inner nodes. */
  depth: number;
}

/** Triangles per leaf: small leaves prune best for closest-point queries. */
const LEAF_SIZE = 4;

export function buildHierarchy(positions: ArrayLike<number>, indices: ArrayLike<number>): Hierarchy {
  const triangleCount = indices.length / 3;
  const triBoxes = new Float64Array(6 * triangleCount);
  const centres = new Float64Array(3 * triangleCount);
  for (let t = 0; t < triangleCount; t++) {
    for (let d = 0; d < 3; d++) {
      const a = positions[3 * indices[3 * t] + d], b = positions[3 * indices[3 * t + 1] + d], c = positions[3 * indices[3 * t + 2] + d];
      const lo = Math.min(a, b, c), hi = Math.max(a, b, c);
      triBoxes[6 * t + d] = lo;
      triBoxes[6 * t + 3 + d] = hi;
      centres[3 * t + d] = (lo + hi) / 2;
    }
  }
  const pad = boundsPad(positions, indices);
  const order = new Uint32Array(triangleCount).map((_, i) => i);
  const buffer = new ArrayBuffer(4 * RECORD * Math.max(1, triangleCount));
  const boxes = new Float32Array(buffer);
  const refs = new Uint32Array(buffer);
  const rootBox = new Float32Array(6);
  const range = new Float64Array(12);
  let records = 0;
  let depth = 0;

  /** Box and centre bounds of order[start, end) into range: box min, max, centre min, max. */
  const measure = (start: number, end: number): void => {
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
    for (let i = start; i < end; i++) {
      const b = 6 * order[i], c = 3 * order[i];
      if (triBoxes[b] < x0) x0 = triBoxes[b];
      if (triBoxes[b + 1] < y0) y0 = triBoxes[b + 1];
      if (triBoxes[b + 2] < z0) z0 = triBoxes[b + 2];
      if (triBoxes[b + 3] > x1) x1 = triBoxes[b + 3];
      if (triBoxes[b + 4] > y1) y1 = triBoxes[b + 4];
      if (triBoxes[b + 5] > z1) z1 = triBoxes[b + 5];
      if (centres[c] < cx0) cx0 = centres[c];
      if (centres[c + 1] < cy0) cy0 = centres[c + 1];
      if (centres[c + 2] < cz0) cz0 = centres[c + 2];
      if (centres[c] > cx1) cx1 = centres[c];
      if (centres[c + 1] > cy1) cy1 = centres[c + 1];
      if (centres[c + 2] > cz1) cz1 = centres[c + 2];
    }
    range[0] = x0; range[1] = y0; range[2] = z0; range[3] = x1; range[4] = y1; range[5] = z1;
    range[6] = cx0; range[7] = cy0; range[8] = cz0; range[9] = cx1; range[10] = cy1; range[11] = cz1;
  };

  /**
   * Splits order[start, end) at the middle of the longest axis of the triangle centres (binned SAH
   * saved about 8 % of the query work on head meshes but made building several times slower); returns
   * the first index of the right part, or -1 when the centres cannot be told apart.
   */
  const split = (start: number, end: number): number => {
    const ex = range[9] - range[6], ey = range[10] - range[7], ez = range[11] - range[8];
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
    const extent = Math.max(ex, ey, ez);
    if (extent === 0) return -1;
    const mid = range[6 + axis] + extent / 2;
    let middle = start;
    for (let i = start; i < end; i++) {
      const t = order[i];
      if (centres[3 * t + axis] < mid) {
        order[i] = order[middle];
        order[middle++] = t;
      }
    }
    // Centres an ulp or so apart can round mid onto one of them and leave a side empty.
    return middle === start || middle === end ? -1 : middle;
  };

  let rootRef = 0, rootCount = 0;
  const childOriented = new Int32Array(2 * Math.max(1, triangleCount)).fill(-1);
  const oriented = new Float64Array(ORIENTED_BOX_STRIDE * 2 * Math.max(1, triangleCount));
  let orientedCount = 0;

  /** Builds order[start, end) as child entry `entry` (2 · record + side), or as the root for -1. */
  const build = (start: number, end: number, level: number, entry: number): void => {
    measure(start, end);
    const box = entry < 0 ? rootBox : boxes;
    const at = entry < 0 ? 0 : RECORD * (entry >> 1) + 6 * (entry & 1);
    for (let d = 0; d < 3; d++) {
      box[at + d] = range[d] - pad;
      box[at + 3 + d] = range[3 + d] + pad;
    }
    if (entry >= 0 && end - start <= ORIENTED_MAX_TRIANGLES) {
      fitOrientedBox(positions, indices, order, start, end, pad, oriented, ORIENTED_BOX_STRIDE * orientedCount);
      childOriented[entry] = orientedCount++;
    }
    const middle = end - start <= LEAF_SIZE ? -1 : split(start, end);
    const r = middle < 0 ? -1 : records++;
    const ref = r < 0 ? start : r, count = r < 0 ? end - start : 0;
    if (entry < 0) {
      rootRef = ref;
      rootCount = count;
    } else {
      refs[RECORD * (entry >> 1) + 12 + (entry & 1)] = ref;
      refs[RECORD * (entry >> 1) + 14 + (entry & 1)] = count;
    }
    if (r < 0) return;
    depth = Math.max(depth, level + 1);
    build(start, middle, level + 1, 2 * r);
    build(middle, end, level + 1, 2 * r + 1);
  };
  build(0, triangleCount, 0, -1);
  const used = buffer.slice(0, 4 * RECORD * records);
  return {
    boxes: new Float32Array(used),
    refs: new Uint32Array(used),
    rootBox,
    rootRef,
    rootCount,
    childOriented: childOriented.slice(0, 2 * records),
    oriented: oriented.slice(0, ORIENTED_BOX_STRIDE * orientedCount),
    order,
    depth,
  };
}

/** Float32 bounds round by at most half an ulp of the largest coordinate a triangle uses: they are padded by a whole one. */
function boundsPad(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let largest = 0;
  for (let k = 0; k < indices.length; k++) {
    const v = 3 * indices[k];
    for (let d = 0; d < 3; d++) largest = Math.max(largest, Math.abs(positions[v + d]));
  }
  return largest * 2 ** -23;
}

/**
 * The same tree over moved vertices of the same triangles (a head of the template's topology, deformed): the
 * boxes and oriented boxes are fitted again, the nodes and the leaf order kept. Linear in the triangles, where a
 * build sorts them; queries stay exact, and a smooth deformation leaves the tree about as tight.
 */
export function refitHierarchy(tree: Hierarchy, positions: ArrayLike<number>, indices: ArrayLike<number>): Hierarchy {
  const { order, childOriented } = tree;
  const pad = boundsPad(positions, indices);
  const used = tree.boxes.buffer.slice(tree.boxes.byteOffset, tree.boxes.byteOffset + tree.boxes.byteLength);
  const boxes = new Float32Array(used);
  const refs = new Uint32Array(used);
  const rootBox = new Float32Array(6);
  const oriented = new Float64Array(tree.oriented.length);
  // Per level of the recursion: the unpadded bounds (min xyz, max xyz) of the entry just fitted, and its slot range.
  const bounds = new Float64Array(6 * (tree.depth + 2));
  const range = new Uint32Array(2 * (tree.depth + 2));

  const state: RefitState = { positions, indices, order, childOriented, pad, boxes, refs, rootBox, oriented, bounds, range };
  fitEntry(state, tree.rootRef, tree.rootCount, -1, 0);
  return { ...tree, boxes, refs, rootBox, oriented };
}

/** What `fitEntry` reads and writes: the tree's arrays, the new boxes, and its per-level scratch (see refitHierarchy). */
interface RefitState {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
  order: Uint32Array;
  childOriented: Int32Array;
  pad: number;
  boxes: Float32Array;
  refs: Uint32Array;
  rootBox: Float32Array;
  oriented: Float64Array;
  bounds: Float64Array;
  range: Uint32Array;
}

/**
 * Fits child entry `entry` (-1: the root), subtree (ref, count), at recursion level `level`. A module function with
 * its state as an argument, not a closure made per refit: that was compiled again on every avatar.
 */
function fitEntry(s: RefitState, ref: number, count: number, entry: number, level: number): void {
  const { positions, indices, order, childOriented, pad, boxes, refs, rootBox, oriented, bounds, range } = s;
  const b = 6 * level;
  if (count > 0) {
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let slot = ref; slot < ref + count; slot++) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * indices[3 * order[slot] + k];
        const x = positions[v], y = positions[v + 1], z = positions[v + 2];
        if (x < x0) x0 = x;
        if (y < y0) y0 = y;
        if (z < z0) z0 = z;
        if (x > x1) x1 = x;
        if (y > y1) y1 = y;
        if (z > z1) z1 = z;
      }
    }
    bounds[b] = x0; bounds[b + 1] = y0; bounds[b + 2] = z0; bounds[b + 3] = x1; bounds[b + 4] = y1; bounds[b + 5] = z1;
    range[2 * level] = ref;
    range[2 * level + 1] = ref + count;
  } else {
    const o = RECORD * ref;
    fitEntry(s, refs[o + 12], refs[o + 14], 2 * ref, level + 1);
    const c = b + 6;
    const start = range[2 * level + 2];
    for (let d = 0; d < 6; d++) bounds[b + d] = bounds[c + d];
    fitEntry(s, refs[o + 13], refs[o + 15], 2 * ref + 1, level + 1);
    for (let d = 0; d < 3; d++) {
      bounds[b + d] = Math.min(bounds[b + d], bounds[c + d]);
      bounds[b + 3 + d] = Math.max(bounds[b + 3 + d], bounds[c + 3 + d]);
    }
    range[2 * level] = start;
    range[2 * level + 1] = range[2 * level + 3];
  }
  const box = entry < 0 ? rootBox : boxes;
  const at = entry < 0 ? 0 : RECORD * (entry >> 1) + 6 * (entry & 1);
  for (let d = 0; d < 3; d++) {
    box[at + d] = bounds[b + d] - pad;
    box[at + 3 + d] = bounds[b + 3 + d] + pad;
  }
  const ob = entry < 0 ? -1 : childOriented[entry];
  if (ob >= 0) fitOrientedBox(positions, indices, order, range[2 * level], range[2 * level + 1], pad, oriented, ORIENTED_BOX_STRIDE * ob);
}
