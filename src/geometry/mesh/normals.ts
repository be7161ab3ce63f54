/**
 * Area-weighted vertex normals of an indexed triangle mesh. Vertices at identical positions (UV
 * seams) share one normal, so seams do not show in the shading.
 */
export function vertexNormals(positions: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const acc = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      acc[v] += nx;
      acc[v + 1] += ny;
      acc[v + 2] += nz;
    }
  }
  for (const group of coincidentGroups(positions)) {
    const sum = [0, 1, 2].map((k) => group.reduce((total, v) => total + acc[3 * v + k], 0));
    for (const v of group) acc.set(sum, 3 * v);
  }
  const out = new Float32Array(positions.length);
  for (let i = 0; i < acc.length; i += 3) {
    const len = Math.hypot(acc[i], acc[i + 1], acc[i + 2]) || 1;
    out[i] = acc[i] / len;
    out[i + 1] = acc[i + 1] / len;
    out[i + 2] = acc[i + 2] / len;
  }
  return out;
}

/** Groups of two or more vertices at exactly the same position (sorted by coordinates, no hashing). */
export function coincidentGroups(positions: ArrayLike<number>): number[][] {
  const n = positions.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  const cmp = (a: number, b: number) => positions[3 * a] - positions[3 * b] || positions[3 * a + 1] - positions[3 * b + 1] || positions[3 * a + 2] - positions[3 * b + 2];
  order.sort((a, b) => cmp(a, b) || a - b);
  const groups: number[][] = [];
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && cmp(order[i], order[j]) === 0) j++;
    if (j - i > 1) groups.push(order.slice(i, j));
    i = j;
  }
  return groups;
}
