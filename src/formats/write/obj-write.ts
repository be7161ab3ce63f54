import type { MeshData } from '../../model/avatar.ts';

const fixed = (x: number): string => (Math.round(x * 1e6) / 1e6).toString();

/**
 * Wavefront OBJ of one triangle mesh (centimetres, v-up UVs as OBJ expects), one object named
 * `name`. Positions, UVs and normals share the vertex numbering, so `f` uses `i/i/i` (`i/i`
 * without normals).
 */
export function writeObj(mesh: Pick<MeshData, 'positions' | 'uvs' | 'indices'> & { normals?: Float32Array }, options: { name: string }): Uint8Array {
  const { positions, normals, uvs, indices } = mesh;
  const n = positions.length / 3;
  const lines: string[] = [`# avatar-service OBJ, units: cm, Y up`, `o ${options.name}`];
  for (let v = 0; v < n; v++) lines.push(`v ${fixed(positions[v * 3])} ${fixed(positions[v * 3 + 1])} ${fixed(positions[v * 3 + 2])}`);
  for (let v = 0; v < n; v++) lines.push(`vt ${fixed(uvs[v * 2])} ${fixed(uvs[v * 2 + 1])}`);
  if (normals) for (let v = 0; v < n; v++) lines.push(`vn ${fixed(normals[v * 3])} ${fixed(normals[v * 3 + 1])} ${fixed(normals[v * 3 + 2])}`);
  const corner = normals ? (i: number): string => `${i}/${i}/${i}` : (i: number): string => `${i}/${i}`;
  for (let t = 0; t < indices.length; t += 3) {
    lines.push(`f ${corner(indices[t] + 1)} ${corner(indices[t + 1] + 1)} ${corner(indices[t + 2] + 1)}`);
  }
  lines.push('');
  return new TextEncoder().encode(lines.join('\n'));
}
