import type { MeshData } from '../../model/avatar.ts';
import { boundaryLoops, halfEdgeCounts } from './adjacency.ts';
import { overlappingPairs, overlappingPairsWith, sortInGridOrder, triangleBoxes } from './box-grid.ts';
import { weldMap } from './weld.ts';
import { trianglesIntersect, trianglesOverlap2d } from './triangle-tests.ts';

export interface MeshCheckOptions {
  /** Boundary loops that may stay open (e.g. the neck cut), as vertex lists in any order. */
  openBoundaries?: readonly (readonly number[])[];
}

export interface MeshCheckReport {
  /** No boundary loops other than the allowed ones. */
  closed: boolean;
  /** Every edge has at most two triangles, used in opposite directions, and every vertex has one fan. */
  manifold: boolean;
  /** Triangles wind counter-clockwise from outside: the enclosed volume (open loops capped) is positive. */
  outwardFacing: boolean;
  /** Pairs of triangles that cut through each other (touching at shared vertices or edges does not count). */
  selfIntersections: number;
  /** Triangles with (nearly) zero area. */
  degenerateTriangles: number;
  /** Vertices with a UV coordinate outside [0,1]. */
  uvOutOfRange: number;
  /** Pairs of triangles whose UV interiors overlap, plus triangles mirrored or collapsed in UV. */
  uvOverlaps: number;
  /** All boundary loops, allowed ones included. */
  boundaryLoops: number;
}

/** Smallest area (cm^2) of a triangle that counts as not degenerate. */
const MIN_AREA = 1e-7;
/** Tolerance of the intersection tests, relative (barycentric and segment parameters). */
const TOUCH_EPS = 1e-6;
/** Overlap in UV units below which two UV triangles only touch. */
const UV_EPS = 1e-9;

/** Geometric and topological checks shared by the template tests, the pipeline and the quality tool. */
export function checkMesh(mesh: Pick<MeshData, 'positions' | 'uvs' | 'indices'>, options: MeshCheckOptions = {}): MeshCheckReport {
  const { positions, uvs } = mesh;
  // Topology is judged with vertices at identical positions welded: a UV seam does not open a mesh.
  const weld = weldMap(positions);
  const indices = Uint32Array.from(mesh.indices, (v) => weld[v]);
  const loops = boundaryLoops(indices);
  const allowed = new Set((options.openBoundaries ?? []).map((l) => loopSignature(l.map((v) => weld[v]))));
  return {
    closed: loops.every((l) => allowed.has(loopSignature(l))),
    manifold: isManifold(positions.length / 3, indices),
    outwardFacing: cappedVolume(positions, indices, loops) > 0,
    selfIntersections: countSelfIntersections(positions, indices),
    degenerateTriangles: countDegenerate(positions, indices),
    uvOutOfRange: countUvOutOfRange(uvs),
    uvOverlaps: countUvOverlaps(uvs, mesh.indices),
    boundaryLoops: loops.length,
  };
}

function loopSignature(loop: readonly number[]): string {
  return [...loop].sort((a, b) => a - b).join(',');
}

function isManifold(vertexCount: number, indices: ArrayLike<number>): boolean {
  for (const count of halfEdgeCounts(indices).values()) if (count > 1) return false;
  // One fan per vertex: the corners around a vertex, linked across shared edges, form one chain.
  const corners: number[][] = Array.from({ length: vertexCount }, () => []);
  for (let t = 0; t < indices.length; t += 3) for (let k = 0; k < 3; k++) corners[indices[t + k]].push(t);
  for (let v = 0; v < vertexCount; v++) {
    const tris = corners[v];
    if (tris.length === 0) continue;
    // Around v, triangle t is followed by the one whose incoming edge is t's outgoing edge.
    const outgoing = new Map<number, number>();
    const byIncoming = new Map<number, number>();
    const incomingOf = new Map<number, number>();
    for (const t of tris) {
      const k = [0, 1, 2].find((i) => indices[t + i] === v)!;
      const next = indices[t + ((k + 1) % 3)], prev = indices[t + ((k + 2) % 3)];
      outgoing.set(next, t);
      byIncoming.set(prev, t);
      incomingOf.set(t, prev);
    }
    const nextOf = (t: number) => indices[t + (([0, 1, 2].find((i) => indices[t + i] === v)! + 1) % 3)];
    // Start where the fan has a border (an incoming edge without twin), if it has one.
    let start = tris[0];
    for (const t of tris) if (!outgoing.has(incomingOf.get(t)!)) start = t;
    let visited = 0;
    for (let t: number | undefined = start; t !== undefined && visited <= tris.length; ) {
      visited++;
      t = byIncoming.get(nextOf(t));
      if (t === start) break;
    }
    if (visited !== tris.length) return false;
  }
  return true;
}

