/**
 * Triangles re-indexed so that vertices at exactly the same position (copies made for UV or normal
 * seams) become one vertex: adjacency, normals and inside tests then see one closed surface.
 */
export function weldByPosition(positions: Float32Array, indices: Uint32Array): Uint32Array {
  const first = new Map<string, number>();
  const canonical = new Uint32Array(positions.length / 3);
  for (let i = 0; i < canonical.length; i++) {
    const key = `${positions[3 * i]},${positions[3 * i + 1]},${positions[3 * i + 2]}`;
    let j = first.get(key);
    if (j === undefined) first.set(key, (j = i));
    canonical[i] = j;
  }
  return indices.map((i) => canonical[i]);
}
