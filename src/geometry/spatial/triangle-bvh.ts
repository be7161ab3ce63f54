import { Region, TRIANGLE_STRIDE, closestOnTriangle } from './closest-on-triangle.ts';
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

/** Triangles per leaf: small leaves prune best for closest-point queries. */
const LEAF_SIZE = 4;

/** 32 bytes a node, half a cache line: float32 min xyz, max xyz, then uint32 link and count. */
const NODE_FLOATS = 8;

/**
 * Bounding-volume hierarchy over the triangles of an indexed mesh, for closest-point and
 * inside/outside queries. Built once (midpoint split of the longest centroid axis), then read only.
 * Nodes are laid out depth first, an inner node's left child right after it; `link` is the right
 * child of an inner node and the first leaf-order triangle slot of a leaf, `count` its triangle
 * count (0 for an inner node). Geometry is kept in float32, the precision of MeshData.
 */
export class TriangleBvh {
  private readonly scratch = new Float64Array(3);
  private readonly stackNode: Int32Array;
  private readonly stackDist: Float64Array;
  private readonly bounds: Float32Array;
  private readonly links: Uint32Array;

  private constructor(
    nodes: ArrayBuffer,
    /** Corners of the triangles in leaf order (see closest-on-triangle.ts). */
    private readonly triangles: Float32Array,
    /** Original triangle index of each leaf-order slot, and the inverse. */
    private readonly slotTriangle: Uint32Array,
    private readonly triangleSlot: Uint32Array,
    private readonly corners: Uint32Array,
    private readonly normals: Pseudonormals,
    depth: number,
  ) {
    this.bounds = new Float32Array(nodes);
    this.links = new Uint32Array(nodes);
    this.stackNode = new Int32Array(depth + 2);
    this.stackDist = new Float64Array(depth + 2);
  }

  get triangleCount(): number {
    return this.slotTriangle.length;
  }

  static build(positions: ArrayLike<number>, indices: ArrayLike<number>): TriangleBvh {
    const triangleCount = indices.length / 3;
    if (!Number.isInteger(triangleCount) || triangleCount === 0) throw new RangeError('the mesh needs at least one triangle');
    const boxes = new Float64Array(6 * triangleCount);
    const centres = new Float64Array(3 * triangleCount);
    let largest = 0;
    for (let t = 0; t < triangleCount; t++) {
      for (let d = 0; d < 3; d++) {
        const a = positions[3 * indices[3 * t] + d], b = positions[3 * indices[3 * t + 1] + d], c = positions[3 * indices[3 * t + 2] + d];
        const lo = Math.min(a, b, c), hi = Math.max(a, b, c);
        boxes[6 * t + d] = lo;
        boxes[6 * t + 3 + d] = hi;
        centres[3 * t + d] = (lo + hi) / 2;
        largest = Math.max(largest, -lo, hi);
      }
    }
    // Float32 bounds round by at most half an ulp of the largest coordinate: pad them by a whole one.
    const pad = largest * 2 ** -23;
    const order = new Uint32Array(triangleCount).map((_, i) => i);
    const nodeBuffer = new ArrayBuffer(4 * NODE_FLOATS * 2 * triangleCount);
    const bounds = new Float32Array(nodeBuffer);
    const links = new Uint32Array(nodeBuffer);
    let nodes = 0;
    let depth = 0;

    const buildNode = (start: number, end: number, level: number): number => {
      const n = nodes++;
      depth = Math.max(depth, level);
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
      let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
      for (let i = start; i < end; i++) {
        const b = 6 * order[i], c = 3 * order[i];
        if (boxes[b] < x0) x0 = boxes[b];
        if (boxes[b + 1] < y0) y0 = boxes[b + 1];
        if (boxes[b + 2] < z0) z0 = boxes[b + 2];
        if (boxes[b + 3] > x1) x1 = boxes[b + 3];
        if (boxes[b + 4] > y1) y1 = boxes[b + 4];
        if (boxes[b + 5] > z1) z1 = boxes[b + 5];
        if (centres[c] < cx0) cx0 = centres[c];
        if (centres[c + 1] < cy0) cy0 = centres[c + 1];
        if (centres[c + 2] < cz0) cz0 = centres[c + 2];
        if (centres[c] > cx1) cx1 = centres[c];
        if (centres[c + 1] > cy1) cy1 = centres[c + 1];
        if (centres[c + 2] > cz1) cz1 = centres[c + 2];
      }
      const o = NODE_FLOATS * n;
      bounds[o] = x0 - pad;
      bounds[o + 1] = y0 - pad;
      bounds[o + 2] = z0 - pad;
      bounds[o + 3] = x1 + pad;
      bounds[o + 4] = y1 + pad;
      bounds[o + 5] = z1 + pad;
      const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      const extent = Math.max(ex, ey, ez);
      // Triangles with one shared centre cannot be split by position: they stay in one leaf.
      if (end - start <= LEAF_SIZE || extent === 0) {
        links[o + 6] = start;
        links[o + 7] = end - start;
        return n;
      }
      // Both sides are non-empty: the smallest centre lies below mid, the largest at or above it.
      const mid = (axis === 0 ? cx0 : axis === 1 ? cy0 : cz0) + extent / 2;
      let split = start;
      for (let i = start; i < end; i++) {
        const t = order[i];
        if (centres[3 * t + axis] < mid) {
          order[i] = order[split];
          order[split++] = t;
        }
      }
      buildNode(start, split, level + 1);
      links[o + 6] = buildNode(split, end, level + 1);
      links[o + 7] = 0;
      return n;
    };
    buildNode(0, triangleCount, 0);

    const triangles = new Float32Array(TRIANGLE_STRIDE * triangleCount);
    const triangleSlot = new Uint32Array(triangleCount);
    for (let slot = 0; slot < triangleCount; slot++) {
      const t = order[slot];
      triangleSlot[t] = slot;
      for (let k = 0; k < 3; k++) {
        const v = 3 * indices[3 * t + k];
        triangles[TRIANGLE_STRIDE * slot + 3 * k] = positions[v];
        triangles[TRIANGLE_STRIDE * slot + 3 * k + 1] = positions[v + 1];
        triangles[TRIANGLE_STRIDE * slot + 3 * k + 2] = positions[v + 2];
      }
    }
    return new TriangleBvh(
      nodeBuffer.slice(0, 4 * NODE_FLOATS * nodes), triangles, order, triangleSlot,
      Uint32Array.from(indices), pseudonormals(positions, indices), depth,
    );
  }

