/** Boxes placed in a uniform grid: every box in 3D (a flat one at z = 0 in 2D) with its whole-cell range. */
interface GridBoxes {
  count: number;
  /** Per box: lo x, y, z, hi x, y, z. */
  box: Float64Array;
  /** Per box: the lowest and highest cell along x, y, z. */
  range: Float64Array;
  /** 0 for a box with a bound that is not finite, or an inverted one (it overlaps nothing): it is in no cell. */
  inGrid: Uint8Array;
  /** Box-cell entries in all. */
  entries: number;
  /** A cell's key: its number in the grid's box, or its coordinates as text in a grid too large for exact numbers. */
  key: (x: number, y: number, z: number) => number | string;
  /** Cells in the grid's box (Infinity when its keys are text). */
  volume: number;
}

/**
 * Grids whose box has at most this many cells per box-cell entry (plus a floor) number their cells through a
 * table over the whole box rather than a Map: a few bytes per cell buy lookups without hashing.
 */
const DENSE_CELLS_PER_ENTRY = 8;
const DENSE_CELLS_FLOOR = 65536;

/** Cells of a grid numbered 0, 1, ... in the order they are first added. */
class CellIds {
  size = 0;
  private readonly table?: Int32Array;
  private readonly map?: Map<number | string, number>;

  constructor(private readonly grid: GridBoxes) {
    if (grid.volume <= DENSE_CELLS_PER_ENTRY * grid.entries + DENSE_CELLS_FLOOR) this.table = new Int32Array(grid.volume).fill(-1);
    else this.map = new Map();
  }

  /** The cell's id, -1 if it was never added. */
  find(x: number, y: number, z: number): number {
    const k = this.grid.key(x, y, z);
    return this.table ? this.table[k as number] : this.map!.get(k) ?? -1;
  }

  /** The cell's id, a new one if it had none. */
  add(x: number, y: number, z: number): number {
    const k = this.grid.key(x, y, z);
    if (this.table) {
      const id = this.table[k as number];
      return id >= 0 ? id : (this.table[k as number] = this.size++);
    }
    const id = this.map!.get(k);
    if (id !== undefined) return id;
    this.map!.set(k, this.size);
    return this.size++;
  }
}

function gridBoxes(boxes: Float64Array, dims: 2 | 3, cellSize: number): GridBoxes {
  const stride = 2 * dims;
  const count = boxes.length / stride;
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
    if (!Number.isFinite(cells)) continue;
    inGrid[i] = 1;
    entries += cells;
    for (let d = 0; d < 3; d++) {
      min[d] = Math.min(min[d], range[i * 6 + d]);
      max[d] = Math.max(max[d], range[i * 6 + 3 + d]);
    }
  }
  const [x0, y0, z0] = min;
  const ny = max[1] - y0 + 1, nz = max[2] - z0 + 1;
  const numbered = (max[0] - x0 + 1) * ny * nz;
  const exact = numbered <= Number.MAX_SAFE_INTEGER;
  const key = exact ? (x: number, y: number, z: number) => ((x - x0) * ny + (y - y0)) * nz + (z - z0) : (x: number, y: number, z: number) => `${x},${y},${z}`;
  // An empty grid (min above max) has no cells.
  return { count, box, range, inGrid, entries, key, volume: entries === 0 ? 0 : exact ? numbered : Infinity };
}

/** Calls `visit` with the key and coordinates of every cell box i covers (x, then y, then z ascending). */
function forEachCell(g: GridBoxes, i: number, visit: (key: number | string, x: number, y: number, z: number) => void): void {
  const r = i * 6;
  for (let x = g.range[r]; x <= g.range[r + 3]; x++)
    for (let y = g.range[r + 1]; y <= g.range[r + 4]; y++) for (let z = g.range[r + 2]; z <= g.range[r + 5]; z++) visit(g.key(x, y, z), x, y, z);
}

/**
 * Each cell's boxes, contiguous and in entry order (a stable counting sort by cell id: the boxes of cell c are
 * member[start[c]] to member[start[c + 1] - 1]), with copies of their bounds and lower cells side by side for the
 * pair loops, which then read a cell's boxes in one sweep rather than each from the whole array by its index.
 */
