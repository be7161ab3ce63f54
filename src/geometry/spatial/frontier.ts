/**
 * What earlier closest-point searches learnt, kept for the next query a short step away: a partition of
 * the mesh's triangles into items, each a tested triangle or an unopened BVH subtree, with a lower bound
 * on its distance that holds for any query point p. With Δ = p − anchor and s = |Δ|:
 *
 * - a linear item comes from the distance d and unit direction u from the item's nearest point to a query
 *   point q: the distance to a convex set (a triangle, a box) is a convex function of p, so it is at least
 *   its tangent d + u · (p − q) everywhere; stored as lower = d − u · (q − anchor) and u, its bound at p
 *   is lower + u · Δ;
 * - a loose item (only subtrees) knows just the distance d at q: it is at least d − |p − q| everywhere;
 *   stored as lower = d − |q − anchor|, its bound at p is lower − s.
 *
 * A query passes over the linear items with its Δ, and over the loose ones only when the least of their
 * `lower` is within s of its best distance so far; it tests the triangles whose bound is within that
 * distance, makes linear bounds of what it touches, and opens a subtree (its children and triangles
 * becoming items in its place) only when the subtree's own box is that near.
 */

/** Doubles per linear item bound: lower, u (xyz). */
export const LINEAR_STRIDE = 4;

export class Frontier {
  /** Linear items: the triangle slot (leaf order) of a triangle; -1 for a subtree. */
  readonly slot: Int32Array;
  /** A linear subtree's reference, triangle count and child entry as in bvh-build.ts. */
  readonly ref: Uint32Array;
  readonly count: Uint32Array;
  readonly entry: Int32Array;
  readonly bound: Float64Array;
  size = 0;
  /** Loose items (subtrees) and the least of their `lower`. */
  readonly looseRef: Uint32Array;
  readonly looseCount: Uint32Array;
  readonly looseEntry: Int32Array;
  readonly looseLower: Float64Array;
  looseSize = 0;
  looseMin = Infinity;
  /** Whether some item did not fit: the frontier is then no partition of the mesh. */
  overflow = false;
  anchorX = 0;
  anchorY = 0;
  anchorZ = 0;

  constructor(readonly capacity: number) {
    this.slot = new Int32Array(capacity);
    this.ref = new Uint32Array(capacity);
    this.count = new Uint32Array(capacity);
    this.entry = new Int32Array(capacity);
    this.bound = new Float64Array(LINEAR_STRIDE * capacity);
    this.looseRef = new Uint32Array(capacity);
    this.looseCount = new Uint32Array(capacity);
    this.looseEntry = new Int32Array(capacity);
    this.looseLower = new Float64Array(capacity);
  }

  /** Forgets every item: the next ones partition the mesh again, around (x, y, z). */
  reset(x: number, y: number, z: number): void {
    this.size = 0;
    this.looseSize = 0;
    this.looseMin = Infinity;
    this.overflow = false;
    this.anchorX = x;
    this.anchorY = y;
    this.anchorZ = z;
  }

  /** Adds triangle `slot`, whose nearest point to (x, y, z) lies at offset (ox, oy, oz) from it. */
  addTriangle(slot: number, ox: number, oy: number, oz: number, x: number, y: number, z: number): void {
    const i = this.addLinear();
    if (i < 0) return;
    this.slot[i] = slot;
    this.setLinear(i, ox, oy, oz, x, y, z);
  }

  /** Adds a subtree whose bounds' nearest point to (x, y, z) lies at offset (ox, oy, oz) from it. */
  addLinearSubtree(ref: number, count: number, entry: number, ox: number, oy: number, oz: number, x: number, y: number, z: number): void {
    const i = this.addLinear();
    if (i < 0) return;
    this.slot[i] = -1;
    this.ref[i] = ref;
    this.count[i] = count;
    this.entry[i] = entry;
    this.setLinear(i, ox, oy, oz, x, y, z);
  }

  /** Adds a subtree known to be `distance` from (x, y, z). */
  addLooseSubtree(ref: number, count: number, entry: number, distance: number, x: number, y: number, z: number): void {
    if (this.looseSize === this.capacity) {
      this.overflow = true;
      return;
    }
    const i = this.looseSize++;
    this.looseRef[i] = ref;
    this.looseCount[i] = count;
    this.looseEntry[i] = entry;
    const dx = x - this.anchorX, dy = y - this.anchorY, dz = z - this.anchorZ;
    const lower = distance - Math.sqrt(dx * dx + dy * dy + dz * dz);
    this.looseLower[i] = lower;
    if (lower < this.looseMin) this.looseMin = lower;
  }

  /** Removes loose item i, moving the last one into its place. */
  removeLoose(i: number): void {
    const last = --this.looseSize;
    this.looseRef[i] = this.looseRef[last];
    this.looseCount[i] = this.looseCount[last];
    this.looseEntry[i] = this.looseEntry[last];
    this.looseLower[i] = this.looseLower[last];
  }

  /** Gives linear item i the bound of an item whose nearest point to (x, y, z) lies at offset (ox, oy, oz) from it. */
  setLinear(i: number, ox: number, oy: number, oz: number, x: number, y: number, z: number): void {
    const d = Math.sqrt(ox * ox + oy * oy + oz * oz);
    // At distance 0 the direction is unknown: the bound is then just 0.
    const s = d > 0 ? 1 / d : 0;
    const ux = ox * s, uy = oy * s, uz = oz * s;
    const b = LINEAR_STRIDE * i;
    this.bound[b] = d - (ux * (x - this.anchorX) + uy * (y - this.anchorY) + uz * (z - this.anchorZ));
    this.bound[b + 1] = ux;
    this.bound[b + 2] = uy;
    this.bound[b + 3] = uz;
  }

  /** Drops linear item i from consideration (a subtree that was opened: its children are items now). */
  retire(i: number): void {
    const b = LINEAR_STRIDE * i;
    this.bound[b] = Infinity;
    this.bound[b + 1] = 0;
    this.bound[b + 2] = 0;
    this.bound[b + 3] = 0;
  }

  private addLinear(): number {
    if (this.size === this.capacity) {
      this.overflow = true;
      return -1;
    }
    return this.size++;
  }
}
