/** Colour conversions by table: the renderer lights in linear light, textures and output are sRGB. */

/** sRGB byte to linear [0,1]. */
export const srgbToLinear = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  srgbToLinear[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Rec. 709 luminance weights of linear RGB (the sRGB primaries). */
export const LUMINANCE = [0.2126, 0.7152, 0.0722] as const;

/** Luminance of the linear RGB colour starting at `at` in `c` (of sRGB values: their luma). */
export function luminance(c: ArrayLike<number>, at = 0): number {
  return LUMINANCE[0] * c[at] + LUMINANCE[1] * c[at + 1] + LUMINANCE[2] * c[at + 2];
}

/** Rec. 601 luma of the sRGB colour starting at `at` in `c`: the photo's brightness, as image tools weigh it. */
export function rec601Luma(c: ArrayLike<number>, at = 0): number {
  return 0.299 * c[at] + 0.587 * c[at + 1] + 0.114 * c[at + 2];
}

/** Resolution of the inverse table; 4096 steps keep dark gradients free of banding. */
export const LINEAR_STEPS = 4096;

/** Linear [0,1] quantised to LINEAR_STEPS - 1, to an sRGB byte. */
export const linearToSrgb = new Uint8Array(LINEAR_STEPS);
for (let i = 0; i < LINEAR_STEPS; i++) {
  const c = i / (LINEAR_STEPS - 1);
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  linearToSrgb[i] = Math.round(s * 255);
}