/** Signed volume, each open loop capped by a fan around its centroid. */
function cappedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>, loops: number[][]): number {
  let volume = 0;
  const addTriangle = (a: number[], b: number[], c: number[]) => {
    volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  };
  const p = (i: number) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
  for (let t = 0; t < indices.length; t += 3) addTriangle(p(indices[t]), p(indices[t + 1]), p(indices[t + 2]));
  for (const loop of loops) {
    const c = [0, 0, 0];
    for (const v of loop) for (let k = 0; k < 3; k++) c[k] += positions[3 * v + k] / loop.length;
    for (let i = 0; i < loop.length; i++) addTriangle(p(loop[(i + 1) % loop.length]), p(loop[i]), c);
  }
  return volume;
}

function meanEdge(coords: ArrayLike<number>, dims: number, indices: ArrayLike<number>): number {
  let sum = 0;
  for (let t = 0; t < indices.length; t += 3) {
    let d2 = 0;
    for (let k = 0; k < dims; k++) d2 += (coords[indices[t] * dims + k] - coords[indices[t + 1] * dims + k]) ** 2;
    sum += Math.sqrt(d2);
  }
  return sum / Math.max(1, indices.length / 3);
}

function countSelfIntersections(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let count = 0;
  forEachSelfIntersection(positions, indices, 2 * meanEdge(positions, 3, indices) || 1, () => count++);
  return count;
}

/**
 * Calls `visit(i, j)` for every pair of triangles (ids into `indices` / 3) that cut through each other, in the
 * order `overlappingPairs` finds them; neighbours across an edge only touch and are not tested. `cellSize`
 * is the grid's (about twice the mean edge).
 */
export function forEachSelfIntersection(positions: ArrayLike<number>, indices: ArrayLike<number>, cellSize: number, visit: (i: number, j: number) => void): void {
  const crossing = new CrossingTest(positions, indices);
  overlappingPairs(triangleBoxes(positions, 3, indices), 3, cellSize, (i, j) => {
    if (crossing.cuts(i, j)) visit(i, j);
  });
}

/**
 * Do triangles i and j (ids into `indices` / 3) cut through each other? Neighbours across an edge only touch. A class,
 * not a closure made per test: a closure's optimised code died with it and was compiled again on every avatar.
 */
export class CrossingTest {
  private readonly a = [0, 0, 0];
  private readonly b = [0, 0, 0];
  constructor(
    private readonly positions: ArrayLike<number>,
    private readonly indices: ArrayLike<number>,
  ) {}

  cuts(i: number, j: number): boolean {
    const { a, b, indices } = this;
    for (let k = 0; k < 3; k++) {
      a[k] = 3 * indices[3 * i + k];
      b[k] = 3 * indices[3 * j + k];
    }
    let shared = 0;
    for (let k = 0; k < 3; k++) if (a[k] === b[0] || a[k] === b[1] || a[k] === b[2]) shared++;
    return shared < 2 && trianglesIntersect(this.positions, a, b, TOUCH_EPS);
  }
}

/**
 * `forEachSelfIntersection` for walks repeated over the same triangles while a few vertices move (folds
 * being relaxed): only pairs with a triangle that moved since the last walk are tested, the others keep
 * their last answer (the test reads nothing but the six corners' coordinates, compared bit for bit), and
 * the pairs are put in the order a fresh walk finds them; with nothing moved the last pairs are replayed.
 */
export class SelfIntersectionWalk {
  private positions = new Uint32Array(0);
  private indices = new Uint32Array(0);
  private cellSize = NaN;
  /** The last walk's intersecting pairs, as i * triangle count + j, in the order visited. */
  private pairs: number[] = [];

