import { Region, TRIANGLE_STRIDE, closestOnTriangle } from './closest-on-triangle.ts';
import { RECORD, buildHierarchy, refitHierarchy, type Hierarchy } from './bvh-build.ts';
import { Frontier, LINEAR_STRIDE } from './frontier.ts';
import { ORIENTED_BOX_STRIDE, orientedBoxDistance2, orientedBoxOffset } from './oriented-box.ts';
import { edgeMates, pseudonormals, type EdgeMates, type Pseudonormals } from './pseudonormals.ts';

/** Result of a closest-point query; reuse one object across queries to avoid garbage in hot loops. */
export interface ClosestPoint {
  /** Triangle index t (corners indices[3t], indices[3t+1], indices[3t+2] = a, b, c). */
  triangle: number;
  /** Barycentric weights of a, b, c; they sum to 1. */
  wa: number;
  wb: number;
  wc: number;
  /** The closest point on the mesh. */
  x: number;
  y: number;
  z: number;
  distance: number;
  /** Whether the query point is inside the mesh (sign of the offset along the pseudonormal; meaningful for closed meshes). */
  inside: boolean;
}

export const emptyClosestPoint = (): ClosestPoint => ({
  triangle: -1, wa: 0, wb: 0, wc: 0, x: 0, y: 0, z: 0, distance: Infinity, inside: false,
});

/**
 * Bounding-volume hierarchy over the triangles of an indexed mesh, for closest-point and
 * inside/outside queries. Built once (see bvh-build.ts for the node layout); queries keep scratch
 * state (the stack, the frontier of earlier searches), so one index serves one thread.
 * Geometry is kept in float32, the precision of MeshData; arithmetic is in double precision.
 */
export class TriangleBvh {
  private readonly scratch = new Float64Array(3);
  private readonly stackRef: Uint32Array;
  private readonly stackCount: Uint32Array;
  private readonly stackEntry: Int32Array;
  private readonly stackDist: Float64Array;
  /** The earlier searches' frontier (see frontier.ts), usable while queries stay within `reach` of its anchor. */
  private readonly frontier = new Frontier(FRONTIER_CAPACITY);
  private reach = -1;
  /** The previous query point. */
  private lastX = 0;
  private lastY = 0;
  private lastZ = 0;
  /** REACH_EDGES mean triangle edges, the fixed part of `reach`. */
  private readonly reachPad: number;
  /** The best triangle so far (slot, squared distance, weights of b and c, Region), shared with search(). */
  private best = 0;
  private bestSlot = -1;
  private bestV = 0;
  private bestW = 0;
  private bestRegion = 0;

  private constructor(
    private readonly tree: Hierarchy,
    /** Corners of the triangles in leaf order (see closest-on-triangle.ts). */
    private readonly triangles: Float32Array,
    private readonly corners: Uint32Array,
    private readonly mates: EdgeMates,
    private readonly normals: Pseudonormals,
    /** Leaf-order slot of each triangle. */
    private readonly triangleSlot: Uint32Array,
  ) {
    this.stackRef = new Uint32Array(tree.depth + 2);
    this.stackCount = new Uint32Array(tree.depth + 2);
    this.stackEntry = new Int32Array(tree.depth + 2);
    this.stackDist = new Float64Array(tree.depth + 2);
    this.reachPad = REACH_EDGES * meanEdge(triangles);
  }

  get triangleCount(): number {
    return this.triangleSlot.length;
  }

  static build(positions: ArrayLike<number>, indices: ArrayLike<number>): TriangleBvh {
    const triangleCount = indices.length / 3;
    if (!Number.isInteger(triangleCount) || triangleCount === 0) throw new RangeError('the mesh needs at least one triangle');
    const tree = buildHierarchy(positions, indices);
    const corners = Uint32Array.from(indices);
    const mates = edgeMates(corners, positions.length / 3);
    const triangleSlot = new Uint32Array(triangleCount);
    for (let slot = 0; slot < triangleCount; slot++) triangleSlot[tree.order[slot]] = slot;
    return new TriangleBvh(tree, leafTriangles(tree.order, positions, corners), corners, mates, pseudonormals(positions, corners, mates), triangleSlot);
  }

