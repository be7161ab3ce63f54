/**
 * Candidate pairs of boxes that overlap, found through a uniform grid: each box is entered in
 * every cell it covers, and a pair is reported once, from the first cell both share.
 * Boxes are `dims` minima followed by `dims` maxima per item.
 */
export function overlappingPairs(boxes: Float64Array, dims: 2 | 3, cellSize: number, visit: (i: number, j: number) => void): void {
  const stride = 2 * dims;
  const count = boxes.length / stride;
  const cells = new Map<string, number[]>();
  const cellOf = (x: number) => Math.floor(x / cellSize);
  for (let i = 0; i < count; i++) {
    const lo = [0, 0, 0], hi = [0, 0, 0];
    for (let d = 0; d < dims; d++) {
      lo[d] = cellOf(boxes[i * stride + d]);
      hi[d] = cellOf(boxes[i * stride + dims + d]);
    }
    for (let x = lo[0]; x <= hi[0]; x++)
      for (let y = lo[1]; y <= hi[1]; y++)
        for (let z = lo[2]; z <= hi[2]; z++) {
          const key = `${x},${y},${z}`;
          const list = cells.get(key);
          if (list) list.push(i);
          else cells.set(key, [i]);
        }
  }
  for (const [key, list] of cells) {
    const cell = key.split(',').map(Number);
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const i = list[a], j = list[b];
        let overlap = true, first = true;
        for (let d = 0; d < dims && overlap; d++) {
          const lo = Math.max(boxes[i * stride + d], boxes[j * stride + d]);
          const hi = Math.min(boxes[i * stride + dims + d], boxes[j * stride + dims + d]);
          if (lo > hi) overlap = false;
          else if (cellOf(lo) !== cell[d]) first = false;
        }
        if (overlap && first) visit(i, j);
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
      let lo = Infinity, hi = -Infinity;
      for (let k = 0; k < 3; k++) {
        const x = coords[indices[3 * t + k] * dims + d];
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
      boxes[t * 2 * dims + d] = lo;
      boxes[t * 2 * dims + dims + d] = hi;
    }
  }
  return boxes;
}