function cellMembers(grid: GridBoxes, cells: number, entryCell: Int32Array, entryBox: Int32Array): { start: Int32Array; member: Int32Array; memberBox: Float64Array; memberLo: Float64Array } {
  const { box, range } = grid;
  const entries = entryCell.length;
  const start = new Int32Array(cells + 1);
  for (let k = 0; k < entries; k++) start[entryCell[k] + 1]++;
  for (let c = 0; c < cells; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cells);
  const member = new Int32Array(entries), memberBox = new Float64Array(entries * 6), memberLo = new Float64Array(entries * 3);
  for (let k = 0; k < entries; k++) {
    const at = fill[entryCell[k]]++, i = entryBox[k];
    member[at] = i;
    for (let d = 0; d < 6; d++) memberBox[at * 6 + d] = box[i * 6 + d];
    for (let d = 0; d < 3; d++) memberLo[at * 3 + d] = range[i * 6 + d];
  }
  return { start, member, memberBox, memberLo };
}

/**
 * Candidate pairs of boxes that overlap, found through a uniform grid: each box is entered in
 * every cell it covers, and a pair is reported once, from the first cell both share.
 * Boxes are `dims` minima followed by `dims` maxima per item. Cells are visited in the order boxes
 * first enter them and each cell's boxes in item order, so the pairs come in a fixed order (callers
 * that collect vertices in a Set depend on it; `sortInGridOrder` puts any pairs in it). Boxes with a
 * non-finite bound are in no cell.
 */
export function overlappingPairs(boxes: Float64Array, dims: 2 | 3, cellSize: number, visit: (i: number, j: number) => void): void {
  const grid = gridBoxes(boxes, dims, cellSize);
  const { count, range, inGrid, entries } = grid;
  // Cells get ids in the order boxes first enter them; entries are (cell id, box) in box order.
  const ids = new CellIds(grid);
  const cellCoords: number[] = [];
  const entryCell = new Int32Array(entries), entryBox = new Int32Array(entries);
  let e = 0;
  for (let i = 0; i < count; i++) {
    if (!inGrid[i]) continue;
    const r = i * 6;
    for (let x = range[r]; x <= range[r + 3]; x++)
      for (let y = range[r + 1]; y <= range[r + 4]; y++)
        for (let z = range[r + 2]; z <= range[r + 5]; z++) {
          const before = ids.size, id = ids.add(x, y, z);
          if (id === before) cellCoords.push(x, y, z);
          entryCell[e] = id;
          entryBox[e++] = i;
        }
  }
  const cellCount = ids.size;
  const { start, member, memberBox, memberLo } = cellMembers(grid, cellCount, entryCell, entryBox);

  for (let c = 0; c < cellCount; c++) {
    const end = start[c + 1];
    const cx = cellCoords[c * 3], cy = cellCoords[c * 3 + 1], cz = cellCoords[c * 3 + 2];
    for (let a = start[c]; a < end; a++) {
      const x0 = memberBox[a * 6], y0 = memberBox[a * 6 + 1], z0 = memberBox[a * 6 + 2];
      const x1 = memberBox[a * 6 + 3], y1 = memberBox[a * 6 + 4], z1 = memberBox[a * 6 + 5];
      // A pair is reported from the first cell both share: the one of the larger lower cells (cells grow with the coordinate).
      const ownX = memberLo[a * 3] === cx, ownY = memberLo[a * 3 + 1] === cy, ownZ = memberLo[a * 3 + 2] === cz;
      for (let b = a + 1; b < end; b++) {
        const o = b * 6;
        if (memberBox[o] > x1 || x0 > memberBox[o + 3] || memberBox[o + 1] > y1 || y0 > memberBox[o + 4] || memberBox[o + 2] > z1 || z0 > memberBox[o + 5]) continue;
        if ((ownX || memberLo[b * 3] === cx) && (ownY || memberLo[b * 3 + 1] === cy) && (ownZ || memberLo[b * 3 + 2] === cz)) visit(member[a], member[b]);
      }
    }
  }
}

/**
 * The pairs of `overlappingPairs` that have at least one `selected` box, as i, j one pair after another (i < j,
 * each once, in no particular order): for a few boxes among many, without sorting all of them into the grid. A list,
 * not a visitor: the callers' visitors, made per call, took their optimised code with them when they died.
 */
