/** A minimal protocol-buffers reader: enough to walk fields of a message without a schema. */
export type WireValue = { field: number; wire: 0; value: number } | { field: number; wire: 5; value: number } | { field: number; wire: 2; value: Uint8Array };

function readVarint(bytes: Uint8Array, at: { offset: number }): number {
  let result = 0, factor = 1, byte: number;
  do {
    byte = bytes[at.offset++];
    result += (byte & 0x7f) * factor;
    factor *= 128;
  } while (byte & 0x80);
  return result;
}

/** The fields of one message in file order (varints, 32-bit floats, length-delimited bytes). */
export function readFields(bytes: Uint8Array): WireValue[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = { offset: 0 };
  const out: WireValue[] = [];
  while (at.offset < bytes.length) {
    const key = readVarint(bytes, at);
    const field = Math.floor(key / 8), wire = key & 7;
    if (wire === 0) out.push({ field, wire, value: readVarint(bytes, at) });
    else if (wire === 5) {
      out.push({ field, wire, value: view.getFloat32(at.offset, true) });
      at.offset += 4;
    } else if (wire === 2) {
      const length = readVarint(bytes, at);
      out.push({ field, wire, value: bytes.subarray(at.offset, at.offset + length) });
      at.offset += length;
    } else if (wire === 1) at.offset += 8;
    else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
  return out;
}

/** A repeated scalar field: single values of wire type `wire`, or packed runs decoded by `unpack`. */
function repeated(fields: WireValue[], field: number, wire: 0 | 5, unpack: (bytes: Uint8Array) => number[]): number[] {
  return fields.flatMap((f) => (f.field !== field ? [] : f.wire === 2 ? unpack(f.value) : f.wire === wire ? [f.value] : []));
}

export function repeatedFloats(fields: WireValue[], field: number): number[] {
  return repeated(fields, field, 5, (bytes) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Array.from({ length: Math.floor(bytes.byteLength / 4) }, (_, i) => view.getFloat32(4 * i, true));
  });
}

export function repeatedVarints(fields: WireValue[], field: number): number[] {
  return repeated(fields, field, 0, (bytes) => {
    const at = { offset: 0 }, out: number[] = [];
    while (at.offset < bytes.length) out.push(readVarint(bytes, at));
    return out;
  });
}

/** The bytes of the first length-delimited field with this number. */
export function messageField(fields: WireValue[], field: number): Uint8Array {
  const f = fields.find((x) => x.field === field && x.wire === 2);
  if (!f || f.wire !== 2) throw new Error(`protobuf: field ${field} missing`);
  return f.value;
}
