/**
 * Square max or min filter of half-width `r` on a single-channel image (separable: rows, then columns):
 * the dilation and erosion that grey-level closing and matte erosion are made of. Van Herk / Gil-Werman:
 * running extremes from each block's start and end give any window's in one comparison, so the cost does not
 * grow with `r` (the matte is eroded on every photo, over the whole photo).
 */

/** Columns filtered together: gathered into lines a strip at a time, so that each image row is read a cache line at once. */
const STRIP = 16;

interface Lines {
  line: Float32Array;
  fromStart: Float32Array;
  fromEnd: Float32Array;
  out: Float32Array;
}

export function rankFilter(values: ArrayLike<number>, width: number, height: number, r: number, kind: 'max' | 'min'): Float32Array;
/**
 * Into `out`: a byte image's filtered values are its own values, which a Uint8Array holds as they are (the photo's
 * matte is filtered into its bytes, not into floats then copied).
 */
export function rankFilter<T extends Float32Array | Uint8Array>(values: ArrayLike<number>, width: number, height: number, r: number, kind: 'max' | 'min', out: T): T;
export function rankFilter(values: ArrayLike<number>, width: number, height: number, r: number, kind: 'max' | 'min', out: Float32Array | Uint8Array = new Float32Array(width * height)): Float32Array | Uint8Array {
  // A min filter is a max filter of the negated values.
  const sign = kind === 'max' ? 1 : -1;
  const n = Math.max(width, height);
  const scratch: Lines = { line: new Float32Array(n), fromStart: new Float32Array(n), fromEnd: new Float32Array(n), out: new Float32Array(n) };
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) scratch.line[x] = sign * values[y * width + x];
    maxLine(scratch, 0, width, r);
    rows.set(scratch.out.subarray(0, width), y * width);
  }
  // The columns: a strip's columns side by side in one buffer, `height` apart.
  const strip: Lines = { line: new Float32Array(STRIP * height), fromStart: new Float32Array(STRIP * height), fromEnd: new Float32Array(STRIP * height), out: new Float32Array(STRIP * height) };
  for (let x0 = 0; x0 < width; x0 += STRIP) {
    const columns = Math.min(STRIP, width - x0);
    for (let y = 0; y < height; y++) for (let k = 0; k < columns; k++) strip.line[k * height + y] = rows[y * width + x0 + k];
    for (let k = 0; k < columns; k++) maxLine(strip, k * height, height, r);
    for (let y = 0; y < height; y++) for (let k = 0; k < columns; k++) out[y * width + x0 + k] = sign * strip.out[k * height + y];
  }
  return out;
}

/** The running-maximum filter of the line of `n` values at `at` in `s.line`, into the same place in `s.out`. */
function maxLine(s: Lines, at: number, n: number, r: number): void {
  const { line, fromStart, fromEnd, out } = s;
  const block = 2 * r + 1;
  const end = at + n;
  for (let b = at; b < end; b += block) {
    const e = Math.min(end, b + block);
    let m = line[b];
    fromStart[b] = m;
    for (let i = b + 1; i < e; i++) fromStart[i] = m = line[i] > m ? line[i] : m;
    m = line[e - 1];
    fromEnd[e - 1] = m;
    for (let i = e - 2; i >= b; i--) fromEnd[i] = m = line[i] > m ? line[i] : m;
  }
  for (let i = 0; i < n; i++) {
    // The window spans at most two blocks: the end of its first one's and the start of its last one's.
    const a = fromEnd[at + (i > r ? i - r : 0)], b = fromStart[at + (i + r < n ? i + r : n - 1)];
    out[at + i] = a > b ? a : b;
  }
}