  /**
   * An index over the same triangles with their vertices moved to `positions` (same numbering): the tree is
   * refitted instead of built (refitHierarchy), several times cheaper; for a mesh that keeps its topology
   * from job to job, such as a head fitted from a template. Answers are as exact as a new build's.
   */
  refit(positions: ArrayLike<number>): TriangleBvh {
    const { tree, corners, mates } = this;
    if (positions.length !== this.normals.vertex.length) throw new RangeError('refit needs positions for every vertex of the mesh');
    return new TriangleBvh(
      refitHierarchy(tree, positions, corners),
      leafTriangles(tree.order, positions, corners),
      corners,
      mates,
      pseudonormals(positions, corners, mates),
      this.triangleSlot,
    );
  }

  /**
   * Finds the point of the mesh closest to (x, y, z) no farther than maxDistance and writes it into out;
   * false when there is none that near. `hint`, a triangle likely to be close (e.g. the answer for the
   * previous point of a coherent sequence), only speeds the search up, as does querying points in a
   * coherent order (a query near the last ones starts from their frontier instead of the root: on the
   * deformation bench, in Morton order, 4 % of the queries search from the root and the others test about
   * 2 triangles besides the hint); answers never depend on either.
   */
  closestPoint(x: number, y: number, z: number, out: ClosestPoint, maxDistance = Infinity, hint = -1): boolean {
    const { triangles, scratch, frontier } = this;
    let best = maxDistance * maxDistance, bestDist = maxDistance;
    let bestSlot = -1, bestV = 0, bestW = 0, bestRegion = 0;
    let hintSlot = -1;
    if (hint >= 0 && hint < this.triangleSlot.length) {
      hintSlot = this.triangleSlot[hint];
      const d2 = closestOnTriangle(triangles, hintSlot * TRIANGLE_STRIDE, x, y, z, scratch);
      if (d2 <= best) {
        best = d2; bestDist = Math.sqrt(d2); bestSlot = hintSlot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
      }
    }
    const dx = x - frontier.anchorX, dy = y - frontier.anchorY, dz = z - frontier.anchorZ;
    const step = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const jx = x - this.lastX, jy = y - this.lastY, jz = z - this.lastZ;
    const jump = jx * jx + jy * jy + jz * jz;
    this.lastX = x;
    this.lastY = y;
    this.lastZ = z;
    if (frontier.overflow || frontier.size > FRONTIER_REFRESH || !(step <= this.reach)) {
      frontier.reset(x, y, z);
      this.best = best; this.bestSlot = bestSlot; this.bestV = bestV; this.bestW = bestW; this.bestRegion = bestRegion;
      const { rootBox, rootRef, rootCount } = this.tree;
      // A frontier is worth recording when the queries come close together; after a jump, the next one may jump too.
      const record = jump <= this.reach * this.reach;
      this.search(rootRef, rootCount, -1, boxDistance2(rootBox, 0, x, y, z), x, y, z, record);
      if (!record) frontier.overflow = true;
      this.reach = REACH_DISTANCE * Math.sqrt(this.best) + this.reachPad;
      return this.answer(this.bestSlot, this.best, this.bestV, this.bestW, this.bestRegion, x, y, z, out);
    }
    const { slot: itemSlot, bound } = frontier;
    for (let i = 0, n = frontier.size; i < n; i++) {
      const b = LINEAR_STRIDE * i;
      if (bound[b] + bound[b + 1] * dx + bound[b + 2] * dy + bound[b + 3] * dz > bestDist) continue;
      const slot = itemSlot[i];
      if (slot >= 0) {
        if (slot === hintSlot) continue;
        const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
        if (d2 < best || (d2 === best && bestSlot < 0)) {
          best = d2; bestDist = Math.sqrt(d2); bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
        }
        this.triangleOffset(slot, x, y, z);
        frontier.setLinear(i, scratch[0], scratch[1], scratch[2], x, y, z);
        continue;
      }
      const entry = frontier.entry[i];
      const d2 = this.subtreeOffset(entry, x, y, z);
      if (d2 > best) {
        frontier.setLinear(i, scratch[0], scratch[1], scratch[2], x, y, z);
        continue;
      }
      // The subtree may hold a nearer triangle: search it, its children and triangles taking its place.
      frontier.retire(i);
      this.best = best; this.bestSlot = bestSlot; this.bestV = bestV; this.bestW = bestW; this.bestRegion = bestRegion;
      this.search(frontier.ref[i], frontier.count[i], entry, d2, x, y, z, true);
      best = this.best; bestDist = Math.sqrt(best); bestSlot = this.bestSlot; bestV = this.bestV; bestW = this.bestW; bestRegion = this.bestRegion;
    }
    if (frontier.looseMin - step <= bestDist) {
      const { looseLower } = frontier;
      frontier.looseMin = Infinity;
      // Downwards, so that the item moved into a removed one's place has been seen already (or is new).
      for (let i = frontier.looseSize - 1; i >= 0; i--) {
        const lower = looseLower[i];
        if (lower - step > bestDist) {
          if (lower < frontier.looseMin) frontier.looseMin = lower;
          continue;
        }
        const ref = frontier.looseRef[i], count = frontier.looseCount[i], entry = frontier.looseEntry[i];
        frontier.removeLoose(i);
        const d2 = this.subtreeOffset(entry, x, y, z);
        if (d2 > best) {
          frontier.addLinearSubtree(ref, count, entry, scratch[0], scratch[1], scratch[2], x, y, z);
          continue;
        }
        this.best = best; this.bestSlot = bestSlot; this.bestV = bestV; this.bestW = bestW; this.bestRegion = bestRegion;
        this.search(ref, count, entry, d2, x, y, z, true);
        best = this.best; bestDist = Math.sqrt(best); bestSlot = this.bestSlot; bestV = this.bestV; bestW = this.bestW; bestRegion = this.bestRegion;
      }
    }
    return this.answer(bestSlot, best, bestV, bestW, bestRegion, x, y, z, out);
  }

