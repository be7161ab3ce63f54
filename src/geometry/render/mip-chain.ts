/**
 * Pre-filtered copies of a texture, each half the size of the one before (a mip chain), so that a fine
 * texture seen small (hair strands a texel or two wide) is sampled from an image already averaged down to
 * about a texel per pixel instead of aliasing into moiré stripes.
 */
import type { RgbaImage } from './image.ts';

const chains = new WeakMap<RgbaImage, RgbaImage[]>();

/** Level 0 is the texture itself; level k is 2^k times smaller a side (at least 1 texel). Built on first use, kept with the image. */
export function mipLevel(texture: RgbaImage, level: number): RgbaImage {
  let chain = chains.get(texture);
  if (!chain) {
    chain = [texture];
    chains.set(texture, chain);
  }
  while (chain.length <= level) {
    const last = chain[chain.length - 1];
    if (last.width === 1 && last.height === 1) break;
    chain.push(halve(last));
  }
  return chain[Math.min(level, chain.length - 1)];
}

/**
 * Averages 2x2 texels weighted by their alpha (colour of transparent texels does not bleed into the
 * coverage's edge), alpha by plain mean.
 */
function halve(src: RgbaImage): RgbaImage {
  const width = Math.max(1, src.width >> 1), height = Math.max(1, src.height >> 1);
  const s = src.rgba, words = texelWords(src), out = new Uint32Array(width * height), bytes = new Uint8Array(out.buffer);
  for (let y = 0; y < height; y++) {
    const r0 = Math.min(src.height - 1, y * 2) * src.width, r1 = Math.min(src.height - 1, y * 2 + 1) * src.width;
    for (let x = 0; x < width; x++) {
      const x0 = Math.min(src.width - 1, x * 2), x1 = Math.min(src.width - 1, x * 2 + 1);
      const o = y * width + x;
      const ta = words[r0 + x0], tb = words[r0 + x1], tc = words[r1 + x0], td = words[r1 + x1];
      if (((ta ^ tb) | (ta ^ tc) | (ta ^ td)) >>> 24 === 0) {
        // Equal alphas weigh the four alike: each byte is their rounded mean (the weighted sum below divides exactly
        // to it), two bytes a time (red+blue, green+alpha). Most texels of a strand texture are this, clear or solid.
        const rb = (ta & 0xff00ff) + (tb & 0xff00ff) + (tc & 0xff00ff) + (td & 0xff00ff) + 0x20002;
        const ga = ((ta >>> 8) & 0xff00ff) + ((tb >>> 8) & 0xff00ff) + ((tc >>> 8) & 0xff00ff) + ((td >>> 8) & 0xff00ff) + 0x20002;
        out[o] = ((rb >>> 2) & 0xff00ff) | (((ga >>> 2) & 0xff00ff) << 8);
        continue;
      }
      const a = (r0 + x0) * 4, b = (r0 + x1) * 4, c = (r1 + x0) * 4, d = (r1 + x1) * 4;
      const wa = s[a + 3] + 1, wb = s[b + 3] + 1, wc = s[c + 3] + 1, wd = s[d + 3] + 1;
      const w = wa + wb + wc + wd;
      bytes[o * 4] = Math.round((s[a] * wa + s[b] * wb + s[c] * wc + s[d] * wd) / w);
      bytes[o * 4 + 1] = Math.round((s[a + 1] * wa + s[b + 1] * wb + s[c + 1] * wc + s[d + 1] * wd) / w);
      bytes[o * 4 + 2] = Math.round((s[a + 2] * wa + s[b + 2] * wb + s[c + 2] * wc + s[d + 2] * wd) / w);
      bytes[o * 4 + 3] = Math.round((w - 4) / 4);
    }
  }
  return { width, height, rgba: bytes };
}

/** The image's texels as 32-bit words (little-endian RGBA), copied only when its bytes are not 4-aligned. */
function texelWords(image: RgbaImage): Uint32Array {
  const b = image.rgba.byteOffset % 4 === 0 ? image.rgba : image.rgba.slice();
  return new Uint32Array(b.buffer, b.byteOffset, image.width * image.height);
}

/**
 * The level for a textured mesh seen on screen (`vb`: per vertex screen x, y at 0-1 and u, v at
 * `uvAt`, `stride` floats apart): from the median over its triangles of texels per pixel, so that a
 * few cards seen edge-on do not blur all the others.
 */
export function minificationLevel(vb: Float32Array, stride: number, uvAt: number, indices: ArrayLike<number>, texture: RgbaImage): number {
  const ratios: number[] = [];
  const step = Math.max(3, Math.floor(indices.length / 3 / 512) * 3);
  for (let t = 0; t + 2 < indices.length; t += step) {
    const a = indices[t] * stride, b = indices[t + 1] * stride, c = indices[t + 2] * stride;
    const screen = Math.abs((vb[b] - vb[a]) * (vb[c + 1] - vb[a + 1]) - (vb[c] - vb[a]) * (vb[b + 1] - vb[a + 1]));
    const du1 = (vb[b + uvAt] - vb[a + uvAt]) * texture.width, dv1 = (vb[b + uvAt + 1] - vb[a + uvAt + 1]) * texture.height;
    const du2 = (vb[c + uvAt] - vb[a + uvAt]) * texture.width, dv2 = (vb[c + uvAt + 1] - vb[a + uvAt + 1]) * texture.height;
    const texels = Math.abs(du1 * dv2 - du2 * dv1);
    if (screen > 1e-6 && texels > 1e-6) ratios.push(texels / screen);
  }
  if (ratios.length === 0) return 0;
  ratios.sort(ascending);
  // Texels per pixel along a side is the square root of the area ratio; its log2 is the level.
  return Math.max(0, Math.round(0.5 * Math.log2(ratios[ratios.length >> 1])));
}

// A module function: a comparator written inline is a new closure every call, and its optimized code died with it
// (compiled again every job).
function ascending(a: number, b: number): number {
  return a - b;
}
