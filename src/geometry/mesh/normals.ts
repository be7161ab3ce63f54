import { weldMap } from './weld.ts';
import { hypot3 } from './vec.ts';

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
    acc[a] += nx;
    acc[a + 1] += ny;
    acc[a + 2] += nz;
    acc[b] += nx;
    acc[b + 1] += ny;
    acc[b + 2] += nz;
    acc[c] += nx;
    acc[c + 1] += ny;
    acc[c + 2] += nz;
  }
  // A group's sum runs from 0 over its vertices in index order (a lone vertex keeps its own sum, -0 included).
  const weld = weldMap(positions);
  const sum = new Float64Array(positions.length);
  const size = new Uint32Array(weld.length);
  for (let v = 0; v < weld.length; v++) {
    const w = weld[v];
    size[w]++;
    for (let k = 0; k < 3; k++) sum[3 * w + k] += acc[3 * v + k];
  }
  const out = new Float32Array(positions.length);
  for (let v = 0; v < weld.length; v++) {
    const i = 3 * v, w = 3 * weld[v];
    const grouped = size[weld[v]] > 1;
    const x = grouped ? sum[w] : acc[i], y = grouped ? sum[w + 1] : acc[i + 1], z = grouped ? sum[w + 2] : acc[i + 2];
    const len = hypot3(x, y, z) || 1;
    out[i] = x / len;
    out[i + 1] = y / len;
    out[i + 2] = z / len;
  }
  return out;
}
