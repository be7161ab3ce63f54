/**
 * Push-pull fill: texels without a colour of their own take a smooth continuation of the colours
 * around them. Known colours are averaged down an image pyramid (push), then every level's gaps are
 * filled from the bilinearly magnified coarser level (pull), so a gap far from known texels gets the
 * broad average and one next to them gets their local colour, with no visible border.
 */
/** What each texel of an atlas holds. */
export const TexelSource = { none: 0, fill: 1, scan: 2, fixed: 3 } as const;

interface Level {
  size: number;
  /** Average colour (rgb) and coverage weight (0..1) per texel. */
  data: Float32Array;
}

/** Writes fill colours into `rgba` where `source` is TexelSource.fill, from the TexelSource.scan texels. */
export function pushPullFill(rgba: Uint8Array, source: Uint8Array, size: number): void {
  // A scan that covers the whole atlas leaves nothing to fill, and the pyramid costs a 16-byte float per texel.
  if (!source.includes(TexelSource.fill)) return;
  const base = new Float32Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    if (source[i] !== TexelSource.scan) continue;
    base[i * 4] = rgba[i * 4];
    base[i * 4 + 1] = rgba[i * 4 + 1];
    base[i * 4 + 2] = rgba[i * 4 + 2];
    base[i * 4 + 3] = 1;
  }
  const levels: Level[] = [{ size, data: base }];
  while (levels[levels.length - 1].size > 1) levels.push(push(levels[levels.length - 1]));
  for (let k = levels.length - 2; k >= 0; k--) pull(levels[k], levels[k + 1]);
  for (let i = 0; i < size * size; i++) {
    if (source[i] !== TexelSource.fill) continue;
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = Math.round(base[i * 4 + c]);
  }
}

function push(fine: Level): Level {
  const size = Math.max(1, fine.size >> 1);
  const data = new Float32Array(size * size * 4);
  const f = fine.data;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, w = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const i = (Math.min(fine.size - 1, y * 2 + dy) * fine.size + Math.min(fine.size - 1, x * 2 + dx)) * 4;
          const wi = f[i + 3];
          r += f[i] * wi;
          g += f[i + 1] * wi;
          b += f[i + 2] * wi;
          w += wi;
        }
      }
      if (w === 0) continue;
      const o = (y * size + x) * 4;
      data[o] = r / w;
      data[o + 1] = g / w;
      data[o + 2] = b / w;
      data[o + 3] = Math.min(1, w);
    }
  }
  return { size, data };
}

function pull(fine: Level, coarse: Level): void {
  const c = coarse.data;
  const s = coarse.size;
  for (let y = 0; y < fine.size; y++) {
    const fy = Math.min(s - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(fy), y1 = Math.min(s - 1, y0 + 1), ay = fy - y0;
    for (let x = 0; x < fine.size; x++) {
      const o = (y * fine.size + x) * 4;
      const w = fine.data[o + 3];
      if (w >= 1) continue;
      const fx = Math.min(s - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
      const x0 = Math.floor(fx), x1 = Math.min(s - 1, x0 + 1), ax = fx - x0;
      for (let k = 0; k < 3; k++) {
        const top = c[(y0 * s + x0) * 4 + k] * (1 - ax) + c[(y0 * s + x1) * 4 + k] * ax;
        const bottom = c[(y1 * s + x0) * 4 + k] * (1 - ax) + c[(y1 * s + x1) * 4 + k] * ax;
        fine.data[o + k] = w * fine.data[o + k] + (1 - w) * (top + (bottom - top) * ay);
      }
      fine.data[o + 3] = 1;
    }
  }
}
