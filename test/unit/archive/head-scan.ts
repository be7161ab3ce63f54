import type { MeshData } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';

/**
 * The template's head without its bust, open at the neck like a head scan, and with only the vertices
 * its triangles use: a scan file holds no stray points (and OBJ reading drops unused ones).
 */
export function headScan(): MeshData {
  const { head, regions } = buildTemplate('1.6');
  const bust = new Set(regions.bust);
  const kept = Array.from({ length: head.indices.length / 3 }, (_, t) => t).filter((t) => [0, 1, 2].every((k) => !bust.has(head.indices[t * 3 + k])));
  const used = [...new Set(kept.flatMap((t) => [0, 1, 2].map((k) => head.indices[t * 3 + k])))].sort((a, b) => a - b);
  const where = new Map(used.map((v, i) => [v, i]));
  const pick = (data: Float32Array, size: number) => Float32Array.from(used.flatMap((v) => Array.from(data.subarray(v * size, v * size + size))));
  return {
    positions: pick(head.positions, 3),
    normals: pick(head.normals, 3),
    uvs: pick(head.uvs, 2),
    indices: Uint32Array.from(kept.flatMap((t) => [0, 1, 2].map((k) => where.get(head.indices[t * 3 + k])!))),
  };
}