  /**
   * Finds the point of the mesh closest to (x, y, z) no farther than maxDistance and writes it into out;
   * false when there is none that near. `hint`, a triangle likely to be close (e.g. the answer for the
   * previous point of a coherent sequence), only speeds the search up.
   */
  closestPoint(x: number, y: number, z: number, out: ClosestPoint, maxDistance = Infinity, hint = -1): boolean {
    const { bounds, links, triangles, scratch, stackNode, stackDist } = this;
    let best = maxDistance * maxDistance;
    let bestSlot = -1, bestV = 0, bestW = 0, bestRegion = 0;
    if (hint >= 0 && hint < this.triangleSlot.length) {
      const slot = this.triangleSlot[hint];
      const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
      if (d2 <= best) {
        best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
      }
    }
    let top = 0;
    const rootDist = boxDistance2(bounds, 0, x, y, z);
    if (rootDist <= best) {
      stackNode[0] = 0;
      stackDist[0] = rootDist;
      top = 1;
    }
    while (top > 0) {
      top--;
      if (stackDist[top] > best) continue;
      const o = NODE_FLOATS * stackNode[top];
      const leafCount = links[o + 7];
      if (leafCount > 0) {
        for (let slot = links[o + 6], end = slot + leafCount; slot < end; slot++) {
          const d2 = closestOnTriangle(triangles, slot * TRIANGLE_STRIDE, x, y, z, scratch);
          if (d2 < best || (d2 === best && bestSlot < 0)) {
            best = d2; bestSlot = slot; bestV = scratch[0]; bestW = scratch[1]; bestRegion = scratch[2];
          }
        }
        continue;
      }
      const left = stackNode[top] + 1, right = links[o + 6];
      const dl = boxDistance2(bounds, left, x, y, z), dr = boxDistance2(bounds, right, x, y, z);
      // Push the farther child first so that the nearer one is searched first and shrinks `best`.
      const nearFirst = dl <= dr;
      const far = nearFirst ? right : left, farDist = nearFirst ? dr : dl;
      const near = nearFirst ? left : right, nearDist = nearFirst ? dl : dr;
      if (farDist <= best) {
        stackNode[top] = far;
        stackDist[top++] = farDist;
      }
      if (nearDist <= best) {
        stackNode[top] = near;
        stackDist[top++] = nearDist;
      }
    }
    if (bestSlot < 0) return false;
    const o = bestSlot * TRIANGLE_STRIDE;
    const wa = 1 - bestV - bestW;
    out.triangle = this.slotTriangle[bestSlot];
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

function boxDistance2(bounds: Float32Array, n: number, x: number, y: number, z: number): number {
  const o = NODE_FLOATS * n;
  const dx = Math.max(bounds[o] - x, 0, x - bounds[o + 3]);
  const dy = Math.max(bounds[o + 1] - y, 0, y - bounds[o + 4]);
  const dz = Math.max(bounds[o + 2] - z, 0, z - bounds[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}
