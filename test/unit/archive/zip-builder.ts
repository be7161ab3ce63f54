import { crc32, deflateRawSync } from 'node:zlib';

export interface RawZipEntry {
  name: string | Uint8Array;
  data?: Uint8Array;
  /** 0 store, 8 deflate (default), anything else to test refusals. */
  method?: number;
  /** Uncompressed size written to the headers, when it should lie. */
  declaredSize?: number;
  /** Unix mode in the high 16 bits of the external attributes, e.g. 0o120777 for a symlink. */
  unixMode?: number;
  flags?: number;
  crc?: number;
  /** Sizes and CRC after the data instead of in the local header (as streaming zippers write). */
  dataDescriptor?: boolean;
}

/** Writes a zip byte by byte, so that tests can make every field lie. */
export function buildZip(entries: RawZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : Buffer.from(e.name);
    const data = e.data ?? new Uint8Array(0);
    const method = e.method ?? 8;
    const packed = method === 8 ? deflateRawSync(data) : Buffer.from(data);
    const size = e.declaredSize ?? data.length;
    const crc = e.crc ?? crc32(data);
    const flags = (e.flags ?? 0) | 0x800 | (e.dataDescriptor ? 0x8 : 0); // names are UTF-8
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (!e.dataDescriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(packed.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(e.dataDescriptor ? 16 : 0);
    if (e.dataDescriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(packed.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed, descriptor);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length + descriptor.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}
