/**
 * Angle-weighted pseudonormals (Bærentzen and Aanæs 2005): for the closest point q of p on a closed
 * mesh, p is inside exactly when (p - q) . n < 0, with n the face normal when q lies inside a face,
 * the sum of the face normals at the edge when q lies on an edge, and the angle-weighted sum of the
 * face normals around a vertex when q is a vertex. Plain face normals give wrong signs near edges and corners.
 */
export interface Pseudonormals {
  /** Unit normal per triangle (counter-clockwise corners seen from outside). */
  face: Float64Array;
  /** Per triangle, three xyz normals for its edges ab, bc, ca (unnormalised; only their direction is used). */
  edge: Float64Array;
  /** Angle-weighted normal per vertex (unnormalised). */
  vertex: Float64Array;
}

export function pseudonormals(positions: ArrayLike<number>, indices: ArrayLike<number>): Pseudonormals {
  const triangles = indices.length / 3;
  const vertexCount = positions.length / 3;
  const face = new Float64Array(3 * triangles);
  const vertex = new Float64Array(positions.length);
  // Each corner k of triangle t starts the edge (k, k + 1); edges shared by triangles get one id.
  const edgeIds = new Map<number, number>();
  const cornerEdge = new Uint32Array(3 * triangles);
  const edgeSum = new Float64Array(9 * triangles);
  for (let t = 0; t < triangles; t++) {
    const a = 3 * indices[3 * t], b = 3 * indices[3 * t + 1], c = 3 * indices[3 * t + 2];
    const abx = positions[b] - positions[a], aby = positions[b + 1] - positions[a + 1], abz = positions[b + 2] - positions[a + 2];
    const bcx = positions[c] - positions[b], bcy = positions[c + 1] - positions[b + 1], bcz = positions[c + 2] - positions[b + 2];
    const cax = positions[a] - positions[c], cay = positions[a + 1] - positions[c + 1], caz = positions[a + 2] - positions[c + 2];
    let nx = aby * -caz + abz * cay, ny = abz * -cax + abx * caz, nz = abx * -cay + aby * cax;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
    nx /= len;
    ny /= len;
    nz /= len;
    face[3 * t] = nx;
    face[3 * t + 1] = ny;
    face[3 * t + 2] = nz;
    // Interior angle at each corner, between the edge leaving it and the reversed edge arriving.
    const angles = [
      angleBetween(abx, aby, abz, -cax, -cay, -caz),
      angleBetween(bcx, bcy, bcz, -abx, -aby, -abz),
      angleBetween(cax, cay, caz, -bcx, -bcy, -bcz),
    ];
    for (let k = 0; k < 3; k++) {
      const i = indices[3 * t + k], j = indices[3 * t + ((k + 1) % 3)];
      vertex[3 * i] += angles[k] * nx;
      vertex[3 * i + 1] += angles[k] * ny;
      vertex[3 * i + 2] += angles[k] * nz;
      const key = Math.min(i, j) * vertexCount + Math.max(i, j);
      let id = edgeIds.get(key);
      if (id === undefined) edgeIds.set(key, (id = edgeIds.size));
      cornerEdge[3 * t + k] = id;
      edgeSum[3 * id] += nx;
      edgeSum[3 * id + 1] += ny;
      edgeSum[3 * id + 2] += nz;
    }
  }
  const edge = new Float64Array(9 * triangles);
  for (let corner = 0; corner < 3 * triangles; corner++) {
    const id = cornerEdge[corner];
    edge[3 * corner] = edgeSum[3 * id];
    edge[3 * corner + 1] = edgeSum[3 * id + 1];
    edge[3 * corner + 2] = edgeSum[3 * id + 2];
  }
  return { face, edge, vertex };
}

function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}
