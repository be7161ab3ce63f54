import { createExtractorFromData, UnrarError } from 'node-unrar-js';
import type { ArchiveEntry } from './archive-entry.ts';
import { InputCodes, InputError } from './input-error.ts';

const RAR5 = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00];
const S_IFMT = 0xf000;
const S_IFLNK = 0xa000;

const invalid = (why: string) => new InputError(InputCodes.badArchive, `archive is empty or invalid: ${why}`);

/**
 * Lists a RAR (4 or 5) archive with the official unrar library compiled to wasm (node-unrar-js);
 * `read()` unpacks one file in memory. unrar does not report links, so the block headers are walked
 * here first and any link refused (40101). unrar stops at an entry's declared size (an entry that
 * unpacks to more is damaged data to it: 30005). Encrypted archives are refused (30005).
 */
export async function listRar(data: Uint8Array): Promise<ArchiveEntry[]> {
  const link = linkEntries(data);
  if (link !== undefined) {
    throw new InputError(InputCodes.badFileName, `invalid file name ${JSON.stringify(link)}: links are not accepted`);
  }
  const copy = data.slice(); // unrar takes an ArrayBuffer of its own
  try {
    const extractor = await createExtractorFromData({ data: copy.buffer });
    const list = extractor.getFileList();
    if (list.arcHeader.flags.headerEncrypted) throw invalid('encrypted');
    return [...list.fileHeaders].map((h) => {
      if (h.flags.encrypted) throw invalid(`entry ${JSON.stringify(h.name)} is encrypted`);
      return {
        name: h.name,
        directory: h.flags.directory,
        link: false,
        size: h.unpSize,
        read: () => unpack(() => extractOne(extractor.extract({ files: [h.name] }).files, h.name, h.unpSize)),
      };
    });
  } catch (err) {
    throw asInputError(err);
  }
}

function extractOne(files: Iterable<{ extraction?: Uint8Array }>, name: string, size: number): Uint8Array {
  const [file] = [...files];
  const out = file?.extraction;
  if (!out || out.length !== size) throw invalid(`entry ${JSON.stringify(name)} does not unpack to its declared size`);
  return out;
}

function unpack(fn: () => Uint8Array): Uint8Array {
  try {
    return fn();
  } catch (err) {
    throw asInputError(err);
  }
}

function asInputError(err: unknown): InputError {
  if (err instanceof InputError) return err;
  if (err instanceof UnrarError) return invalid(`${err.reason}: ${err.message}`);
  return invalid(err instanceof Error ? err.message : String(err));
}

/** The name of the first link entry (Unix symlink mode or a RAR 5 redirection record), if any. */
function linkEntries(data: Uint8Array): string | undefined {
  const rar5 = RAR5.every((b, i) => data[i] === b);
  try {
    return rar5 ? rar5Link(data) : rar4Link(data);
  } catch (err) {
    if (err instanceof RangeError) throw invalid('truncated block headers');
    throw err;
  }
}

/** RAR 5 block headers (rarlab's "RAR 5.0 archive format"): vint fields, extra records, data areas. */
function rar5Link(data: Uint8Array): string | undefined {
  const r = new Reader(data, RAR5.length);
  while (r.pos < data.length) {
    r.skip(4); // header CRC32
    const size = r.vint();
    const end = r.pos + size;
    const type = r.vint();
    const flags = r.vint();
    const extraSize = flags & 1 ? r.vint() : 0;
    const dataSize = flags & 2 ? r.vint() : 0;
    if (type === 4) throw invalid('encrypted');
    if (type === 5) return undefined;
    if (type === 2 || type === 3) {
      const fileFlags = r.vint();
      r.vint(); // unpacked size
      const attributes = r.vint();
      if (fileFlags & 2) r.skip(4);
      if (fileFlags & 4) r.skip(4);
      r.vint(); // compression
      const host = r.vint();
      const name = r.text(r.vint());
      if (type === 2 && host === 1 && (attributes & S_IFMT) === S_IFLNK) return name;
      const extra = new Reader(data, end - extraSize);
      while (extra.pos < end) {
        const recordSize = extra.vint();
        const recordEnd = extra.pos + recordSize;
        if (extra.vint() === 5) return name; // file system redirection: symlink, junction, hard link
        extra.pos = recordEnd;
      }
    }
    r.pos = end + dataSize;
  }
  return undefined;
}

/** RAR 1.5-4.x block headers: fixed little-endian fields. */
function rar4Link(data: Uint8Array): string | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 7;
  while (pos + 7 <= data.length) {
    const type = view.getUint8(pos + 2);
    const flags = view.getUint16(pos + 3, true);
    const size = view.getUint16(pos + 5, true);
    if (size < 7) throw invalid('broken block header');
    if (type === 0x73 && flags & 0x80) throw invalid('encrypted');
    if (type === 0x7b) return undefined;
    let add = flags & 0x8000 ? view.getUint32(pos + 7, true) : 0;
    if (type === 0x74) {
      const host = view.getUint8(pos + 15);
      const nameSize = view.getUint16(pos + 26, true);
      const attributes = view.getUint32(pos + 28, true);
      const large = flags & 0x100;
      if (large) add += view.getUint32(pos + 32, true) * 2 ** 32;
      const nameAt = pos + 32 + (large ? 8 : 0);
      const raw = data.subarray(nameAt, nameAt + nameSize);
      const zero = raw.indexOf(0);
      const name = new TextDecoder().decode(zero >= 0 ? raw.subarray(0, zero) : raw);
      if (host === 3 && (attributes & S_IFMT) === S_IFLNK) return name;
    }
    pos += size + add;
  }
  return undefined;
}

class Reader {
  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  skip(n: number): void {
    this.pos += n;
    if (this.pos > this.data.length) throw new RangeError('past the end');
  }

  vint(): number {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.pos >= this.data.length || shift > 63) throw new RangeError('bad vint');
      const b = this.data[this.pos++];
      value += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return value;
    }
  }

  text(length: number): string {
    const start = this.pos;
    this.skip(length);
    return new TextDecoder().decode(this.data.subarray(start, start + length));
  }
}
