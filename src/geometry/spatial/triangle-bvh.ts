import { Region, TRIANGLE_STRIDE, closestOnTriangle } from './closest-on-triangle.ts';
import { RECORD, buildHierarchy, type Hierarchy } from './bvh-build.ts';
import { ORIENTED_BOX_STRIDE, orientedBoxDistance2 } from './oriented-box.ts';
import { pseudonormals, type Pseudonormals } from './pseudonormals.ts';

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
 * state (the stack, the last search's leaves), so one index serves one thread.
 * Geometry is kept in float32, the precision of MeshData; arithmetic is in double precision.
 */
export class TriangleBvh {
  private readonly scratch = new Float64Array(3);
  private readonly stackRef: Uint32Array;
  private readonly stackCount: Uint32Array;
  private readonly stackDist: Float64Array;
  private readonly triangleSlot: Uint32Array;
  /**
   * The last search's leaves (first slot, count) and a lower bound on the distance from its query point to
   * every other triangle: the next query, a short step away, tests these leaves and skips the search when
   * its best answer among them is nearer than that bound less the step. `cachedLeaves` < 0: none.
   */
  private readonly cacheStart = new Uint32Array(CACHE_LEAVES);
  private readonly cacheCount = new Uint32Array(CACHE_LEAVES);
  private cachedLeaves = -1;
  private cacheBound = 0;
  private cacheX = 0;
  private cacheY = 0;
  private cacheZ = 0;
  /** Per slot, the query that last tested the leaf starting there (its triangles need no second test). */
  private readonly testedBy: Uint32Array;
  private query = 0;

  private constructor(
    private readonly tree: Hierarchy,
    /** Corners of the triangles in leaf order (see closest-on-triangle.ts). */
    private readonly triangles: Float32Array,
    private readonly corners: Uint32Array,
    private readonly normals: Pseudonormals,
  ) {
    this.triangleSlot = new Uint32Array(tree.order.length);
    tree.order.forEach((t, slot) => (this.triangleSlot[t] = slot));
    this.stackRef = new Uint32Array(tree.depth + 2);
    this.stackCount = new Uint32Array(tree.depth + 2);
    this.stackDist = new Float64Array(tree.depth + 2);
    this.testedBy = new Uint32Array(tree.order.length);
  }

  get triangleCount(): number {
    return this.triangleSlot.length;
  }

  static build(positions: ArrayLike<number>, indices: ArrayLike<number>): TriangleBvh {
    const triangleCount = indices.length / 3;
    if (!Number.isInteger(triangleCount) || triangleCount === 0) throw new RangeError('the mesh needs at least one triangle');
    const tree = buildHierarchy(positions, indices);
    const triangles = new Float32Array(TRIANGLE_STRIDE * triangleCount);
    tree.order.forEach((t, slot) => {
      for (let k = 0; k < 3; k++) {
        const v = 3 * indices[3 * t + k];
        triangles[TRIANGLE_STRIDE * slot + 3 * k] = positions[v];
        triangles[TRIANGLE_STRIDE * slot + 3 * k + 1] = positions[v + 1];
        triangles[TRIANGLE_STRIDE * slot + 3 * k + 2] = positions[v + 2];
      }
    });
    return new TriangleBvh(tree, triangles, Uint32Array.from(indices), pseudonormals(positions, indices));
  }

  /**
   * Finds the point of the mesh closest to (x, y, z) no farther than maxDistance and writes it into out;
   * false when there is none that near. `hint`, a triangle likely to be close (e.g. the answer for the
   * previous point of a coherent sequence), only speeds the search up, as does querying points in a
   * coherent order (a query a short step from the last searched one is often settled by that search's
   * leaves alone: 40 % of the deformation bench's queries, in Morton order); answers never depend on either.
   */
  closestPoint(x: number, y: number, z: number, out: ClosestPoint, maxDistance = Infinity, hint = -1): boolean {
    const { triangles, scratch, stackRef, stackCount, stackDist } = this;
    const { boxes, refs, childOriented, oriented } = this.tree;
    let best = maxDistance * maxDistance;
    let bestSlot = -1, bestV = 0, bestW = 0, bestRegion = 0;
    if (hint >= 0 && hint < this.triangleSlot.length) {
      const slot = this.triangleSlot[hint];
      const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
      if (d2 <= best) {
        best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
      }
    }
    const { testedBy, cacheStart, cacheCount } = this;
    if (++this.query === 0xffffffff) {
      testedBy.fill(0);
      this.query = 1;
    }
    const query = this.query;
    if (this.cachedLeaves >= 0) {
      for (let leaf = 0; leaf < this.cachedLeaves; leaf++) {
        const start = cacheStart[leaf];
        testedBy[start] = query;
        for (let slot = start, end = start + cacheCount[leaf]; slot < end; slot++) {
          const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
          if (d2 < best || (d2 === best && bestSlot < 0)) {
            best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
          }
        }
      }
      // Distances to a set change by at most the step: every other triangle is at least this far.
      const step = Math.sqrt((x - this.cacheX) ** 2 + (y - this.cacheY) ** 2 + (z - this.cacheZ) ** 2);
      if (Math.sqrt(best) < this.cacheBound - step) return this.answer(bestSlot, best, bestV, bestW, bestRegion, x, y, z, out);
    }
    // The search records the leaves it opens and the nearest bound it ruled out, for the next query.
    let leaves = 0, ruledOut = Infinity;
    let top = 0;
    const rootDist = boxDistance2(this.tree.rootBox, 0, x, y, z);
    if (rootDist <= best) {
      stackRef[0] = this.tree.rootRef;
      stackCount[0] = this.tree.rootCount;
      stackDist[0] = rootDist;
      top = 1;
    } else ruledOut = rootDist;
    while (top > 0) {
      top--;
      if (stackDist[top] > best) {
        ruledOut = Math.min(ruledOut, stackDist[top]);
        continue;
      }
      let ref = stackRef[top], count = stackCount[top];
      // Descend towards the nearer child without a trip through the stack; the farther one waits there.
      for (;;) {
        if (count > 0) {
          if (leaves < CACHE_LEAVES) {
            cacheStart[leaves] = ref;
            cacheCount[leaves] = count;
          }
          leaves++;
          if (testedBy[ref] === query) break;
          testedBy[ref] = query;
          for (let slot = ref, end = ref + count; slot < end; slot++) {
            const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
            if (d2 < best || (d2 === best && bestSlot < 0)) {
              best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
            }
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
          stackDist[top++] = farDist;
        } else ruledOut = Math.min(ruledOut, farDist);
        if (nearDist > best) {
          ruledOut = Math.min(ruledOut, nearDist);
          break;
        }
        ref = refs[o + 12 + near];
        count = refs[o + 14 + near];
      }
    }
    this.cachedLeaves = leaves <= CACHE_LEAVES ? leaves : -1;
    this.cacheBound = Math.sqrt(ruledOut);
    this.cacheX = x;
    this.cacheY = y;
    this.cacheZ = z;
    return this.answer(bestSlot, best, bestV, bestW, bestRegion, x, y, z, out);
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

/** Most leaves a search may open and still be reused by the next query (heads need a handful). */
const CACHE_LEAVES = 32;

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
