/**
 * Candidate pairs of boxes that overlap, found through a uniform grid: each box is entered in
 * every cell it covers, and a pair is reported once, from the first cell both share.
 * Boxes are `dims` minima followed by `dims` maxima per item. Cells are visited in the order boxes
 * first enter them and each cell's boxes in item order, so the pairs come in a fixed order (callers
 * that collect vertices in a Set depend on it). Boxes with a non-finite bound are in no cell.
 */
export function overlappingPairs(boxes: Float64Array, dims: 2 | 3, cellSize: number, visit: (i: number, j: number) => void): void {
  const stride = 2 * dims;
  const count = boxes.length / stride;
  // Every box in 3D (a flat one at z = 0 in 2D) with its whole-cell range: lo x, y, z, hi x, y, z.
  const box = new Float64Array(count * 6);
  const range = new Float64Array(count * 6);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const inGrid = new Uint8Array(count);
  let entries = 0;
  for (let i = 0; i < count; i++) {
    let cells = 1;
    for (let d = 0; d < dims; d++) {
      const b0 = (box[i * 6 + d] = boxes[i * stride + d]), b1 = (box[i * 6 + 3 + d] = boxes[i * stride + dims + d]);
      const lo = Math.floor(b0 / cellSize), hi = Math.floor(b1 / cellSize);
      range[i * 6 + d] = lo;
      range[i * 6 + 3 + d] = hi;
      cells *= b0 <= b1 ? hi - lo + 1 : NaN;
    }
    // A box with a bound that is not finite is in no cell, nor is an inverted one (it overlaps nothing).
    if (!Number.isFinite(cells)) continue;
    inGrid[i] = 1;
    entries += cells;
    for (let d = 0; d < 3; d++) {
      min[d] = Math.min(min[d], range[i * 6 + d]);
      max[d] = Math.max(max[d], range[i * 6 + 3 + d]);
    }
  }
  // A cell's key is its number in the grid's box, or its coordinates as text in a grid too large for exact numbers.
  const ny = max[1] - min[1] + 1, nz = max[2] - min[2] + 1;
  const numeric = (max[0] - min[0] + 1) * ny * nz <= Number.MAX_SAFE_INTEGER;
  // Cells get ids in the order boxes first enter them; entries are (cell id, box) in box order.
  const idOf = new Map<number | string, number>();
  const cellCoords: number[] = [];
  const entryCell = new Int32Array(entries), entryBox = new Int32Array(entries);
  let e = 0;
  for (let i = 0; i < count; i++) {
    if (!inGrid[i]) continue;
    const r = i * 6;
    for (let x = range[r]; x <= range[r + 3]; x++)
      for (let y = range[r + 1]; y <= range[r + 4]; y++)
        for (let z = range[r + 2]; z <= range[r + 5]; z++) {
          const key = numeric ? ((x - min[0]) * ny + (y - min[1])) * nz + (z - min[2]) : `${x},${y},${z}`;
          let id = idOf.get(key);
          if (id === undefined) {
            id = idOf.size;
            idOf.set(key, id);
            cellCoords.push(x, y, z);
          }
          entryCell[e] = id;
          entryBox[e++] = i;
        }
  }
  // Each cell's boxes, contiguous and in box order (a stable counting sort by cell id), with copies of
  // their bounds and lower cells side by side for the pair loop.
  const cellCount = idOf.size;
  const start = new Int32Array(cellCount + 1);
  for (let k = 0; k < entries; k++) start[entryCell[k] + 1]++;
  for (let c = 0; c < cellCount; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cellCount);
  const member = new Int32Array(entries), memberBox = new Float64Array(entries * 6), memberLo = new Float64Array(entries * 3);
  for (let k = 0; k < entries; k++) {
    const at = fill[entryCell[k]]++, i = entryBox[k];
    member[at] = i;
    for (let d = 0; d < 6; d++) memberBox[at * 6 + d] = box[i * 6 + d];
    for (let d = 0; d < 3; d++) memberLo[at * 3 + d] = range[i * 6 + d];
  }

  for (let c = 0; c < cellCount; c++) {
    const end = start[c + 1];
    const cx = cellCoords[c * 3], cy = cellCoords[c * 3 + 1], cz = cellCoords[c * 3 + 2];
    for (let a = start[c]; a < end; a++) {
      const x0 = memberBox[a * 6], y0 = memberBox[a * 6 + 1], z0 = memberBox[a * 6 + 2];
      const x1 = memberBox[a * 6 + 3], y1 = memberBox[a * 6 + 4], z1 = memberBox[a * 6 + 5];
      // A pair is reported from the first cell both share: the one of the larger lower cells (cells grow with the coordinate).
      const ownX = memberLo[a * 3] === cx, ownY = memberLo[a * 3 + 1] === cy, ownZ = memberLo[a * 3 + 2] === cz;
      for (let b = a + 1; b < end; b++) {
        // Disjoint when the larger minimum exceeds the smaller maximum; with min <= max in each box, when one's minimum exceeds the other's maximum.
        const o = b * 6;
        if (memberBox[o] > x1 || x0 > memberBox[o + 3] || memberBox[o + 1] > y1 || y0 > memberBox[o + 4] || memberBox[o + 2] > z1 || z0 > memberBox[o + 5]) continue;
        if ((ownX || memberLo[b * 3] === cx) && (ownY || memberLo[b * 3 + 1] === cy) && (ownZ || memberLo[b * 3 + 2] === cz)) visit(member[a], member[b]);
      }
    }
  }
}

/** Axis-aligned bounds of every triangle, for `overlappingPairs`. */
export function triangleBoxes(coords: ArrayLike<number>, dims: 2 | 3, indices: ArrayLike<number>): Float64Array {
  const count = indices.length / 3;
  const boxes = new Float64Array(count * 2 * dims);
  for (let t = 0; t < count; t++) {
    for (let d = 0; d < dims; d++) {
      const x0 = coords[indices[3 * t] * dims + d], x1 = coords[indices[3 * t + 1] * dims + d], x2 = coords[indices[3 * t + 2] * dims + d];
      boxes[t * 2 * dims + d] = Math.min(x0, x1, x2);
      boxes[t * 2 * dims + dims + d] = Math.max(x0, x1, x2);
    }
  }
  return boxes;
}
