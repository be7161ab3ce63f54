/**
 * GLB container (glTF 2.0 binary): 12-byte header, a JSON chunk padded with spaces and an
 * optional BIN chunk padded with zeros, each 4-byte aligned.
 */
const MAGIC = 0x46546c67; // "glTF"
const JSON_CHUNK = 0x4e4f534a;
const BIN_CHUNK = 0x004e4942;

const padded = (length: number): number => (length + 3) & ~3;

/**
 * The GLB of glTF JSON and its binary buffer, given as pieces to be joined in order, as the parts of the file in
 * order: the header with the JSON chunk and the binary chunk's header, then the pieces as they are, then the
 * padding. A caller that stores the file need not copy the buffer (most of it the textures) into one array.
 */
export function glbParts(json: object, bin: readonly Uint8Array[]): Uint8Array[] {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = padded(text.length);
  const binBytes = bin.reduce((sum, piece) => sum + piece.length, 0);
  const binLength = padded(binBytes);
  const total = 12 + 8 + jsonLength + (binBytes > 0 ? 8 + binLength : 0);
  const head = new Uint8Array(20 + jsonLength + (binBytes > 0 ? 8 : 0));
  const view = new DataView(head.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, JSON_CHUNK, true);
  head.set(text, 20);
  head.fill(0x20, 20 + text.length, 20 + jsonLength);
  if (binBytes === 0) return [head];
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(20 + jsonLength + 4, BIN_CHUNK, true);
  return binLength > binBytes ? [head, ...bin, new Uint8Array(binLength - binBytes)] : [head, ...bin];
}

/** glbParts joined into one array. */
export function packGlb(json: object, bin: readonly Uint8Array[]): Uint8Array {
  const parts = glbParts(json, bin);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
