/**
 * GLB container (glTF 2.0 binary): 12-byte header, a JSON chunk padded with spaces and an
 * optional BIN chunk padded with zeros, each 4-byte aligned.
 */
const MAGIC = 0x46546c67; // "glTF"
const JSON_CHUNK = 0x4e4f534a;
const BIN_CHUNK = 0x004e4942;

const padded = (length: number): number => (length + 3) & ~3;

/** The GLB of glTF JSON and its binary buffer, given as pieces to be joined in order. */
export function packGlb(json: object, bin: readonly Uint8Array[]): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = padded(text.length);
  const binBytes = bin.reduce((sum, piece) => sum + piece.length, 0);
  const binLength = padded(binBytes);
  const total = 12 + 8 + jsonLength + (binBytes > 0 ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, JSON_CHUNK, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLength);
  if (binBytes > 0) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, BIN_CHUNK, true);
    let offset = at + 8;
    for (const piece of bin) {
      out.set(piece, offset);
      offset += piece.length;
    }
  }
  return out;
}