  /**
   * Searches the subtree (ref, count) of child entry `entry` (-1: the root), `distance2` from the query, for
   * triangles nearer than this.best, updating it; with `record`, adds the triangles tested and the subtrees
   * ruled out to the frontier.
   */
  private search(ref0: number, count0: number, entry0: number, distance2: number, x: number, y: number, z: number, record: boolean): void {
    const { triangles, scratch, stackRef, stackCount, stackEntry, stackDist, frontier } = this;
    const { boxes, refs, childOriented, oriented } = this.tree;
    let best = this.best, bestSlot = this.bestSlot, bestV = this.bestV, bestW = this.bestW, bestRegion = this.bestRegion;
    stackRef[0] = ref0;
    stackCount[0] = count0;
    stackEntry[0] = entry0;
    stackDist[0] = distance2;
    let top = 1;
    while (top > 0) {
      top--;
      let ref = stackRef[top], count = stackCount[top], entry = stackEntry[top];
      if (stackDist[top] > best) {
        if (record) frontier.addLooseSubtree(ref, count, entry, Math.sqrt(stackDist[top]), x, y, z);
        continue;
      }
      // Descend towards the nearer child without a trip through the stack; the farther one waits there.
      for (;;) {
        if (count > 0) {
          for (let slot = ref, end = ref + count; slot < end; slot++) {
            const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
            if (d2 < best || (d2 === best && bestSlot < 0)) {
              best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
            }
            if (!record) continue;
            this.triangleOffset(slot, x, y, z);
            frontier.addTriangle(slot, scratch[0], scratch[1], scratch[2], x, y, z);
          }
          break;
        }
        const o = RECORD * ref;
        let dl = boxDistance2(boxes, o, x, y, z), dr = boxDistance2(boxes, o + 6, x, y, z);
        // Small subtrees also have a thin oriented box: worth its cost only once the axis-aligned one lets the child through.
        const left = childOriented[2 * ref], right = childOriented[2 * ref + 1];
        if (left >= 0 && dl <= best) dl = Math.max(dl, orientedBoxDistance2(oriented, ORIENTED_BOX_STRIDE * left, x, y, z));
        if (right >= 0 && dr <= best) dr = Math.max(dr, orientedBoxDistance2(oriented, ORIENTED_BOX_STRIDE * right, x, y, z));
        const near = dl <= dr ? 0 : 1, nearDist = near === 0 ? dl : dr, farDist = near === 0 ? dr : dl;
        if (farDist <= best) {
          stackRef[top] = refs[o + 13 - near];
          stackCount[top] = refs[o + 15 - near];
          stackEntry[top] = 2 * ref + 1 - near;
          stackDist[top++] = farDist;
        } else if (record) frontier.addLooseSubtree(refs[o + 13 - near], refs[o + 15 - near], 2 * ref + 1 - near, Math.sqrt(farDist), x, y, z);
        if (nearDist > best) {
          if (record) frontier.addLooseSubtree(refs[o + 12 + near], refs[o + 14 + near], 2 * ref + near, Math.sqrt(nearDist), x, y, z);
          break;
        }
        entry = 2 * ref + near;
        ref = refs[o + 12 + near];
        count = refs[o + 14 + near];
      }
    }
    this.best = best; this.bestSlot = bestSlot; this.bestV = bestV; this.bestW = bestW; this.bestRegion = bestRegion;
  }

