/**
 * A glTF file's one binary buffer as it is written: each piece of data becomes a buffer view, 4-byte aligned, and
 * the pieces are kept as they are (the textures' PNG bytes, the arrays' own memory) until the GLB container writes
 * them out in order.
 */
import type { GltfBufferView } from './gltf-json.ts';

export class GltfBinary {
  readonly views: GltfBufferView[] = [];
  private readonly pieces: Uint8Array[] = [];
  private length = 0;

  /** A buffer view of `data` (its bytes, not a copy), starting on a 4-byte boundary; returns its index. */
  view(data: ArrayBufferView, target?: number): number {
    this.pad();
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.views.push(target === undefined ? { buffer: 0, byteOffset: this.length, byteLength: bytes.length } : { buffer: 0, byteOffset: this.length, byteLength: bytes.length, target });
    this.pieces.push(bytes);
    this.length += bytes.length;
    return this.views.length - 1;
  }

  /** The buffer's pieces in order, its end padded to 4 bytes, and its length. */
  finish(): { pieces: Uint8Array[]; byteLength: number } {
    this.pad();
    return { pieces: this.pieces, byteLength: this.length };
  }

  private pad(): void {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad === 0) return;
    this.pieces.push(new Uint8Array(pad));
    this.length += pad;
  }
}