export function overlappingPairsWith(boxes: Float64Array, dims: 2 | 3, cellSize: number, selected: Uint8Array): number[] {
  const grid = gridBoxes(boxes, dims, cellSize);
  const { count, box, range, inGrid } = grid;
  // The cells of the selected boxes, numbered as they are first entered, each with its selected boxes in order.
  const ids = new CellIds(grid);
  const entryCell: number[] = [], entryBox: number[] = [];
  for (let s = 0; s < count; s++) {
    if (!selected[s] || !inGrid[s]) continue;
    const r = s * 6;
    for (let x = range[r]; x <= range[r + 3]; x++)
      for (let y = range[r + 1]; y <= range[r + 4]; y++)
        for (let z = range[r + 2]; z <= range[r + 5]; z++) {
          entryCell.push(ids.add(x, y, z));
          entryBox.push(s);
        }
  }
  const { start, member, memberBox, memberLo } = cellMembers(grid, ids.size, Int32Array.from(entryCell), Int32Array.from(entryBox));
  const pairs: number[] = [];
  for (let i = 0; i < count; i++) {
    if (!inGrid[i]) continue;
    const r = i * 6;
    const x0 = box[r], y0 = box[r + 1], z0 = box[r + 2], x1 = box[r + 3], y1 = box[r + 4], z1 = box[r + 5];
    const lx = range[r], ly = range[r + 1], lz = range[r + 2], iSelected = selected[i];
    for (let x = lx; x <= range[r + 3]; x++)
      for (let y = ly; y <= range[r + 4]; y++)
        for (let z = lz; z <= range[r + 5]; z++) {
          const id = ids.find(x, y, z);
          if (id < 0) continue;
          for (let e = start[id]; e < start[id + 1]; e++) {
            const s = member[e];
            // Two selected boxes: found from the lower one. Once per pair: from the first cell both share.
            if (s === i || (iSelected && s < i)) continue;
            const o = e * 6;
            if (memberBox[o] > x1 || x0 > memberBox[o + 3] || memberBox[o + 1] > y1 || y0 > memberBox[o + 4] || memberBox[o + 2] > z1 || z0 > memberBox[o + 5]) continue;
            if (Math.max(lx, memberLo[e * 3]) !== x || Math.max(ly, memberLo[e * 3 + 1]) !== y || Math.max(lz, memberLo[e * 3 + 2]) !== z) continue;
            pairs.push(Math.min(i, s), Math.max(i, s));
          }
        }
  }
  return pairs;
}

/**
 * The first cell the pair p (i * count + j) shares: the larger of their lower cells, axis by axis. A module function:
 * a closure made per call had its code compiled again every job.
 */
function homeCell(range: ArrayLike<number>, count: number, p: number): number[] {
  const i = Math.floor(p / count), j = p % count;
  return [Math.max(range[i * 6], range[j * 6]), Math.max(range[i * 6 + 1], range[j * 6 + 1]), Math.max(range[i * 6 + 2], range[j * 6 + 2])];
}

/**
 * Sorts pairs of overlapping boxes (as i * box count + j, i < j) in the order `overlappingPairs` would
 * report them with this cell size: by the first cell both share, cells in the order boxes first enter
 * them (by the first such box, then x, y, z), then by i and j.
 */
export function sortInGridOrder(boxes: Float64Array, dims: 2 | 3, cellSize: number, pairs: number[]): void {
  const grid = gridBoxes(boxes, dims, cellSize);
  const { count, range, inGrid, key } = grid;
  // The first box to enter each pair's first shared cell.
  const first = new Map<number | string, number>();
  for (const p of pairs) {
    const [x, y, z] = homeCell(range, count, p);
    first.set(key(x, y, z), -1);
  }
  let missing = first.size;
  for (let i = 0; i < count && missing > 0; i++) {
    if (!inGrid[i]) continue;
    forEachCell(grid, i, (k) => {
      if (first.get(k) !== -1) return;
      first.set(k, i);
      missing--;
    });
  }
  const sortKey = new Map(pairs.map((p) => {
    const home = homeCell(range, count, p);
    return [p, [first.get(key(home[0], home[1], home[2]))!, ...home, p]];
  }));
  pairs.sort((a, b) => {
    const ka = sortKey.get(a)!, kb = sortKey.get(b)!;
    for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k]) return ka[k] - kb[k];
    return 0;
  });
}

/** Axis-aligned bounds of every triangle, for `overlappingPairs` (into `boxes` when given). */
export function triangleBoxes(coords: ArrayLike<number>, dims: 2 | 3, indices: ArrayLike<number>, boxes: Float64Array = new Float64Array((indices.length / 3) * 2 * dims)): Float64Array {
  const count = indices.length / 3;
  for (let t = 0; t < count; t++) {
    for (let d = 0; d < dims; d++) {
      const x0 = coords[indices[3 * t] * dims + d], x1 = coords[indices[3 * t + 1] * dims + d], x2 = coords[indices[3 * t + 2] * dims + d];
      boxes[t * 2 * dims + d] = Math.min(x0, x1, x2);
      boxes[t * 2 * dims + dims + d] = Math.max(x0, x1, x2);
    }
  }
  return boxes;
}
