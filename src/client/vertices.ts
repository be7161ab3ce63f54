import type { VertexOptions } from './types.ts';

/** Factor from the caller's units to the pipeline's centimetres, and whether X flips (spec: client workflow for deformation). */
function conversion({ unitsPerMeter = 100, mirrorX = false }: VertexOptions): { scale: number; xSign: number } {
  if (unitsPerMeter !== 1 && unitsPerMeter !== 100) throw new RangeError(`unitsPerMeter must be 1 or 100, got ${String(unitsPerMeter)}`);
  return { scale: 100 / unitsPerMeter, xSign: mirrorX ? -1 : 1 };
}

/** Caller positions (x, y, z, x, y, z, ...) to the vertex file: little-endian float32, centimetres, pipeline X. */
export function encodeVertices(positions: Float32Array, options: VertexOptions = {}): Uint8Array<ArrayBuffer> {
  if (positions.length % 3 !== 0) throw new RangeError(`positions hold ${positions.length} values, not a multiple of 3`);
  const { scale, xSign } = conversion(options);
  const bytes = new Uint8Array(positions.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < positions.length; i++) view.setFloat32(i * 4, positions[i] * scale * (i % 3 === 0 ? xSign : 1), true);
  return bytes;
}

/** A vertex file from the service back to the caller's units and axis. */
export function decodeVertices(bytes: Uint8Array, options: VertexOptions = {}): Float32Array {
  if (bytes.byteLength % 12 !== 0) throw new RangeError(`vertex file of ${bytes.byteLength} bytes is not a multiple of 12`);
  const { scale, xSign } = conversion(options);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const positions = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < positions.length; i++) positions[i] = (view.getFloat32(i * 4, true) / scale) * (i % 3 === 0 ? xSign : 1);
  return positions;
}
