/**
 * Cuts UV seams into an indexed mesh: each triangle corner may ask for its own UV, and a vertex whose
 * corners ask for different UVs is split into one copy per UV (same position). The first UV a
 * vertex's corners ask for stays on the vertex; copies are appended, so existing indices stay valid.
 */
export interface SeamMesh {
  positions: number[];
  uvs: number[];
  indices: number[];
}

/**
 * `cornerUv(t, v)` is the UV triangle `t` wants at its corner on vertex `v`, or undefined for the
 * vertex's own; it is asked about every corner before anything is split. Returns, for each appended copy in order, the vertex it copies.
 */
export function splitSeams(mesh: SeamMesh, cornerUv: (t: number, v: number) => [number, number] | undefined): number[] {
  const wanted = mesh.indices.map((v, i) => cornerUv(Math.floor(i / 3), v) ?? ([mesh.uvs[2 * v], mesh.uvs[2 * v + 1]] as [number, number]));
  const copies: number[] = [];
  // Per vertex, the UVs its corners asked for so far and the vertex that carries each.
  const taken = new Map<number, { uv: [number, number]; id: number }[]>();
  for (let i = 0; i < mesh.indices.length; i++) {
    const v = mesh.indices[i];
    const uv = wanted[i];
    const known = taken.get(v);
    const same = known?.find((k) => k.uv[0] === uv[0] && k.uv[1] === uv[1]);
    if (same) {
      mesh.indices[i] = same.id;
      continue;
    }
    let id = v;
    if (known) {
      id = mesh.positions.length / 3;
      mesh.positions.push(mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
      mesh.uvs.push(uv[0], uv[1]);
      copies.push(v);
      mesh.indices[i] = id;
    } else {
      mesh.uvs[2 * v] = uv[0];
      mesh.uvs[2 * v + 1] = uv[1];
    }
    taken.set(v, [...(known ?? []), { uv, id }]);
  }
  return copies;
}
