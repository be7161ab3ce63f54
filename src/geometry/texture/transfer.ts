/**
 * Texture transfer from a textured scan to a mesh fitted onto it: every texel of the fitted mesh's
 * atlas takes the colour of the scan's surface at the closest scan point (its UV interpolated on the
 * scan's triangle, its texture sampled there). Texels with no scan surface near enough are filled
 * smoothly from the surrounding transferred colour (push-pull), so no seam shows where the scan ends.
 */
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';
import type { RgbImage, Rgb } from './rgb-image.ts';
import { sampleBilinear } from './sample.ts';
import { rasterizeUv, dilate } from './uv-raster.ts';
import { pushPullFill, TexelSource } from './transfer-fill.ts';

export { TexelSource };

export interface TransferScan {
  bvh: TriangleBvh;
  /** The scan's triangles (as given to the BVH) and its per-vertex UVs (v up). */
  indices: Uint32Array;
  uvs: Float32Array;
  texture: RgbImage;
}

export interface TransferTarget {
  size: number;
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  /** Vertex sets painted with a fixed colour instead (the inside of the mouth, the eye sockets). */
  fixed?: { vertices: readonly number[]; colour: Rgb }[];
}

export interface TransferResult {
  rgba: Uint8Array;
  /** Per texel, a TexelSource. */
  source: Uint8Array;
}

/** Passes of dilation beyond the islands so that filtering at their borders does not pull in the background. */
const DILATE_PASSES = 4;
/** Fixed colours win where their per-texel share is above this. */
const FIXED_SHARE = 0.5;

export function transferTexture(target: TransferTarget, scan: TransferScan, maxDistance: number): TransferResult {
  const { size } = target;
  const n = target.positions.length / 3;
  const fixed = target.fixed ?? [];
  const stride = 3 + fixed.length;
  const attrs = new Float32Array(n * stride);
  for (let v = 0; v < n; v++) attrs.set(target.positions.subarray(v * 3, v * 3 + 3), v * stride);
  fixed.forEach((f, k) => f.vertices.forEach((v) => (attrs[v * stride + 3 + k] = 1)));

  const rgba = new Uint8Array(size * size * 4);
  const source = new Uint8Array(size * size);
  const hit = emptyClosestPoint();
  const colour = new Float32Array(3);
  const { uvs, indices, texture } = scan;
  let hint = -1;
  rasterizeUv(target.uvs, target.indices, size, attrs, stride, (texel, a) => {
    if (source[texel] !== TexelSource.none) return;
    source[texel] = TexelSource.fill;
    const o = texel * 4;
    rgba[o + 3] = 255;
    for (let k = 0; k < fixed.length; k++) {
      if (a[3 + k] > FIXED_SHARE) {
        rgba.set(fixed[k].colour, o);
        source[texel] = TexelSource.fixed;
        return;
      }
    }
    if (!scan.bvh.closestPoint(a[0], a[1], a[2], hit, maxDistance, hint)) return;
    hint = hit.triangle;
    const ia = indices[hit.triangle * 3] * 2, ib = indices[hit.triangle * 3 + 1] * 2, ic = indices[hit.triangle * 3 + 2] * 2;
    const u = hit.wa * uvs[ia] + hit.wb * uvs[ib] + hit.wc * uvs[ic];
    const v = hit.wa * uvs[ia + 1] + hit.wb * uvs[ib + 1] + hit.wc * uvs[ic + 1];
    sampleBilinear(texture, u * texture.width, (1 - v) * texture.height, colour);
    rgba[o] = colour[0];
    rgba[o + 1] = colour[1];
    rgba[o + 2] = colour[2];
    source[texel] = TexelSource.scan;
  });
  pushPullFill(rgba, source, size);
  dilate(rgba, Uint8Array.from(source, (s) => (s === TexelSource.none ? 0 : 1)), size, DILATE_PASSES);
  return { rgba, source };
}
