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

/**
 * Corners' scan UVs are interpolated across a target triangle unless one of its edges stretches in the
 * scan's UV space this many times more than the scan's typical UV-per-cm (the corners lie on different
 * charts of the scan's atlas, or only a more stretched part of one): such triangles are checked further.
 */
const SEAM_STRETCH = 4;
/**
 * A triangle that fails that test is still interpolated when the scan UVs queried at its edges' midpoints lie
 * within this many scan texels of the interpolated ones (one chart, only more stretched than typical);
 * otherwise it is split in four at those midpoints, down to UV edges of MAX_QUERIED_TEXELS target texels,
 * below which it is queried per texel.
 */
const LINEAR_TEXELS = 1;
const MAX_QUERIED_TEXELS = 4;

export function transferTexture(target: TransferTarget, scan: TransferScan, maxDistance: number): TransferResult {
  const { size } = target;
  const n = target.positions.length / 3;
  const fixed = target.fixed ?? [];
  // Per vertex: position, the scan's UV at the closest scan point, a share per fixed colour.
  const stride = 5 + fixed.length;
  const attrs = new Float32Array(n * stride);
  const hit = emptyClosestPoint();
  const { uvs, indices, texture } = scan;
  const uv = new Float32Array(2);
  const scanUv = (x: number, y: number, z: number, hint: number): boolean => {
    if (!scan.bvh.closestPoint(x, y, z, hit, maxDistance, hint)) return false;
    const ia = indices[hit.triangle * 3] * 2, ib = indices[hit.triangle * 3 + 1] * 2, ic = indices[hit.triangle * 3 + 2] * 2;
    uv[0] = hit.wa * uvs[ia] + hit.wb * uvs[ib] + hit.wc * uvs[ic];
    uv[1] = hit.wa * uvs[ia + 1] + hit.wb * uvs[ib + 1] + hit.wc * uvs[ic + 1];
    return true;
  };
  const onScan = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    attrs.set(target.positions.subarray(v * 3, v * 3 + 3), v * stride);
    if (scanUv(target.positions[v * 3], target.positions[v * 3 + 1], target.positions[v * 3 + 2], hit.triangle)) {
      onScan[v] = 1;
      attrs.set(uv, v * stride + 3);
    }
  }
  fixed.forEach((f, k) => f.vertices.forEach((v) => (attrs[v * stride + 5 + k] = 1)));
  const { direct, queried, rest, corners } = splitBySeams(target, attrs, stride, onScan, (x, y, z) => (scanUv(x, y, z, -1) ? uv : undefined), LINEAR_TEXELS / Math.max(texture.width, texture.height));

  const rgba = new Uint8Array(size * size * 4);
  const source = new Uint8Array(size * size);
  const colour = new Float32Array(3);
  /** Marks a texel covered; false when it is done already or takes a fixed colour (its shares from a[shares] on). */
  const start = (texel: number, a: Float32Array, shares: number): boolean => {
    if (source[texel] !== TexelSource.none) return false;
    source[texel] = TexelSource.fill;
    rgba[texel * 4 + 3] = 255;
    for (let k = 0; k < fixed.length; k++) {
      if (a[shares + k] > FIXED_SHARE) {
        rgba.set(fixed[k].colour, texel * 4);
        source[texel] = TexelSource.fixed;
        return false;
      }
    }
    return true;
  };
  const paint = (texel: number, u: number, v: number) => {
    sampleBilinear(texture, u * texture.width, (1 - v) * texture.height, colour);
    rgba[texel * 4] = colour[0];
    rgba[texel * 4 + 1] = colour[1];
    rgba[texel * 4 + 2] = colour[2];
    source[texel] = TexelSource.scan;
  };
  // Most texels are interpolated: without the positions, which only the queried ones need.
  const short = stride - 3;
  const scanSide = new Float32Array((corners.attrs.length / stride) * short);
  for (let v = 0, i = 0; i < scanSide.length; v += stride, i += short) scanSide.set(corners.attrs.subarray(v + 3, v + stride), i);
  rasterizeUv(corners.uvs, direct, size, scanSide, short, (texel, a) => {
    if (start(texel, a, 2)) paint(texel, a[0], a[1]);
  });
  rasterizeUv(corners.uvs, queried, size, corners.attrs, stride, (texel, a) => {
    if (start(texel, a, 5) && scanUv(a[0], a[1], a[2], hit.triangle)) paint(texel, uv[0], uv[1]);
  });
  rasterizeUv(corners.uvs, rest, size, scanSide, short, (texel, a) => start(texel, a, 2));
  pushPullFill(rgba, source, size);
  const covered = new Uint8Array(source.length);
  for (let i = 0; i < source.length; i++) covered[i] = source[i] === TexelSource.none ? 0 : 1;
  dilate(rgba, covered, size, DILATE_PASSES);
  return { rgba, source };
}

