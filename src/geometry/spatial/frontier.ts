/**
 * What earlier closest-point searches learnt, kept for the next query a short step away: a partition of
 * the mesh's triangles into items, each a tested triangle or an unopened BVH subtree, with a lower bound
 * on its distance that holds for any query point p. With Δ = p − anchor and s = |Δ| the bound is
 *
 *   lower + g · Δ − k · s
 *
 * - a linear item (k = 0) comes from the distance d and unit direction u from the item's nearest point to
 *   a query point q: the distance to a convex set (a triangle, a box) is a convex function of p, so it is
 *   at least its tangent d + u · (p − q) everywhere;
 * - a loose item (g = 0, k = 1) only knows the distance d at q: it is at least d − |p − q| everywhere.
 *
 * Either is stored relative to the anchor (lower = d − u · (q − anchor), resp. d − |q − anchor|), so one
 * pass over the items with the same Δ bounds them all. A query then tests only the items whose bound is
 * within its best distance so far, making linear bounds of what it touches, and opens a subtree (replacing
 * it by its children) only when the subtree's own box is that near.
 */

/** Doubles per item bound: lower, g (xyz), k. */
export const BOUND_STRIDE = 5;

export class Frontier {
  /** Triangle slot (leaf order) of a triangle item; -1 for a subtree. */
  readonly slot: Int32Array;
  /** A subtree's reference, triangle count and child entry as in bvh-build.ts. */
  readonly ref: Uint32Array;
  readonly count: Uint32Array;
  readonly entry: Int32Array;
  readonly bound: Float64Array;
  /** Items in use; more than the capacity when some did not fit (the frontier is then unusable). */
  size = 0;
  anchorX = 0;
  anchorY = 0;
  anchorZ = 0;

  constructor(readonly capacity: number) {
    this.slot = new Int32Array(capacity);
    this.ref = new Uint32Array(capacity);
    this.count = new Uint32Array(capacity);
    this.entry = new Int32Array(capacity);
    this.bound = new Float64Array(BOUND_STRIDE * capacity);
  }

  get usable(): boolean {
    return this.size <= this.capacity;
  }

  /** Forgets every item: the next ones partition the mesh again, around (x, y, z). */
  reset(x: number, y: number, z: number): void {
    this.size = 0;
    this.anchorX = x;
    this.anchorY = y;
    this.anchorZ = z;
  }

  /** Adds a triangle item; returns its index, or -1 when the frontier is full. */
  addTriangle(slot: number): number {
    const i = this.size++;
    if (i >= this.capacity) return -1;
    this.slot[i] = slot;
    return i;
  }

  /** Adds a subtree item known to be `distance` from (x, y, z). */
  addSubtree(ref: number, count: number, entry: number, distance: number, x: number, y: number, z: number): void {
    const i = this.size++;
    if (i >= this.capacity) return;
    this.slot[i] = -1;
    this.ref[i] = ref;
    this.count[i] = count;
    this.entry[i] = entry;
    const b = BOUND_STRIDE * i;
    const dx = x - this.anchorX, dy = y - this.anchorY, dz = z - this.anchorZ;
    this.bound[b] = distance - Math.sqrt(dx * dx + dy * dy + dz * dz);
    this.bound[b + 1] = 0;
    this.bound[b + 2] = 0;
    this.bound[b + 3] = 0;
    this.bound[b + 4] = 1;
  }

  /** Gives item i the linear bound of an item whose nearest point to (x, y, z) lies at offset (ox, oy, oz) from it. */
  setLinear(i: number, ox: number, oy: number, oz: number, x: number, y: number, z: number): void {
    const d = Math.sqrt(ox * ox + oy * oy + oz * oz);
    // At distance 0 the direction is unknown: the bound is then just 0.
    const s = d > 0 ? 1 / d : 0;
    const gx = ox * s, gy = oy * s, gz = oz * s;
    const b = BOUND_STRIDE * i;
    this.bound[b] = d - (gx * (x - this.anchorX) + gy * (y - this.anchorY) + gz * (z - this.anchorZ));
    this.bound[b + 1] = gx;
    this.bound[b + 2] = gy;
    this.bound[b + 3] = gz;
    this.bound[b + 4] = 0;
  }

  /** Drops item i from consideration (a subtree that was opened: its children are items now). */
  retire(i: number): void {
    const b = BOUND_STRIDE * i;
    this.bound[b] = Infinity;
    this.bound[b + 1] = 0;
    this.bound[b + 2] = 0;
    this.bound[b + 3] = 0;
    this.bound[b + 4] = 0;
  }
}
