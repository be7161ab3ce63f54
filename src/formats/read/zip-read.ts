import { crc32, inflateRawSync } from 'node:zlib';
import type { ArchiveEntry } from './archive-entry.ts';
import { InputCodes, InputError } from './input-error.ts';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0xf000;
const S_IFLNK = 0xa000;
const DOS_DIRECTORY = 0x10;

const invalid = (why: string) => new InputError(InputCodes.badArchive, `archive is empty or invalid: ${why}`);

/**
 * Lists a zip archive from its central directory. Nothing is inflated here; `read()` of an entry
 * inflates it with the output capped at its declared size, so a lying entry is stopped, not unpacked.
 * Zip64, encryption and compression other than store/deflate are refused (30005).
 */
export function listZip(data: Uint8Array): ArchiveEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  const cdSize = view.getUint32(end + 12, true);
  const cdOffset = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) throw invalid('multi-part zip');
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) throw invalid('zip64 is not supported');
  if (cdOffset + cdSize > end) throw invalid('central directory out of bounds');

  const entries: ArchiveEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || view.getUint32(p, true) !== CENTRAL) throw invalid('broken central directory');
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const packed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const next = p + 46 + nameLen + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    const localOffset = view.getUint32(p + 42, true);
    if (next > end) throw invalid('broken central directory');
    const name = decodeName(data.subarray(p + 46, p + 46 + nameLen));
    if (flags & 1) throw invalid(`entry ${JSON.stringify(name)} is encrypted`);
    if (method !== 0 && method !== 8) throw invalid(`entry ${JSON.stringify(name)} uses compression method ${method}`);
    const link = ((external >>> 16) & S_IFMT) === S_IFLNK;
    const directory = name.endsWith('/') || name.endsWith('\\') || ((external & DOS_DIRECTORY) !== 0 && size === 0);
    entries.push({
      name,
      directory,
      link,
      size,
      read: () => inflateEntry(data, view, { name, method, crc, packed, size, localOffset, limit: cdOffset }),
    });
    p = next;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const last = view.byteLength - 22;
  for (let p = last; p >= 0 && p >= last - 0xffff; p--) {
    if (view.getUint32(p, true) === EOCD && p + 22 + view.getUint16(p + 20, true) === view.byteLength) return p;
  }
  throw invalid('no zip end record');
}

/** Names are UTF-8 (or ASCII, its subset); anything else is refused as an odd name. */
function decodeName(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(InputCodes.badFileName, 'invalid file name: not valid UTF-8');
  }
}

function inflateEntry(
  data: Uint8Array,
  view: DataView,
  e: { name: string; method: number; crc: number; packed: number; size: number; localOffset: number; limit: number },
): Uint8Array {
  const what = `entry ${JSON.stringify(e.name)}`;
  if (e.localOffset + 30 > e.limit || view.getUint32(e.localOffset, true) !== LOCAL) throw invalid(`${what}: no local header`);
  const start = e.localOffset + 30 + view.getUint16(e.localOffset + 26, true) + view.getUint16(e.localOffset + 28, true);
  if (start + e.packed > e.limit) throw invalid(`${what}: data out of bounds`);
  const packed = data.subarray(start, start + e.packed);
  let out: Uint8Array;
  if (e.method === 0) {
    if (e.packed !== e.size) throw invalid(`${what}: stored size mismatch`);
    out = packed.slice();
  } else {
    try {
      // One byte over the declared size is enough to know the entry lies; zlib stops right there.
      out = inflateRawSync(packed, { maxOutputLength: e.size + 1 });
    } catch (err) {
      const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw invalid(tooLarge ? `${what} inflates beyond its declared size` : `${what} does not inflate`);
    }
  }
  if (out.length !== e.size) throw invalid(`${what}: size differs from the declared one`);
  if (crc32(out) !== e.crc) throw invalid(`${what}: checksum mismatch`);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
