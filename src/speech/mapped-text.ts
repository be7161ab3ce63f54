/** Text with, for each UTF-16 unit, the UTF-8 byte range it came from in the request's input (entities map to their whole source). */
export interface MappedText {
  text: string;
  starts: number[];
  ends: number[];
}

/** UTF-8 byte offset of every UTF-16 index of `s`, plus the total at index s.length. */
export function utf8Offsets(s: string): Int32Array {
  const offsets = new Int32Array(s.length + 1);
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    offsets[i] = bytes;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      // A surrogate pair is one 4-byte code point; both halves start where it starts.
      offsets[i + 1] = bytes;
      bytes += 4;
      i++;
    } else bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  offsets[s.length] = bytes;
  return offsets;
}

/** Maps a source slice [from, to) verbatim. */
export function mapVerbatim(source: string, offsets: Int32Array, from: number, to: number): MappedText {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = from; i < to; i++) {
    const pair = source.charCodeAt(i) >= 0xd800 && source.charCodeAt(i) <= 0xdbff;
    const end = offsets[pair ? i + 2 : i + 1];
    starts.push(offsets[i]);
    ends.push(end);
    if (pair) {
      starts.push(offsets[i]);
      ends.push(end);
      i++;
    }
  }
  return { text: source.slice(from, to), starts, ends };
}

export function concatMapped(parts: MappedText[]): MappedText {
  return {
    text: parts.map((p) => p.text).join(''),
    starts: parts.flatMap((p) => p.starts),
    ends: parts.flatMap((p) => p.ends),
  };
}
