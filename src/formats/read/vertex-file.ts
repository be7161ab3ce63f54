/**
 * The vertex file of execute/vertexdeform: 32-bit little-endian IEEE floats, x y z per vertex,
 * 12 bytes a vertex, no header. Read through a DataView so any byte offset of the input works.
 */

export type VertexFileCode =
  /** Size not a multiple of 12 bytes. */
  | 30600
  /** A NaN or infinite value. */
  | 30601
  /** No vertices at all. */
  | 40446;

export class VertexFileError extends Error {
  constructor(readonly code: VertexFileCode, message: string) {
    super(message);
    this.name = 'VertexFileError';
  }
}

const BYTES_PER_VERTEX = 12;

/** Packed xyz positions of the file; throws VertexFileError on a bad body. */
export function parseVertexFile(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength === 0) throw new VertexFileError(40446, 'the vertex file holds no vertices');
  if (bytes.byteLength % BYTES_PER_VERTEX !== 0) {
    throw new VertexFileError(30600, `${bytes.byteLength} bytes is not a multiple of ${BYTES_PER_VERTEX}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) {
    const value = view.getFloat32(4 * i, true);
    if (!Number.isFinite(value)) {
      throw new VertexFileError(30601, `value ${i} (vertex ${Math.floor(i / 3)}) is not a finite number`);
    }
    out[i] = value;
  }
  return out;
}