  /** Replaces the weights closestOnTriangle left in scratch by the offset of (x, y, z) from that closest point of triangle `slot`. */
  private triangleOffset(slot: number, x: number, y: number, z: number): void {
    const { triangles, scratch } = this;
    const o = slot * TRIANGLE_STRIDE;
    const v = scratch[0], w = scratch[1], u = 1 - v - w;
    scratch[0] = x - (u * triangles[o] + v * triangles[o + 3] + w * triangles[o + 6]);
    scratch[1] = y - (u * triangles[o + 1] + v * triangles[o + 4] + w * triangles[o + 7]);
    scratch[2] = z - (u * triangles[o + 2] + v * triangles[o + 5] + w * triangles[o + 8]);
  }

  /**
   * Squared distance from (x, y, z) to the bounds of child entry `entry` (-1: the root): the larger of its
   * box's and, if it has one, its oriented box's. Writes the offset from the nearest point of that bound to scratch.
   */
  private subtreeOffset(entry: number, x: number, y: number, z: number): number {
    const { scratch } = this;
    const boxes = entry < 0 ? this.tree.rootBox : this.tree.boxes;
    const o = entry < 0 ? 0 : RECORD * (entry >> 1) + 6 * (entry & 1);
    const ox = x - Math.min(Math.max(x, boxes[o]), boxes[o + 3]);
    const oy = y - Math.min(Math.max(y, boxes[o + 1]), boxes[o + 4]);
    const oz = z - Math.min(Math.max(z, boxes[o + 2]), boxes[o + 5]);
    const d2 = ox * ox + oy * oy + oz * oz;
    const ob = entry < 0 ? -1 : this.tree.childOriented[entry];
    if (ob >= 0) {
      const od2 = orientedBoxOffset(this.tree.oriented, ORIENTED_BOX_STRIDE * ob, x, y, z, scratch);
      if (od2 > d2) return od2;
    }
    scratch[0] = ox;
    scratch[1] = oy;
    scratch[2] = oz;
    return d2;
  }

  /** Writes the closest point found (slot, squared distance, weights of b and c, region) into out. */
  private answer(bestSlot: number, best: number, bestV: number, bestW: number, bestRegion: number, x: number, y: number, z: number, out: ClosestPoint): boolean {
    if (bestSlot < 0) return false;
    const { triangles } = this;
    const o = bestSlot * TRIANGLE_STRIDE;
    const wa = 1 - bestV - bestW;
    out.triangle = this.tree.order[bestSlot];
    out.wa = wa;
    out.wb = bestV;
    out.wc = bestW;
    out.x = wa * triangles[o] + bestV * triangles[o + 3] + bestW * triangles[o + 6];
    out.y = wa * triangles[o + 1] + bestV * triangles[o + 4] + bestW * triangles[o + 7];
    out.z = wa * triangles[o + 2] + bestV * triangles[o + 5] + bestW * triangles[o + 8];
    out.distance = Math.sqrt(best);
    out.inside = this.offsetAlongNormal(out.triangle, bestRegion, x - out.x, y - out.y, z - out.z) < 0;
    return true;
  }

