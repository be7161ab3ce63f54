/**
 * Square max or min filter of half-width `r` on a single-channel image (separable: rows, then columns):
 * the dilation and erosion that grey-level closing and matte erosion are made of. Van Herk / Gil-Werman:
 * running extremes from each block's start and end give any window's in one comparison, so the cost does not
 * grow with `r` (the matte is eroded on every photo, over the whole photo).
 */
export function rankFilter(values: ArrayLike<number>, width: number, height: number, r: number, kind: 'max' | 'min'): Float32Array {
  // A min filter is a max filter of the negated values.
  const sign = kind === 'max' ? 1 : -1;
  const n = Math.max(width, height);
  const scratch = { line: new Float32Array(n), fromStart: new Float32Array(n), fromEnd: new Float32Array(n), out: new Float32Array(n) };
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) scratch.line[x] = sign * values[y * width + x];
    maxLine(scratch, width, r);
    rows.set(scratch.out.subarray(0, width), y * width);
  }
  const out = new Float32Array(width * height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) scratch.line[y] = rows[y * width + x];
    maxLine(scratch, height, r);
    for (let y = 0; y < height; y++) out[y * width + x] = sign * scratch.out[y];
  }
  return out;
}

function maxLine(s: { line: Float32Array; fromStart: Float32Array; fromEnd: Float32Array; out: Float32Array }, n: number, r: number): void {
  const { line, fromStart, fromEnd, out } = s;
  const block = 2 * r + 1;
  for (let i = 0; i < n; i++) fromStart[i] = i % block === 0 || line[i] > fromStart[i - 1] ? line[i] : fromStart[i - 1];
  for (let i = n - 1; i >= 0; i--) fromEnd[i] = i === n - 1 || (i + 1) % block === 0 || line[i] > fromEnd[i + 1] ? line[i] : fromEnd[i + 1];
  for (let i = 0; i < n; i++) {
    // The window spans at most two blocks: the end of its first one's and the start of its last one's.
    const a = fromEnd[i > r ? i - r : 0], b = fromStart[i + r < n ? i + r : n - 1];
    out[i] = a > b ? a : b;
  }
}
