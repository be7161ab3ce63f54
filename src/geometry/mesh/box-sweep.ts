/**
 * Pairs of overlapping boxes found by sorting them along one axis and sweeping: for a few thousand boxes wanted all at
 * once in two groups (the head's triangles round the lips and the teeth's), where the grid (box-grid.ts) would pair the
 * dense group with itself only to drop those pairs.
 */
/** Every pair of overlapping boxes, as each box's later partners: box i's are `partners[start[i]..start[i + 1]]`, ascending. */
export interface BoxPartners {
  start: Uint32Array;
  partners: Uint32Array;
}

/**
 * The pairs of 3D boxes (lo x, y, z, hi x, y, z each; finite) that overlap, touching included, where the boxes from
 * `paired` on are paired only with those before it (the teeth with the head round the lips, not with each other). The
 * boxes are sorted along the axis their lower corners spread most on and swept along it, the two groups against each
 * other as two sorted lists.
 */
export function overlappingBoxPairs(boxes: Float64Array, paired = boxes.length / 6): BoxPartners {
  const count = boxes.length / 6;
  const sweep = new Sweep(boxes, widestAxis(boxes));
  const first = sweep.sorted(0, paired), second = sweep.sorted(paired, count);
  for (let a = 0; a < first.length; a++) sweep.against(first, a, first, a + 1);
  // Each pair once: from whichever box comes first along the axis (the first group's on a tie).
  for (let a = 0, b = 0; a < first.length && b < second.length; ) {
    if (sweep.low(first[a]) <= sweep.low(second[b])) sweep.against(first, a++, second, b);
    else sweep.against(second, b++, first, a);
  }
  return byFirst(sweep.found, sweep.n, count);
}

class Sweep {
  found: Uint32Array;
  n = 0;
  private readonly u: number;
  private readonly v: number;

  constructor(
    private readonly boxes: Float64Array,
    private readonly axis: number,
  ) {
    [this.u, this.v] = [0, 1, 2].filter((d) => d !== axis);
    this.found = new Uint32Array(boxes.length);
  }

  low(i: number): number {
    return this.boxes[6 * i + this.axis];
  }

  /** Boxes `from..end`, sorted by their lower bound along the axis. */
  sorted(from: number, end: number): Uint32Array {
    const order = new Uint32Array(end - from);
    for (let i = from; i < end; i++) order[i - from] = i;
    return order.sort((i, j) => this.low(i) - this.low(j));
  }

  /** Box `list[a]` against `others[b..]`, as long as they start along the axis before it ends. */
  against(list: Uint32Array, a: number, others: Uint32Array, b: number): void {
    const { boxes, u, v } = this, i = list[a], o = 6 * i;
    const high = boxes[o + 3 + this.axis], u0 = boxes[o + u], u1 = boxes[o + 3 + u], v0 = boxes[o + v], v1 = boxes[o + 3 + v];
    for (; b < others.length && this.low(others[b]) <= high; b++) {
      const j = others[b], p = 6 * j;
      if (boxes[p + u] > u1 || u0 > boxes[p + 3 + u] || boxes[p + v] > v1 || v0 > boxes[p + 3 + v]) continue;
      if (this.n + 2 > this.found.length) this.found = grown(this.found);
      this.found[this.n++] = Math.min(i, j);
      this.found[this.n++] = Math.max(i, j);
    }
  }
}

function widestAxis(boxes: Float64Array): number {
  let axis = 0, widest = -1;
  for (let d = 0; d < 3; d++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = d; i < boxes.length; i += 6) (lo = Math.min(lo, boxes[i])), (hi = Math.max(hi, boxes[i]));
    if (hi - lo > widest) (widest = hi - lo), (axis = d);
  }
  return axis;
}

function grown(values: Uint32Array): Uint32Array {
  const out = new Uint32Array(2 * values.length);
  out.set(values);
  return out;
}

/** The pairs (first, second, ... in `found[0..n]`, first < second) as BoxPartners over `count` boxes. */
function byFirst(found: Uint32Array, n: number, count: number): BoxPartners {
  const start = new Uint32Array(count + 1);
  for (let k = 0; k < n; k += 2) start[found[k] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const fill = start.slice(0, count), partners = new Uint32Array(n / 2);
  for (let k = 0; k < n; k += 2) partners[fill[found[k]]++] = found[k + 1];
  for (let i = 0; i < count; i++) partners.subarray(start[i], start[i + 1]).sort();
  return { start, partners };
}
