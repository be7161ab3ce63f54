import { fitSimilarity, type Mat3 } from '../fit/similarity.ts';

/** avatar ≈ rotation · template + translation: a proper rigid motion, no scale. */
export interface RigidMotion {
  rotation: Mat3;
  translation: [number, number, number];
}

/**
 * Rigid motion that best maps the template surface onto the avatar surface (least squares over
 * the vertices, each weighted by a third of the area of its triangles so that dense regions do not
 * dominate). The rotation is that of the similarity fit (it does not depend on the scale); the
 * translation maps the weighted centroid of the template onto that of the avatar.
 */
export function fitRigidMotion(template: Float32Array, avatar: Float32Array, indices: Uint32Array): RigidMotion {
  const weights = new Float64Array(template.length / 3);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const ux = template[b] - template[a], uy = template[b + 1] - template[a + 1], uz = template[b + 2] - template[a + 2];
    const vx = template[c] - template[a], vy = template[c + 1] - template[a + 1], vz = template[c + 2] - template[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const third = Math.sqrt(nx * nx + ny * ny + nz * nz) / 6;
    weights[indices[t]] += third;
    weights[indices[t + 1]] += third;
    weights[indices[t + 2]] += third;
  }
  const { rotation } = fitSimilarity(template, avatar, undefined, weights);
  const from = [0, 0, 0], to = [0, 0, 0];
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    for (let d = 0; d < 3; d++) {
      from[d] += w * template[3 * i + d];
      to[d] += w * avatar[3 * i + d];
    }
  });
  const translation = [0, 1, 2].map(
    (r) => (to[r] - rotation[3 * r] * from[0] - rotation[3 * r + 1] * from[1] - rotation[3 * r + 2] * from[2]) / total,
  ) as [number, number, number];
  return { rotation, translation };
}
