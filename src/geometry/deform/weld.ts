/**
 * Triangles re-indexed so that vertices at exactly the same position (copies made for UV or normal
 * seams) become one vertex: adjacency, normals and inside tests then see one closed surface.
 */
export function weldByPosition(positions: Float32Array, indices: Uint32Array): Uint32Array {
  const count = positions.length / 3;
  // Sorting by x, y, z puts equal positions next to each other; each then maps to the lowest index among them.
  const order = new Uint32Array(count).map((_, i) => i);
  order.sort((a, b) =>
    positions[3 * a] - positions[3 * b] || positions[3 * a + 1] - positions[3 * b + 1] || positions[3 * a + 2] - positions[3 * b + 2] || a - b,
  );
  const canonical = new Uint32Array(count);
  for (let k = 0; k < count; k++) {
    const i = order[k], previous = order[k - 1];
    const same = k > 0 &&
      positions[3 * i] === positions[3 * previous] &&
      positions[3 * i + 1] === positions[3 * previous + 1] &&
      positions[3 * i + 2] === positions[3 * previous + 2];
    canonical[i] = same ? canonical[previous] : i;
  }
  return indices.map((i) => canonical[i]);
}
