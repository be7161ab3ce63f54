/**
 * The photo's lashes taken off the upper lids' skin. The photo shows the upper lid as a band a few pixels tall,
 * crossed by the lashes (dark, or pale against a shaded lid), and the bake lays that band over the lid's skin. Open,
 * the band is narrow and the avatar's own lash cards stand over it; a blink turns the lid towards the viewer and
 * spreads the band over the eye, the lashes as streaks from the margin to the crease. Each texel of the lid takes the
 * mean of its neighbours along the lid (the atlas rows: the face's chart has the eyes level), which keeps what runs
 * along the lid (liner, the lid's shade, the crease) and the lashes' darkness as a soft line, and drops what crosses
 * it. A median, which drops the lashes' darkness too, cost the likeness more (identity on 8 test photos 0.3437 ->
 * 0.3550, the mean 0.3505).
 */
import { layoutRaster } from './uv-raster.ts';

/** The lid is the skin the blink moves by at least this share of its most (blinkReach), fully from twice it. */
const LID_FROM = 0.02;
/** Neighbours on each side along the lid, as a share of the atlas's width: about a tenth of an eye's width. */
const ALONG = 0.007;

export interface LidStreaksInput {
  /** The atlas, size * size RGBA, changed in place. */
  rgba: Uint8Array;
  size: number;
  uvs: ArrayLike<number>;
  indices: ArrayLike<number>;
  /** Per vertex, the blink's reach (see blinkReach). */
  reach: Float32Array;
}

export function removeLidStreaks({ rgba, size, uvs, indices, reach }: LidStreaksInput): void {
  // Only the lids' triangles are walked, into a grid over their box: the atlas is 4 M texels, the lids a few thousand.
  const triangles: number[] = [];
  let x0 = size, x1 = -1, y0 = size, y1 = -1;
  // Corners by index, not an array and a callback per triangle: those were about 6 MB of garbage per avatar.
  for (let t = 0; t < indices.length / 3; t++) {
    if (!(reach[indices[3 * t]] > LID_FROM || reach[indices[3 * t + 1]] > LID_FROM || reach[indices[3 * t + 2]] > LID_FROM)) continue;
    triangles.push(t);
    for (let k = 0; k < 3; k++) {
      const v = indices[3 * t + k];
      x0 = Math.min(x0, Math.floor(uvs[2 * v] * size)), x1 = Math.max(x1, Math.ceil(uvs[2 * v] * size));
      y0 = Math.min(y0, Math.floor((1 - uvs[2 * v + 1]) * size)), y1 = Math.max(y1, Math.ceil((1 - uvs[2 * v + 1]) * size));
    }
  }
  if (triangles.length === 0) return;
  x0 = Math.max(0, x0), y0 = Math.max(0, y0), x1 = Math.min(size - 1, x1), y1 = Math.min(size - 1, y1);
  const width = x1 - x0 + 1;
  const lid = new Float32Array(width * (y1 - y0 + 1));
  layoutRaster(uvs, indices, size).visit(reach, 1, (texel, at) => {
    if (at[0] > LID_FROM) lid[(Math.floor(texel / size) - y0) * width + (texel % size) - x0] = at[0];
  }, triangles);
  const half = Math.max(1, Math.round(ALONG * size));
  // Running sums along a row of the lid's texels (colour and count): each window's mean is two lookups.
  const sums = new Float64Array((width + 1) * 4);
  for (let y = y0; y <= y1; y++) {
    const row = (y - y0) * width;
    for (let i = 0; i < width; i++) {
      const at = (y * size + x0 + i) * 4, inLid = lid[row + i] > 0;
      for (let c = 0; c < 3; c++) sums[(i + 1) * 4 + c] = sums[i * 4 + c] + (inLid ? rgba[at + c] : 0);
      sums[(i + 1) * 4 + 3] = sums[i * 4 + 3] + (inLid ? 1 : 0);
    }
    if (sums[width * 4 + 3] === 0) continue;
    for (let i = 0; i < width; i++) {
      if (!(lid[row + i] > 0)) continue;
      const lo = Math.max(0, i - half), hi = Math.min(width, i + half + 1);
      const count = sums[hi * 4 + 3] - sums[lo * 4 + 3];
      const weight = Math.min(1, (lid[row + i] - LID_FROM) / LID_FROM);
      const at = (y * size + x0 + i) * 4;
      for (let c = 0; c < 3; c++) rgba[at + c] = Math.round(rgba[at + c] + weight * ((sums[hi * 4 + c] - sums[lo * 4 + c]) / count - rgba[at + c]));
    }
  }
}
