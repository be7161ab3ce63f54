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
  const groups = new Map<string, number[]>();
  for (let i = 0; i < positions.length; i += 3) {
    const key = `${positions[i]},${positions[i + 1]},${positions[i + 2]}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const sum = [0, 1, 2].map((k) => group.reduce((total, i) => total + acc[i + k], 0));
    for (const i of group) acc.set(sum, i);
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
