import type { AvatarMesh } from '../../model/avatar.ts';
import { sparseShape } from './sparse-shape.ts';
import type { GltfBinary } from './gltf-buffer.ts';
import { FLOAT, UNSIGNED_INT, UNSIGNED_SHORT, type GltfJson } from './gltf-json.ts';

/**
 * Adds each mesh's morph targets to the glTF JSON (its meshes in the model's order) as sparse POSITION accessors (only
 * the vertices a blendshape moves), their data in the binary buffer. `scale` converts the deltas' units (cm to m).
 */
export function appendSparseTargets(json: Pick<GltfJson, 'meshes' | 'accessors'>, binary: GltfBinary, meshes: readonly AvatarMesh[], scale: number): void {
  for (let m = 0; m < meshes.length; m++) {
    const mesh = meshes[m];
    if (mesh.morphs.length === 0) continue;
    const count = mesh.geometry.positions.length / 3;
    const targets: { POSITION: number }[] = [];
    for (const morph of mesh.morphs) {
      const { indexes, deltas } = sparseShape(morph);
      const values = new Float32Array(deltas.length);
      const { min, max } = scaledBounds(deltas, values, scale, indexes.length < count);
      const wide = count > 0xffff;
      const idx = wide ? Uint32Array.from(indexes) : Uint16Array.from(indexes);
      json.accessors.push({
        componentType: FLOAT, count, type: 'VEC3', name: morph.name,
        min: min.map(Math.fround), max: max.map(Math.fround),
        sparse: {
          count: indexes.length,
          indices: { bufferView: binary.view(idx), componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT },
          values: { bufferView: binary.view(values) },
        },
      });
      targets.push({ POSITION: json.accessors.length - 1 });
    }
    json.meshes[m].primitives[0].targets = targets;
  }
}

/**
 * Writes `deltas * scale` into `values` and returns the bounds per axis of the scaled doubles (before their
 * rounding to float32), with the implied zeros of unlisted vertices when `withZero`. One pass with the three
 * axes in locals: the same bounds as Math.min/max per element (a -0 and a 0 print alike in the JSON).
 */
export function scaledBounds(deltas: Float64Array, values: Float32Array, scale: number, withZero: boolean): { min: number[]; max: number[] } {
  let minX = withZero ? 0 : Infinity, minY = minX, minZ = minX;
  let maxX = withZero ? 0 : -Infinity, maxY = maxX, maxZ = maxX;
  for (let k = 0; k < deltas.length; k += 3) {
    const x = deltas[k] * scale, y = deltas[k + 1] * scale, z = deltas[k + 2] * scale;
    values[k] = x;
    values[k + 1] = y;
    values[k + 2] = z;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}
