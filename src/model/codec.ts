/**
 * A compact binary form for documents made of JSON values and typed arrays (the AvatarModel and the
 * deformation data), so that on-demand features can reload a finished avatar without re-running the
 * pipeline. Layout: "AVB1", u32 header length, the UTF-8 JSON header, then each array's bytes 8-aligned.
 */
type Typed = Float32Array | Uint32Array | Uint16Array | Uint8Array;
const kinds = { f32: Float32Array, u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;
type Kind = keyof typeof kinds;

const kindOf = (a: Typed): Kind =>
  a instanceof Float32Array ? 'f32' : a instanceof Uint32Array ? 'u32' : a instanceof Uint16Array ? 'u16' : 'u8';

const MAGIC = 0x31425641; // "AVB1" little-endian

export function encodeDocument(doc: unknown): Uint8Array {
  const arrays: Typed[] = [];
  const header = JSON.stringify(doc, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      arrays.push(v as Typed);
      return { $bin: arrays.length - 1, kind: kindOf(v as Typed), length: (v as Typed).length };
    }
    return v;
  });
  const head = new TextEncoder().encode(header);
  const align = (n: number) => (n + 7) & ~7;
  let size = align(8 + head.length);
  const offsets = arrays.map((a) => {
    const at = size;
    size = align(size + a.byteLength);
    return at;
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, head.length, true);
  out.set(head, 8);
  arrays.forEach((a, i) => out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offsets[i]!));
  return out;
}

export function decodeDocument<T>(bytes: Uint8Array): T {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 || view.getUint32(0, true) !== MAGIC) throw new Error('not an encoded document');
  const headLength = view.getUint32(4, true);
  let at = (8 + headLength + 7) & ~7;
  const header = new TextDecoder().decode(bytes.subarray(8, 8 + headLength));
  // Arrays were written in the order JSON.stringify met them, which is the order JSON.parse revives them.
  return JSON.parse(header, (_k, v: unknown) => {
    const ref = v as { $bin?: number; kind?: Kind; length?: number } | null;
    if (ref && typeof ref === 'object' && typeof ref.$bin === 'number' && ref.kind && ref.kind in kinds) {
      const Ctor = kinds[ref.kind];
      const byteLength = ref.length! * Ctor.BYTES_PER_ELEMENT;
      const copy = new Uint8Array(byteLength);
      copy.set(bytes.subarray(at, at + byteLength));
      at = (at + byteLength + 7) & ~7;
      return new Ctor(copy.buffer);
    }
    return v;
  }) as T;
}
