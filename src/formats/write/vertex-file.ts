/** The vertex file of execute/vertexdeform (read/vertex-file.ts describes the layout): 32-bit little-endian floats, x y z per vertex. */

/** Encodes packed xyz positions as a vertex file. */
export function writeVertexFile(positions: Float32Array): Uint8Array {
  if (positions.length % 3 !== 0) throw new RangeError(`${positions.length} values are not whole xyz triples`);
  const bytes = new Uint8Array(positions.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < positions.length; i++) view.setFloat32(4 * i, positions[i], true);
  return bytes;
}
