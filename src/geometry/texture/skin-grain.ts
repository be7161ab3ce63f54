/**
 * The photo's skin grain carried onto the skin beside the face. Texels the photo gives show its pores, freckles and
 * mottling; the skin filled in beside them (the temples, the sides of the cheeks and the jaw, the ears, what a turned
 * face hid) is smooth, so a turned view showed the face as a textured mask on a smooth head. There the fill takes a
 * grain as strong as the photo's skin shows: a tile of value noise in atlas texels, multiplying each channel as the
 * photo's grain moves it.
 */
import { layoutRaster } from './uv-raster.ts';
import { smoothstep, smoothstepBetween } from '../mesh/smoothstep.ts';
import { rec601Luma } from '../render/srgb.ts';

/**
 * The noise's two octaves: their lattice cells (atlas texels) and amplitudes. Beside the face the atlas has 22-34 texels
 * per cm (the face 54), so the grain is about 1.5 and 3 mm across there: drawn in texels, it costs a lookup per texel.
 */
const OCTAVES = [
  { cell: 4, amplitude: 0.8 },
  { cell: 8, amplitude: 0.2 },
] as const;
/** The pattern's square (texels; a power of two, each octave's cell dividing it). */
const TILE = 512;
const TILE_MASK = TILE - 1;
/** Texels whose share is under this take no grain: a few levels of it at most, even at the strongest grain measured. */
const LEAST_SHARE = 0.05;
/** The grain is full within this distance (cm) of the face's outline and gone beyond the second. */
const REACH = [3, 6] as const;
/** The patches the grain is measured on (cm): their half-width, and the half-width of the blur it is the difference from. */
const GRAIN_PATCH = { radius: 0.6, blur: 0.1 } as const;
/** The measured grain's relative strength is kept within this range: a mole or a hair in the patch is no grain. */
const STRENGTH_RANGE = [0, 0.08] as const;

export interface SkinGrainInput {
  /** The albedo atlas, size * size RGBA, changed in place. */
  rgba: Uint8Array;
  size: number;
  uvs: ArrayLike<number>;
  indices: ArrayLike<number>;
  /** Per vertex, how much of the grain its texels take (0..1; see grainShare). */
  share: Float32Array;
  grain: Grain;
}

/**
 * Per head vertex, how much grain the fill there takes: what the photo does not give it (1 - its photo weight), near
 * the face (REACH from the outline's vertices), not under the hair cap (`cap`, its coverage) and not where a fixed
 * colour is painted (`fixed`: the mouth's inside, the eye sockets).
 */
export function grainShare(positions: ArrayLike<number>, faceOval: readonly number[], photoWeight: Float32Array, cap: Float32Array, fixed: readonly number[]): Float32Array {
  const n = photoWeight.length;
  const share = new Float32Array(n);
  const excluded = new Uint8Array(n);
  for (const v of fixed) excluded[v] = 1;
  for (let v = 0; v < n; v++) {
    if (excluded[v] || photoWeight[v] >= 1) continue;
    let nearest = Infinity;
    for (const o of faceOval) {
      const dx = positions[3 * v] - positions[3 * o], dy = positions[3 * v + 1] - positions[3 * o + 1], dz = positions[3 * v + 2] - positions[3 * o + 2];
      nearest = Math.min(nearest, dx * dx + dy * dy + dz * dz);
    }
    share[v] = (1 - photoWeight[v]) * (1 - smoothstepBetween(REACH[0], REACH[1], Math.sqrt(nearest))) * (1 - (cap[v] ?? 0));
  }
  return share;
}

/** The skin's grain: how strong its lightness varies, and how each channel varies with it (1: as the lightness). */
export interface Grain {
  strength: number;
  channels: [number, number, number];
}

const NO_GRAIN: Grain = { strength: 0, channels: [1, 1, 1] };

/**
 * The fine detail of a square patch of plain skin in the atlas (`centre` and `radius` in texels): each texel over its
 * box blur (half-width `blur` texels), less 1. The strength is the SD of the lightness's detail (within STRENGTH_RANGE);
 * each channel's is its regression on it (freckles and blotches are browner where darker). Undefined for a patch
 * that does not fit in the atlas.
 */
