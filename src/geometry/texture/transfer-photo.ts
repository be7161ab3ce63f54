/**
 * Puts a region of a second atlas (e.g. baked from a photo) over a transferred one, with per-vertex
 * weights; the second atlas's colours are first scaled per channel so that they match the first one
 * where the weights ramp, so the region's border does not show.
 */
import { rasterizeUv } from './uv-raster.ts';

export interface RegionWeights {
  uvs: Float32Array;
  indices: Uint32Array;
  /** Per vertex, 0..1: how much of the second atlas it takes. */
  weights: Float32Array;
}

/** Weights inside this band count for matching the colours (the region's border). */
const RAMP = [0.05, 0.6];

/** Blends `over` into `base` (both RGBA, `size` square) in place. */
export function blendPhotoRegion(base: Uint8Array, over: Uint8Array, size: number, region: RegionWeights): void {
  const texelWeight = new Float32Array(size * size);
  rasterizeUv(region.uvs, region.indices, size, region.weights, 1, (texel, a) => {
    texelWeight[texel] = Math.max(texelWeight[texel], a[0]);
  });
  const sumBase = [0, 0, 0], sumOver = [0, 0, 0];
  for (let i = 0; i < texelWeight.length; i++) {
    const w = texelWeight[i];
    if (w < RAMP[0] || w > RAMP[1]) continue;
    for (let c = 0; c < 3; c++) {
      sumBase[c] += base[i * 4 + c];
      sumOver[c] += over[i * 4 + c];
    }
  }
  const gain = sumBase.map((b, c) => (sumOver[c] > 0 ? b / sumOver[c] : 1));
  for (let i = 0; i < texelWeight.length; i++) {
    const w = texelWeight[i];
    if (w <= 0) continue;
    for (let c = 0; c < 3; c++) {
      const v = (1 - w) * base[i * 4 + c] + w * Math.min(255, over[i * 4 + c] * gain[c]);
      base[i * 4 + c] = Math.round(v);
    }
  }
}
