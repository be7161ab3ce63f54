/**
 * Angle-weighted pseudonormals (Bærentzen and Aanæs 2005): for the closest point q of p on a closed
 * mesh, p is inside exactly when (p - q) . n < 0, with n the face normal when q lies inside a face,
 * the sum of the face normals at the edge when q lies on an edge, and the angle-weighted sum of the
 * face normals around a vertex when q is a vertex. Plain face normals give wrong signs near edges and corners.
 */
export interface Pseudonormals {
  /** Unit normal per triangle (counter-clockwise corners seen from outside). */
  face: Float64Array;
  /** Angle-weighted normal per vertex (unnormalised; zero for a vertex no triangle uses). */
  vertex: Float64Array;
  /** Per triangle, three xyz normals for its edges ab, bc, ca (unnormalised; only their direction is used). */
  edge: Float64Array;
}

/** `mates`: the mesh's edges (edgeMates), which depend on its triangles only and can be kept for moved vertices. */
export function pseudonormals(positions: ArrayLike<number>, indices: ArrayLike<number>, mates = edgeMates(indices, positions.length / 3)): Pseudonormals {
  const { face, vertex } = angleWeightedNormals(positions, indices);
  return { face, vertex, edge: edgeNormals(face, mates) };
}

/** Unit face normals and angle-weighted vertex normals (unnormalised) of an indexed triangle mesh. */
export function angleWeightedNormals(positions: ArrayLike<number>, indices: ArrayLike<number>): { face: Float64Array; vertex: Float64Array } {
  const triangles = indices.length / 3;
  const face = new Float64Array(3 * triangles);
  const vertex = new Float64Array(positions.length);
  for (let t = 0; t < triangles; t++) {
    const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
    const abx = positions[b] - positions[a], aby = positions[b + 1] - positions[a + 1], abz = positions[b + 2] - positions[a + 2];
    const bcx = positions[c] - positions[b], bcy = positions[c + 1] - positions[b + 1], bcz = positions[c + 2] - positions[b + 2];
    const cax = positions[a] - positions[c], cay = positions[a + 1] - positions[c + 1], caz = positions[a + 2] - positions[c + 2];
    // ab × ac with ac = -ca.
    let nx = aby * -caz + abz * cay, ny = abz * -cax + abx * caz, nz = abx * -cay + aby * cax;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
    nx /= len;
    ny /= len;
    nz /= len;
    face[3 * t] = nx;
    face[3 * t + 1] = ny;
    face[3 * t + 2] = nz;
    // Interior angle at each corner, between the edge leaving it and the reversed edge arriving.
    const angleA = angleBetween(abx, aby, abz, -cax, -cay, -caz);
    const angleB = angleBetween(bcx, bcy, bcz, -abx, -aby, -abz);
    const angleC = Math.max(0, Math.PI - angleA - angleB);
    addScaled(vertex, a, angleA, nx, ny, nz);
    addScaled(vertex, b, angleB, nx, ny, nz);
    addScaled(vertex, c, angleC, nx, ny, nz);
  }
  return { face, vertex };
}

/** Per triangle corner k (edge k runs from it to the next corner), the corners whose edges join the same two vertices, itself included. */
export interface EdgeMates {
  /** Corner k's mates are mates[start[k]] .. mates[start[k + 1] - 1]. */
  start: Uint32Array;
  mates: Uint32Array;
}

/**
 * Edges are matched by their vertex pair through buckets keyed by the smaller vertex (a vertex has only a
 * handful of edges).
 */
export function edgeMates(indices: ArrayLike<number>, vertexCount: number): EdgeMates {
  const corners = indices.length;
  const first = new Uint32Array(vertexCount + 1);
  for (let k = 0; k < corners; k++) first[Math.min(indices[k], indices[nextCorner(k)]) + 1]++;
  for (let v = 0; v < vertexCount; v++) first[v + 1] += first[v];
  const fill = first.slice(0, vertexCount);
  const bucket = new Uint32Array(corners);
  for (let k = 0; k < corners; k++) bucket[fill[Math.min(indices[k], indices[nextCorner(k)])]++] = k;
  const start = new Uint32Array(corners + 1);
  const found: number[] = [];
  for (let k = 0; k < corners; k++) {
    const v = Math.min(indices[k], indices[nextCorner(k)]), other = Math.max(indices[k], indices[nextCorner(k)]);
    for (let j = first[v]; j < first[v + 1]; j++) {
      const m = bucket[j];
      if (Math.max(indices[m], indices[nextCorner(m)]) === other) found.push(m);
    }
    start[k + 1] = found.length;
  }
  return { start, mates: Uint32Array.from(found) };
}

/** Sum of the normals of the faces at each triangle edge. */
function edgeNormals(face: Float64Array, { start, mates }: EdgeMates): Float64Array {
  const corners = start.length - 1;
  const edge = new Float64Array(3 * corners);
  for (let k = 0; k < corners; k++) {
    let x = 0, y = 0, z = 0;
    for (let i = start[k]; i < start[k + 1]; i++) {
      const f = 3 * Math.floor(mates[i] / 3);
      x += face[f];
      y += face[f + 1];
      z += face[f + 2];
    }
    edge[3 * k] = x;
    edge[3 * k + 1] = y;
    edge[3 * k + 2] = z;
  }
  return edge;
}

/** The corner after k in its triangle: corner k and this one bound edge k. */
const nextCorner = (k: number) => (k % 3 === 2 ? k - 2 : k + 1);

function addScaled(target: Float64Array, at: number, s: number, x: number, y: number, z: number): void {
  target[at] += s * x;
  target[at + 1] += s * y;
  target[at + 2] += s * z;
}

function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}