/**
 * Target triangles whose corners' scan UVs can be interpolated, and those queried per texel (a seam, or
 * partly off the scan); the rest have no corner near the scan (they are filled). Triangles that fail the
 * stretch test are checked at their edges' midpoints and split there (see LINEAR_TEXELS), so only a band
 * of texels along the scan's seams is queried. The returned corners are the target's vertices followed by
 * the midpoints (attributes and target UVs interpolated, scan UVs queried).
 */
function splitBySeams(
  target: TransferTarget,
  vertexAttrs: Float32Array,
  stride: number,
  vertexOnScan: Uint8Array,
  query: (x: number, y: number, z: number) => Float32Array | undefined,
  tolerance: number,
): { direct: Uint32Array; queried: Uint32Array; rest: Uint32Array; corners: { attrs: Float32Array; uvs: Float32Array } } {
  const { indices, size } = target;
  const attrs: number[] = Array.from(vertexAttrs);
  const uvs: number[] = Array.from(target.uvs);
  const onScan: number[] = Array.from(vertexOnScan);
  const stretch = (a: number, b: number) =>
    Math.hypot(attrs[a * stride + 3] - attrs[b * stride + 3], attrs[a * stride + 4] - attrs[b * stride + 4]) /
    Math.max(1e-9, Math.hypot(attrs[a * stride] - attrs[b * stride], attrs[a * stride + 1] - attrs[b * stride + 1], attrs[a * stride + 2] - attrs[b * stride + 2]));
  const samples: number[] = [];
  for (let t = 0; t < indices.length; t += 3 * 7) if (onScan[indices[t]] && onScan[indices[t + 1]]) samples.push(stretch(indices[t], indices[t + 1]));
  samples.sort((x, y) => x - y);
  const limit = SEAM_STRETCH * (samples[samples.length >> 1] ?? Infinity);
  const texels = (a: number, b: number) => size * Math.hypot(uvs[a * 2] - uvs[b * 2], uvs[a * 2 + 1] - uvs[b * 2 + 1]);
  const midpoints = new Map<number, number>();
  const midpoint = (a: number, b: number): number => {
    const key = Math.min(a, b) * 2 ** 26 + Math.max(a, b);
    let m = midpoints.get(key);
    if (m !== undefined) return m;
    m = onScan.length;
    midpoints.set(key, m);
    for (let k = 0; k < stride; k++) attrs.push((attrs[a * stride + k] + attrs[b * stride + k]) / 2);
    uvs.push((uvs[a * 2] + uvs[b * 2]) / 2, (uvs[a * 2 + 1] + uvs[b * 2 + 1]) / 2);
    const uv = query(attrs[m * stride], attrs[m * stride + 1], attrs[m * stride + 2]);
    onScan.push(uv ? 1 : 0);
    if (uv) (attrs[m * stride + 3] = uv[0]), (attrs[m * stride + 4] = uv[1]);
    return m;
  };
  /** Whether the scan UV at midpoint m of a and b is the average of theirs (all three near the scan). */
  const linear = (a: number, b: number, m: number) =>
    onScan[m] === 1 &&
    Math.hypot(attrs[m * stride + 3] - (attrs[a * stride + 3] + attrs[b * stride + 3]) / 2, attrs[m * stride + 4] - (attrs[a * stride + 4] + attrs[b * stride + 4]) / 2) <= tolerance;
  const direct: number[] = [], queried: number[] = [], rest: number[] = [];
  const split = (a: number, b: number, c: number) => {
    const near = onScan[a] + onScan[b] + onScan[c];
    if (near === 3 && stretch(a, b) <= limit && stretch(b, c) <= limit && stretch(c, a) <= limit) return void direct.push(a, b, c);
    if (Math.max(texels(a, b), texels(b, c), texels(c, a)) <= MAX_QUERIED_TEXELS) return void queried.push(a, b, c);
    const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    if (near === 3 && linear(a, b, ab) && linear(b, c, bc) && linear(c, a, ca)) return void direct.push(a, b, c);
    split(a, ab, ca);
    split(ab, b, bc);
    split(ca, bc, c);
    split(ab, bc, ca);
  };
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    if (onScan[a] + onScan[b] + onScan[c] === 0) rest.push(a, b, c);
    else split(a, b, c);
  }
  return {
    direct: Uint32Array.from(direct),
    queried: Uint32Array.from(queried),
    rest: Uint32Array.from(rest),
    corners: { attrs: Float32Array.from(attrs), uvs: Float32Array.from(uvs) },
  };
}