  /** Whether (x, y, z) is inside the mesh, judged at its closest point (closed meshes). */
  contains(x: number, y: number, z: number): boolean {
    const hit = emptyClosestPoint();
    return this.closestPoint(x, y, z, hit) && hit.inside;
  }

  private offsetAlongNormal(t: number, region: Region, dx: number, dy: number, dz: number): number {
    const { face, edge, vertex } = this.normals;
    let array: Float64Array, o: number;
    if (region === Region.Face) {
      array = face; o = 3 * t;
    } else if (region >= Region.EdgeAB) {
      array = edge; o = 9 * t + 3 * (region - Region.EdgeAB);
    } else {
      array = vertex; o = 3 * this.corners[3 * t + region - Region.VertexA];
    }
    return dx * array[o] + dy * array[o + 1] + dz * array[o + 2];
  }
}

/**
 * Frontier items: a search from the root leaves a few dozen on head meshes, and each later query adds the
 * few it opens; past FRONTIER_REFRESH, passing over them all costs more than a new search from the root.
 */
const FRONTIER_CAPACITY = 512;
const FRONTIER_REFRESH = 96;

/**
 * How far a query may be from the frontier's anchor and still use it: a quarter of the anchor's distance
 * from the mesh plus two mean triangle edges. Farther, its bounds have loosened enough that a search from
 * the root costs less (tuned on the deformation bench).
 */
const REACH_DISTANCE = 0.25;
const REACH_EDGES = 2;

/** The corners of each triangle, in leaf order (the layout closest-on-triangle.ts reads). */
function leafTriangles(order: Uint32Array, positions: ArrayLike<number>, indices: Uint32Array): Float32Array {
  const triangles = new Float32Array(TRIANGLE_STRIDE * order.length);
  for (let slot = 0; slot < order.length; slot++) {
    const t = order[slot];
    for (let k = 0; k < 3; k++) {
      const v = 3 * indices[3 * t + k];
      triangles[TRIANGLE_STRIDE * slot + 3 * k] = positions[v];
      triangles[TRIANGLE_STRIDE * slot + 3 * k + 1] = positions[v + 1];
      triangles[TRIANGLE_STRIDE * slot + 3 * k + 2] = positions[v + 2];
    }
  }
  return triangles;
}

/** Mean edge length of the stored triangles. */
function meanEdge(triangles: Float32Array): number {
  let sum = 0;
  for (let o = 0; o < triangles.length; o += TRIANGLE_STRIDE) {
    for (let k = 0; k < 3; k++) {
      const a = o + 3 * k, b = o + 3 * ((k + 1) % 3);
      const dx = triangles[b] - triangles[a], dy = triangles[b + 1] - triangles[a + 1], dz = triangles[b + 2] - triangles[a + 2];
      sum += Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return sum / (triangles.length / 3);
}

/** Squared distance from (x, y, z) to the box min xyz, max xyz stored at boxes[o..o+5]. */
function boxDistance2(boxes: Float32Array, o: number, x: number, y: number, z: number): number {
  let d = 0;
  const lx = boxes[o] - x, hx = x - boxes[o + 3];
  const ly = boxes[o + 1] - y, hy = y - boxes[o + 4];
  const lz = boxes[o + 2] - z, hz = z - boxes[o + 5];
  // Plain branches: V8 compiles Math.max(a, 0, b) to a slower NaN- and sign-aware sequence.
  if (lx > 0) d += lx * lx;
  else if (hx > 0) d += hx * hx;
  if (ly > 0) d += ly * ly;
  else if (hy > 0) d += hy * hy;
  if (lz > 0) d += lz * lz;
  else if (hz > 0) d += hz * hz;
  return d;
}
