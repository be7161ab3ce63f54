/**
 * The photo's skin grain carried onto the skin beside the face. Texels the photo gives show its pores, freckles and
 * mottling; the skin filled in beside them (the temples, the sides of the cheeks and the jaw, the ears, what a turned
 * face hid) is smooth, so a turned view showed the face as a textured mask on a smooth head. There the fill takes a
 * grain as strong as the photo's skin shows: value noise at the skin's own scale on the head's surface (in cm, not in
 * atlas texels, whose density halves beyond the face), multiplying the colour's lightness.
 */
import { layoutRaster } from './uv-raster.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';

/** Wavelengths (cm) of the noise's two octaves and their amplitudes: blotches of skin tone a few millimetres across. */
const OCTAVES = [
  { wavelength: 0.12, amplitude: 0.8 },
  { wavelength: 0.3, amplitude: 0.2 },
] as const;
/** The grain is full within this distance (cm) of the face's outline and gone beyond the second. */
const REACH = [3, 6] as const;
/** The patches the grain is measured on (cm): their half-width, and the half-width of the blur it is the difference from. */
export const GRAIN_PATCH = { radius: 0.6, blur: 0.1 } as const;
/** The measured grain's relative strength is kept within this range: a mole or a hair in the patch is no grain. */
const STRENGTH_RANGE = [0, 0.08] as const;

export interface SkinGrainInput {
  /** The albedo atlas, size * size RGBA, changed in place. */
  rgba: Uint8Array;
  size: number;
  positions: ArrayLike<number>;
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
      values[o + 3] = 0.299 * rgba[at] + 0.587 * rgba[at + 1] + 0.114 * rgba[at + 2];
    }
  }
  const sums = new Float64Array(4), products = new Float64Array(4);
  let count = 0;
  const local = new Float64Array(4), detail = new Float64Array(4);
  for (let y = blur; y < blur + side; y++) {
    for (let x = blur; x < blur + side; x++) {
      local.fill(0);
      for (let dy = -blur; dy <= blur; dy++) for (let dx = -blur; dx <= blur; dx++) for (let c = 0; c < 4; c++) local[c] += values[((y + dy) * span + x + dx) * 4 + c];
      if (!(local[0] > 0 && local[1] > 0 && local[2] > 0)) continue;
      for (let c = 0; c < 4; c++) detail[c] = values[(y * span + x) * 4 + c] / (local[c] / (2 * blur + 1) ** 2) - 1;
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
 * 0 when none is given.
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

export function addSkinGrain({ rgba, size, positions, uvs, indices, share, grain }: SkinGrainInput): void {
  const { strength, channels } = grain;
  if (!(strength > 0)) return;
  const triangles: number[] = [];
  for (let t = 0; t < indices.length / 3; t++) if (share[indices[3 * t]] > 0 || share[indices[3 * t + 1]] > 0 || share[indices[3 * t + 2]] > 0) triangles.push(t);
  if (triangles.length === 0) return;
  const n = share.length;
  const attrs = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) {
    attrs[4 * v] = positions[3 * v];
    attrs[4 * v + 1] = positions[3 * v + 1];
    attrs[4 * v + 2] = positions[3 * v + 2];
    attrs[4 * v + 3] = share[v];
  }
  // First every covered texel's noise (a texel on a shared edge is met twice: the last one counts), then its SD over
  // them, so that the grain's strength is the measured one whatever the noise's own spread.
  const noise = new Map<number, { value: number; share: number }>();
  layoutRaster(uvs, indices, size).visit(attrs, 4, (texel, at) => {
    if (at[3] <= 0) return;
    let value = 0;
    for (const { wavelength, amplitude } of OCTAVES) value += amplitude * valueNoise(at[0] / wavelength, at[1] / wavelength, at[2] / wavelength);
    noise.set(texel, { value, share: Math.min(1, at[3]) });
  }, triangles);
  let sum = 0, sumSq = 0;
  for (const { value } of noise.values()) sum += value, sumSq += value * value;
  const mean = sum / noise.size, sd = Math.sqrt(Math.max(1e-12, sumSq / noise.size - mean * mean));
  for (const [texel, { value, share: s }] of noise) {
    const k = (s * strength * (value - mean)) / sd;
    for (let c = 0; c < 3; c++) rgba[texel * 4 + c] = Math.min(255, Math.max(0, Math.round(rgba[texel * 4 + c] * (1 + k * channels[c]))));
  }
}

/** Smooth value noise in 3D: hashed lattice values in [-1, 1], interpolated with the smoothstep's weights. */
function valueNoise(x: number, y: number, z: number): number {
  const xi = Math.floor(x), yi = Math.floor(y), zi = Math.floor(z);
  const fx = fade(x - xi), fy = fade(y - yi), fz = fade(z - zi);
  let out = 0;
  for (let c = 0; c < 8; c++) {
    const dx = c & 1, dy = (c >> 1) & 1, dz = (c >> 2) & 1;
    const w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy) * (dz ? fz : 1 - fz);
    out += w * lattice(xi + dx, yi + dy, zi + dz);
  }
  return out;
}

const fade = (t: number) => t * t * (3 - 2 * t);

/** A lattice point's value in [-1, 1]: an integer hash of its coordinates. */
function lattice(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x8da6b343) ^ Math.imul(y, 0xd8163841) ^ Math.imul(z, 0xcb1ab31f);
  h = Math.imul(h ^ (h >>> 13), 0x5bd1e995);
  h ^= h >>> 15;
  return ((h >>> 0) / 0xffffffff) * 2 - 1;
}