export function measureGrain(rgba: Uint8Array, size: number, centre: readonly [number, number], radius: number, blur: number): Grain | undefined {
  const x0 = Math.round(centre[0]) - radius, y0 = Math.round(centre[1]) - radius, side = 2 * radius + 1;
  if (x0 - blur < 0 || y0 - blur < 0 || x0 + side + blur > size || y0 + side + blur > size) return undefined;
  const span = side + 2 * blur;
  // Per texel of the padded patch: R, G, B and the lightness.
  const values = new Float64Array(span * span * 4);
  for (let y = 0; y < span; y++) {
    for (let x = 0; x < span; x++) {
      const at = ((y0 - blur + y) * size + x0 - blur + x) * 4, o = (y * span + x) * 4;
      for (let c = 0; c < 3; c++) values[o + c] = rgba[at + c];
      values[o + 3] = rec601Luma(rgba, at);
    }
  }
  // Summed-area table of the padded patch (one row and column of zeros first): any box's sum in four lookups.
  const stride = span + 1;
  const area = new Float64Array(stride * stride * 4);
  for (let y = 0; y < span; y++) {
    for (let x = 0; x < span; x++) {
      for (let c = 0; c < 4; c++) {
        const at = ((y + 1) * stride + x + 1) * 4 + c;
        area[at] = values[(y * span + x) * 4 + c] + area[at - 4] + area[at - stride * 4] - area[at - stride * 4 - 4];
      }
    }
  }
  const boxArea = (2 * blur + 1) ** 2;
  const sums = new Float64Array(4), products = new Float64Array(4);
  let count = 0;
  const local = new Float64Array(4), detail = new Float64Array(4);
  for (let y = blur; y < blur + side; y++) {
    for (let x = blur; x < blur + side; x++) {
      const a = ((y - blur) * stride + x - blur) * 4, b = ((y - blur) * stride + x + blur + 1) * 4;
      const c0 = ((y + blur + 1) * stride + x - blur) * 4, d = ((y + blur + 1) * stride + x + blur + 1) * 4;
      for (let c = 0; c < 4; c++) local[c] = (area[d + c] - area[b + c] - area[c0 + c] + area[a + c]) / boxArea;
      if (!(local[0] > 0 && local[1] > 0 && local[2] > 0)) continue;
      for (let c = 0; c < 4; c++) detail[c] = values[(y * span + x) * 4 + c] / local[c] - 1;
      for (let c = 0; c < 4; c++) sums[c] += detail[c], products[c] += detail[c] * detail[3];
      count++;
    }
  }
  if (count < 2) return NO_GRAIN;
  const covariance = (c: number) => products[c] / count - (sums[c] / count) * (sums[3] / count);
  const variance = covariance(3);
  if (!(variance > 0)) return NO_GRAIN;
  const strength = Math.min(STRENGTH_RANGE[1], Math.max(STRENGTH_RANGE[0], Math.sqrt(variance)));
  return { strength, channels: [0, 1, 2].map((c) => covariance(c) / variance) as [number, number, number] };
}

/**
 * The photo's grain: the median (by strength) of measureGrain over GRAIN_PATCH squares of the atlas around the `patches` vertices the
 * photo gives fully (plain skin: the cheeks), sized by the atlas's density there (texels per cm between the first two);
 * no grain when the photo gives none of them.
 */
export function photoGrain(rgba: Uint8Array, size: number, positions: ArrayLike<number>, uvs: ArrayLike<number>, photoWeight: Float32Array, patches: readonly number[]): Grain {
  const [a, b] = patches;
  const apart = Math.hypot(positions[3 * a] - positions[3 * b], positions[3 * a + 1] - positions[3 * b + 1], positions[3 * a + 2] - positions[3 * b + 2]);
  const texelsPerCm = (Math.hypot(uvs[2 * a] - uvs[2 * b], uvs[2 * a + 1] - uvs[2 * b + 1]) * size) / (apart || 1);
  const radius = Math.round(GRAIN_PATCH.radius * texelsPerCm), blur = Math.max(1, Math.round(GRAIN_PATCH.blur * texelsPerCm));
  const grains = patches
    .filter((v) => photoWeight[v] >= 0.99)
    .map((v) => measureGrain(rgba, size, [uvs[2 * v] * size, (1 - uvs[2 * v + 1]) * size], radius, blur))
    .filter((g) => g !== undefined)
    .sort((x, y) => x.strength - y.strength);
  return grains.length ? grains[grains.length >> 1] : NO_GRAIN;
}

