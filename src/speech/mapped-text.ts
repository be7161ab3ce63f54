/** Text with, for each UTF-16 unit, the UTF-8 byte range it came from in the request's input (entities map to their whole source). */
export interface MappedText {
  text: string;
  starts: number[];
  ends: number[];
}

/** True when s[i] and s[i + 1] form one code point (a lone surrogate is one U+FFFD, 3 bytes, as TextEncoder writes it). */
function isPair(s: string, i: number): boolean {
  const high = s.charCodeAt(i);
  const low = s.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** UTF-8 byte offset of every UTF-16 index of `s`, plus the total at index s.length. */
export function utf8Offsets(s: string): Int32Array {
  const offsets = new Int32Array(s.length + 1);
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    offsets[i] = bytes;
    const c = s.charCodeAt(i);
    if (isPair(s, i)) {
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
    const pair = isPair(source, i) && i + 1 < to;
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
