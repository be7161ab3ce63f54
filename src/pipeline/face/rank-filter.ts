/**
 * Square max or min filter of half-width `r` on a single-channel image (separable: rows, then columns):
 * the dilation and erosion that grey-level closing and matte erosion are made of.
 */
export function rankFilter(values: ArrayLike<number>, width: number, height: number, r: number, pick: (a: number, b: number) => number): Float32Array {
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = values[y * width + x];
      for (let k = Math.max(0, x - r); k <= Math.min(width - 1, x + r); k++) v = pick(v, values[y * width + k]);
      rows[y * width + x] = v;
    }
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = rows[y * width + x];
      for (let k = Math.max(0, y - r); k <= Math.min(height - 1, y + r); k++) v = pick(v, rows[k * width + x]);
      out[y * width + x] = v;
    }
  }
  return out;
}
