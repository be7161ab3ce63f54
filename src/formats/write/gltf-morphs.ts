import type { AvatarMesh } from '../../model/avatar.ts';
import { sparseShape } from './sparse-shape.ts';

const FLOAT = 5126, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125;

/** The parts of glTF JSON this step reads and extends. */
interface GltfJson {
  meshes?: { name?: string; primitives: { targets?: Record<string, number>[] }[] }[];
  accessors?: object[];
  bufferViews?: object[];
}

/**
 * Adds each mesh's morph targets to written glTF JSON as sparse POSITION accessors (only the
 * vertices a blendshape moves), appending their data to the binary buffer; returns the new buffer
 * as its pieces in order (the GLB container copies them once, into the file).
 * Done here rather than through gltf-transform, which finds the non-zero elements one property
 * lookup at a time: for 65 blendshapes of a 12k-vertex head that was most of the GLB's time.
 * `scale` converts the deltas' units (cm to m).
 */
export function appendSparseTargets(json: GltfJson, bin: Uint8Array, meshes: { nodeName: string; mesh: AvatarMesh }[], scale: number): Uint8Array[] {
  const chunks: Uint8Array[] = [bin];
  let length = bin.length;
  const accessors = (json.accessors ??= []);
  const views = (json.bufferViews ??= []);
  const view = (data: Uint8Array): number => {
    const pad = (4 - (length % 4)) % 4;
    if (pad) chunks.push(new Uint8Array(pad));
    length += pad;
    views.push({ buffer: 0, byteOffset: length, byteLength: data.length });
    chunks.push(data);
    length += data.length;
    return views.length - 1;
  };
  for (const { nodeName, mesh } of meshes) {
    if (mesh.morphs.length === 0) continue;
    const target = json.meshes?.find((m) => m.name === nodeName);
    if (!target) throw new Error(`glTF mesh ${nodeName} missing`);
    const count = mesh.geometry.positions.length / 3;
    target.primitives[0].targets = mesh.morphs.map((morph) => {
      const { indexes, deltas } = sparseShape(morph);
      const values = new Float32Array(deltas.length);
      const { min, max } = scaledBounds(deltas, values, scale, indexes.length < count);
      const wide = count > 0xffff;
      const idx = wide ? Uint32Array.from(indexes) : Uint16Array.from(indexes);
      accessors.push({
        componentType: FLOAT, count, type: 'VEC3', name: morph.name,
        min: min.map(Math.fround), max: max.map(Math.fround),
        sparse: {
          count: indexes.length,
          indices: { bufferView: view(new Uint8Array(idx.buffer)), componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT },
          values: { bufferView: view(new Uint8Array(values.buffer)) },
        },
      });
      return { POSITION: accessors.length - 1 };
    });
  }
  const pad = (4 - (length % 4)) % 4;
  if (pad) chunks.push(new Uint8Array(pad));
  return chunks;
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
