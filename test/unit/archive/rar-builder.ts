import { crc32 } from 'node:zlib';

/** RAR 5 variable-length integer: 7 bits a byte, low bits first, high bit = more bytes follow. */
function vint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function u32(n: number): number[] {
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
}

/** A block: CRC32 of (size field + body), the body's size as a vint, then the body. */
function block(body: number[]): number[] {
  const sized = [...vint(body.length), ...body];
  return [...u32(crc32(Uint8Array.from(sized))), ...sized];
}

export interface RarFile {
  name: string;
  data?: Uint8Array;
  directory?: boolean;
  /** A Unix symlink to this target (a file system redirection record). */
  symlinkTo?: string;
  /** Declared unpacked size, when it should lie. */
  declaredSize?: number;
}

/**
 * Builds a RAR 5 archive with stored (uncompressed) files, following the published RAR 5.0 format:
 * enough to test the reader without a RAR compressor (none is free software).
 */
export function buildRar5(files: RarFile[]): Uint8Array {
  const out: number[] = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00];
  out.push(...block([...vint(1), ...vint(0), ...vint(0)])); // main header: no flags
  for (const f of files) {
    const data = f.data ?? new Uint8Array(0);
    const name = [...new TextEncoder().encode(f.name)];
    const extra: number[] = [];
    if (f.symlinkTo !== undefined) {
      const target = [...new TextEncoder().encode(f.symlinkTo)];
      const record = [...vint(5), ...vint(1), ...vint(0), ...vint(target.length), ...target];
      extra.push(...vint(record.length), ...record);
    }
    const fileFlags = (f.directory ? 0x1 : 0) | 0x4; // CRC32 present
    const body = [
      ...vint(2), // file header
      ...vint((extra.length > 0 ? 0x1 : 0) | 0x2), // extra area, data area
      ...(extra.length > 0 ? vint(extra.length) : []),
      ...vint(data.length),
      ...vint(fileFlags),
      ...vint(f.declaredSize ?? data.length),
      ...vint(f.symlinkTo !== undefined ? 0o120777 : f.directory ? 0o40755 : 0o100644),
      ...u32(crc32(data)),
      ...vint(0), // compression: version 0, store
      ...vint(1), // host OS: Unix
      ...vint(name.length),
      ...name,
      ...extra,
    ];
    out.push(...block(body), ...data);
  }
  out.push(...block([...vint(5), ...vint(0), ...vint(0)])); // end of archive
  return Uint8Array.from(out);
}

function u16(n: number): number[] {
  return [n & 255, (n >>> 8) & 255];
}

/** A RAR 1.5-4.x block: CRC16 (low half of the CRC32) of everything after it, then the header. */
function block4(type: number, flags: number, fields: number[]): number[] {
  const header = [type, ...u16(flags), ...u16(7 + fields.length), ...fields];
  return [...u16(crc32(Uint8Array.from(header)) & 0xffff), ...header];
}

/** Builds a RAR 4 archive with stored files (Unix host), following the RAR 4.x technote. */
export function buildRar4(files: { name: string; data: Uint8Array; unixMode?: number }[]): Uint8Array {
  const out: number[] = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00];
  out.push(...block4(0x73, 0, [0, 0, 0, 0, 0, 0])); // archive header, reserved fields
  for (const f of files) {
    const name = [...new TextEncoder().encode(f.name)];
    const fields = [
      ...u32(f.data.length), // packed size
      ...u32(f.data.length), // unpacked size
      3, // host OS: Unix
      ...u32(crc32(f.data)),
      ...u32(0x5a210000), // DOS time stamp
      20, // version needed to unpack
      0x30, // method: store
      ...u16(name.length),
      ...u32(f.unixMode ?? 0o100644),
      ...name,
    ];
    out.push(...block4(0x74, 0x8000, fields), ...f.data); // 0x8000: data follows the header
  }
  out.push(...block4(0x7b, 0x4000, []));
  return Uint8Array.from(out);
}
