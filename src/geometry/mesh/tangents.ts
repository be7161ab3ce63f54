import { hypot3 } from './vec.ts';

/**
 * Per-vertex tangents (xyz plus handedness w) from positions, normals, UVs and triangles, by
 * accumulating each triangle's UV-space tangent and orthogonalising against the normal; the
 * bitangent w * cross(normal, tangent) points towards +v. Pass v-up UVs (the avatar document's):
 * normal maps keep green towards the top of the image, and glTF readers rebuild the bitangent
 * from w without looking at their flipped UVs.
 */
export function computeTangents(positions: Float32Array, normals: Float32Array, uvs: Float32Array, indices: Uint32Array): Float32Array {
  const n = positions.length / 3;
  const tan = new Float64Array(n * 3);
  const bit = new Float64Array(n * 3);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const du1 = uvs[b * 2] - uvs[a * 2], dv1 = uvs[b * 2 + 1] - uvs[a * 2 + 1];
    const du2 = uvs[c * 2] - uvs[a * 2], dv2 = uvs[c * 2 + 1] - uvs[a * 2 + 1];
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-20) continue;
    const r = 1 / det;
    for (let k = 0; k < 3; k++) {
      const e1 = positions[b * 3 + k] - positions[a * 3 + k];
      const e2 = positions[c * 3 + k] - positions[a * 3 + k];
      const tk = (e1 * dv2 - e2 * dv1) * r;
      const bk = (e2 * du1 - e1 * du2) * r;
      tan[a * 3 + k] += tk; tan[b * 3 + k] += tk; tan[c * 3 + k] += tk;
      bit[a * 3 + k] += bk; bit[b * 3 + k] += bk; bit[c * 3 + k] += bk;
    }
  }
  const out = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) {
    const nx = normals[v * 3], ny = normals[v * 3 + 1], nz = normals[v * 3 + 2];
    let tx = tan[v * 3], ty = tan[v * 3 + 1], tz = tan[v * 3 + 2];
    const d = tx * nx + ty * ny + tz * nz;
    tx -= nx * d; ty -= ny * d; tz -= nz * d;
    let len = hypot3(tx, ty, tz);
    if (len < 1e-12) {
      // No UV gradient (degenerate UVs): any unit vector orthogonal to the normal.
      if (Math.abs(nx) < 0.9) { tx = 0; ty = nz; tz = -ny; }
      else { tx = -nz; ty = 0; tz = nx; }
      len = hypot3(tx, ty, tz);
    }
    const side = (ny * tz - nz * ty) * bit[v * 3] + (nz * tx - nx * tz) * bit[v * 3 + 1] + (nx * ty - ny * tx) * bit[v * 3 + 2];
    out[v * 4] = tx / len;
    out[v * 4 + 1] = ty / len;
    out[v * 4 + 2] = tz / len;
    out[v * 4 + 3] = side < 0 ? -1 : 1;
  }
  return out;
}