export function addSkinGrain({ rgba, size, uvs, indices, share, grain }: SkinGrainInput): void {
  const { strength, channels } = grain;
  if (!(strength > 0)) return;
  const triangles: number[] = [];
  for (let t = 0; t < indices.length / 3; t++) if (share[indices[3 * t]] >= LEAST_SHARE || share[indices[3 * t + 1]] >= LEAST_SHARE || share[indices[3 * t + 2]] >= LEAST_SHARE) triangles.push(t);
  if (triangles.length === 0) return;
  const noise = grainTile();
  const raster = layoutRaster(uvs, indices, size);
  const { firstRow, top, spans } = raster;
  const w = new Float64Array(6);
  const [red, green, blue] = channels;
  // The raster's rows walked here, the share interpolated across each triangle (the atlas's texels beside the face,
  // about a million, each a tile lookup). A texel centre on an edge two triangles share (within the raster's tolerance,
  // a thousandth of a texel) takes the grain from both.
  for (const t of triangles) {
    if (firstRow[t] === firstRow[t + 1]) continue;
    raster.box(t, w);
    const sc = share[indices[3 * t + 2]], da = share[indices[3 * t]] - sc, db = share[indices[3 * t + 1]] - sc;
    // Along a row the share changes by `step` a texel.
    const step = w[1] * da + w[4] * db;
    for (let r = firstRow[t], y = top[t]; r < firstRow[t + 1]; r++, y++) {
      const py = y + 0.5, row = (y & TILE_MASK) * TILE, xs = spans[r * 2];
      let s = sc + (w[0] + w[2] * py) * da + (w[3] + w[5] * py) * db + step * (xs + 0.5);
      for (let x = xs, o = (y * size + xs) * 4; x < spans[r * 2 + 1]; x++, o += 4, s += step) {
        if (s < LEAST_SHARE) continue;
        const k = (s < 1 ? s : 1) * strength * noise[row + (x & TILE_MASK)];
        rgba[o] = clampByte(rgba[o] * (1 + k * red));
        rgba[o + 1] = clampByte(rgba[o + 1] * (1 + k * green));
        rgba[o + 2] = clampByte(rgba[o + 2] * (1 + k * blue));
      }
    }
  }
}

function clampByte(x: number): number {
  return x <= 0 ? 0 : x >= 255 ? 255 : (x + 0.5) | 0;
}

let tile: Float32Array | undefined;

/**
 * The grain's pattern, made once per process: a TILE-texel square of value noise (OCTAVES, periodic over the square so
 * that it tiles without a seam), of mean 0 and SD 1.
 */
function grainTile(): Float32Array {
  if (tile) return tile;
  const out = new Float32Array(TILE * TILE);
  for (let y = 0; y < TILE; y++) {
    for (let x = 0; x < TILE; x++) {
      let value = 0;
      for (const { cell, amplitude } of OCTAVES) value += amplitude * periodicNoise(x / cell, y / cell, TILE / cell);
      out[y * TILE + x] = value;
    }
  }
  let sum = 0, sumSq = 0;
  for (const v of out) sum += v, sumSq += v * v;
  const mean = sum / out.length, sd = Math.sqrt(sumSq / out.length - mean * mean);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] - mean) / sd;
  return (tile = out);
}

/** Smooth value noise in 2D over a lattice that repeats every `period` cells: hashed values, smoothstep weights. */
function periodicNoise(x: number, y: number, period: number): number {
  const xi = Math.floor(x), yi = Math.floor(y);
  const fx = smoothstep(x - xi), fy = smoothstep(y - yi);
  const x0 = xi % period, y0 = yi % period, x1 = (xi + 1) % period, y1 = (yi + 1) % period;
  const top = lattice(x0, y0) * (1 - fx) + lattice(x1, y0) * fx;
  const bottom = lattice(x0, y1) * (1 - fx) + lattice(x1, y1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** A lattice point's value in [-1, 1]: an integer hash of its coordinates. */
function lattice(x: number, y: number): number {
  let h = Math.imul(x, 0x8da6b343) ^ Math.imul(y, 0xd8163841);
  h = Math.imul(h ^ (h >>> 13), 0x5bd1e995);
  h ^= h >>> 15;
  return ((h >>> 0) / 0xffffffff) * 2 - 1;
}
