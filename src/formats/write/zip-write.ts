import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync, type ZlibOptions } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** CRC-32 of data when already known (the same texture goes into several packages). */
  crc?: number;
  /** The body as written (deflated unless the name says stored), when already known: see recurringEntry. */
  body?: Uint8Array;
}

/**
 * A stored entry given as the parts of its bytes, in order (a GLB: its textures are not copied into one array
 * first). Its CRC, when known, is of the parts joined.
 */
export interface PartsEntry {
  name: string;
  parts: readonly Uint8Array[];
  crc?: number;
}

/** CRC-32 of the parts joined. */
export function crcOfParts(parts: readonly Uint8Array[]): number {
  let crc = 0;
  for (const part of parts) crc = crc32(part, crc);
  return crc;
}

/** Already-compressed formats (FBX deflates its arrays) are stored: deflating again costs time for little. */
const STORED = /\.(png|jpe?g|glb|fbx)$/i;
/** A fixed DOS time stamp (2000-01-01 00:00) keeps a package byte-identical for the same avatar. */
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
const UTF8_NAMES = 0x0800;
const utf8 = new TextEncoder();

const DEFLATE: ZlibOptions = { level: 1 };
const bodyOf = (name: string, data: Uint8Array) => (STORED.test(name) ? data : deflateRawSync(data, DEFLATE));
const deflateOnPool = promisify(deflateRaw) as (data: Uint8Array, options: ZlibOptions) => Promise<Buffer>;

/** CRC and body of files that recur in many archives, by the array that holds them. */
const recurring = new WeakMap<Uint8Array, { stored: boolean; crc: number; body: Uint8Array }>();

/**
 * An entry whose bytes recur in the archives of many avatars (a template's files, held by the caller for
 * the process's life): its CRC and compressed body are computed once per array. The array must not change.
 */
export function recurringEntry(name: string, data: Uint8Array): ZipEntry {
  const stored = STORED.test(name);
  let known = recurring.get(data);
  if (!known || known.stored !== stored) {
    known = { stored, ...preparedEntry(name, data) };
    recurring.set(data, known);
  }
  return { name, data, crc: known.crc, body: known.body };
}

/** An entry with its CRC and body computed now (for instance on another thread than the archive's). */
export function preparedEntry(name: string, data: Uint8Array): Required<ZipEntry> {
  return { name, data, crc: crc32(data), body: bodyOf(name, data) };
}

/**
 * preparedEntry with the deflate on libuv's thread pool (zlib's asynchronous form, the same stream as the
 * synchronous one): the calling thread goes on with other work meanwhile.
 */
export async function preparedEntryOffThread(name: string, data: Uint8Array): Promise<Required<ZipEntry>> {
  const crc = crc32(data);
  // zlib's asynchronous form hands each full output buffer back to this thread before it goes on: an output
  // buffer of half the input is one pass on the pool for text (the Unity JSON deflates to a third).
  const chunkSize = Math.max(64 * 1024, data.length >> 1);
  return { name, data, crc, body: STORED.test(name) ? data : await deflateOnPool(data, { ...DEFLATE, chunkSize }) };
}

/**
 * A zip archive (deflate or store per entry, no zip64: entries and archive below 4 GiB).
 * Written here on node:zlib rather than through fflate: native CRC-32 is several times faster
 * than fflate's, and the packages carry megabytes of textures.
 */
export function writeZip(entries: (ZipEntry | PartsEntry)[]): Uint8Array {
  return Buffer.concat(zipParts(entries));
}

/**
 * writeZip's bytes as the parts they are made of, in order (each entry's header and body, the central directory):
 * a caller that writes them to a file need not copy them into one array first (a job's packages are 27 MB).
 */
export function zipParts(entries: (ZipEntry | PartsEntry)[]): Uint8Array[] {
  const seen = new Set<string>();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    if (seen.has(e.name)) throw new Error(`duplicate zip entry ${e.name}`);
    seen.add(e.name);
    const name = utf8.encode(e.name);
    const stored = STORED.test(e.name);
    if ('parts' in e && !stored) throw new Error(`zip entry ${e.name} given as parts is not of a stored type`);
    const body: readonly Uint8Array[] = 'parts' in e ? e.parts : [e.body ?? bodyOf(e.name, e.data)];
    const length = body.reduce((sum, part) => sum + part.length, 0);
    const crc = e.crc ?? ('parts' in e ? crcOfParts(e.parts) : crc32(e.data));
    const fields = { method: stored ? 0 : 8, crc, compressed: length, size: 'parts' in e ? length : e.data.length };
    if (offset + length > 0xffffffff) throw new Error('zip archive over 4 GiB');
    const local = header(0x04034b50, 30, name, fields);
    const dir = header(0x02014b50, 46, name, fields);
    new DataView(dir.buffer).setUint32(42, offset, true);
    parts.push(local, ...body);
    central.push(dir);
    offset += local.length + length;
  }
  const dirSize = central.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, entries.length, true);
  v.setUint16(10, entries.length, true);
  v.setUint32(12, dirSize, true);
  v.setUint32(16, offset, true);
  return [...parts, ...central, end];
}

/** Local file header (30 bytes) or central directory header (46 bytes); they share the fields after a shift. */
function header(signature: number, size: 30 | 46, name: Uint8Array, f: { method: number; crc: number; compressed: number; size: number }): Uint8Array {
  const out = new Uint8Array(size + name.length);
  const v = new DataView(out.buffer);
  const at = size === 46 ? 2 : 0; // the central header has "version made by" first
  v.setUint32(0, signature, true);
  if (size === 46) v.setUint16(4, 20, true);
  v.setUint16(4 + at, 20, true); // version needed: deflate
  v.setUint16(6 + at, UTF8_NAMES, true);
  v.setUint16(8 + at, f.method, true);
  v.setUint16(10 + at, 0, true); // time 00:00
  v.setUint16(12 + at, DOS_DATE, true);
  v.setUint32(14 + at, f.crc, true);
  v.setUint32(18 + at, f.compressed, true);
  v.setUint32(22 + at, f.size, true);
  v.setUint16(26 + at, name.length, true);
  out.set(name, size);
  return out;
}