  run(positions: Float32Array, indices: Uint32Array, cellSize: number, visit: (i: number, j: number) => void): void {
    const count = indices.length / 3;
    const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
    let same = bits.length === this.positions.length && indices.length === this.indices.length;
    for (let k = 0; same && k < indices.length; k++) same = indices[k] === this.indices[k];
    const moved = new Uint8Array(count);
    let movedCount = 0;
    for (let t = 0; same && t < count; t++) {
      for (let k = 0; k < 3 && !moved[t]; k++) {
        const v = indices[3 * t + k] * 3;
        if (bits[v] !== this.positions[v] || bits[v + 1] !== this.positions[v + 1] || bits[v + 2] !== this.positions[v + 2]) moved[t] = 1;
      }
      movedCount += moved[t];
    }
    const anyMoved = !same || movedCount > 0;
    let pairs: number[];
    // With most triangles moved a fresh walk is cheaper than finding the moved ones' pairs box by box.
    if (!same || movedCount * FRESH_WALK_SHARE > count) {
      pairs = [];
      forEachSelfIntersection(positions, indices, cellSize, (i, j) => pairs.push(i * count + j));
    } else if (anyMoved || cellSize !== this.cellSize) {
      pairs = this.pairs.filter((p) => !moved[Math.floor(p / count)] && !moved[p % count]);
      const boxes = triangleBoxes(positions, 3, indices);
      const crossing = new CrossingTest(positions, indices);
      const candidates = overlappingPairsWith(boxes, 3, cellSize, moved);
      for (let c = 0; c < candidates.length; c += 2) {
        const i = candidates[c], j = candidates[c + 1];
        if (crossing.cuts(i, j)) pairs.push(i * count + j);
      }
      sortInGridOrder(boxes, 3, cellSize, pairs);
    } else pairs = this.pairs;
    this.positions = bits.slice();
    this.indices = indices.slice();
    this.cellSize = cellSize;
    this.pairs = pairs;
    for (const p of pairs) visit(Math.floor(p / count), p % count);
  }
}

/** A walk starts afresh when more than 1 / FRESH_WALK_SHARE of its triangles moved. */
const FRESH_WALK_SHARE = 2;

/** Pairs of triangles, one from each mesh, that cut through each other. */
export function countIntersectionsBetween(a: Pick<MeshData, 'positions' | 'indices'>, b: Pick<MeshData, 'positions' | 'indices'>): number {
  const na = a.positions.length / 3;
  const positions = new Float32Array(a.positions.length + b.positions.length);
  positions.set(a.positions);
  positions.set(b.positions, a.positions.length);
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(a.indices);
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = b.indices[i] + na;
  const firstOfB = a.indices.length / 3;
  let count = 0;
  const tri = (t: number) => [3 * indices[3 * t], 3 * indices[3 * t + 1], 3 * indices[3 * t + 2]];
  overlappingPairs(triangleBoxes(positions, 3, indices), 3, 2 * meanEdge(positions, 3, indices) || 1, (i, j) => {
    if (i < firstOfB === j < firstOfB) return;
    if (trianglesIntersect(positions, tri(i), tri(j), TOUCH_EPS)) count++;
  });
  return count;
}

function countDegenerate(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let count = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const area = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2;
    if (!(area >= MIN_AREA)) count++;
  }
  return count;
}

function countUvOutOfRange(uvs: ArrayLike<number>): number {
  let count = 0;
  for (let i = 0; i < uvs.length; i += 2) if (!(uvs[i] >= 0 && uvs[i] <= 1 && uvs[i + 1] >= 0 && uvs[i + 1] <= 1)) count++;
  return count;
}

function countUvOverlaps(uvs: ArrayLike<number>, indices: ArrayLike<number>): number {
  let count = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = 2 * indices[t], b = 2 * indices[t + 1], c = 2 * indices[t + 2];
    const area = (uvs[b] - uvs[a]) * (uvs[c + 1] - uvs[a + 1]) - (uvs[c] - uvs[a]) * (uvs[b + 1] - uvs[a + 1]);
    if (!(area > 0)) count++; // mirrored or collapsed: it overlaps its neighbours
  }
  const boxes = triangleBoxes(uvs, 2, indices);
  const tri = (t: number) => [2 * indices[3 * t], 2 * indices[3 * t + 1], 2 * indices[3 * t + 2]];
  overlappingPairs(boxes, 2, 2 * meanEdge(uvs, 2, indices) || 1, (i, j) => {
    if (trianglesOverlap2d(uvs, tri(i), tri(j), UV_EPS)) count++;
  });
  return count;
}
