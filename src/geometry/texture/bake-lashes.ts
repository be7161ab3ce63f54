/**
 * The eyelash cards' texture: dark strands on full transparency, coverage in alpha. Each card's rectangle
 * of UV space gets strands standing from its root edge (v0) towards its tip edge (v1), tapering, of
 * varied length and lean, as many as the caller asks.
 */
import type { Rgb } from './bake-parts.ts';

export interface LashCardUv {
  /** [u0, v0, u1, v1]: u along the lid, v from the root (v0) to the tip (v1). */
  rect: [number, number, number, number];
  strands: number;
}

/** Lash colour (sRGB): near black with a warm cast. */
const LASH_COLOUR: Rgb = [28, 20, 17];
/** Strand width at the root and at the tip, pixels per 512 of texture. */
const WIDTH = { root: 1.8, tip: 0.4 };

/** Deterministic hash noise in [0, 1). */
function noise(i: number): number {
  const s = Math.sin(i * 78.233 + 1.7) * 43758.5453;
  return s - Math.floor(s);
}

const baked = new Map<string, Uint8Array>();

/** RGBA texture of `size` x `size` (v up, row 0 at v = 1). Memoised: treat the result as read-only. */
export function bakeLashTexture(size: number, cards: readonly LashCardUv[]): Uint8Array {
  const key = `${size}:${JSON.stringify(cards)}`;
  const cached = baked.get(key);
  if (cached) return cached;
  const out = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) out.set(LASH_COLOUR, i * 4);
  const scale = size / 512;
  let seed = 0;
  for (const card of cards) {
    const [u0, v0, u1, v1] = card.rect;
    for (let s = 0; s < card.strands; s++) {
      seed += 3;
      const u = u0 + (u1 - u0) * (0.02 + 0.96 * ((s + noise(seed)) / card.strands));
      const length = 0.55 + 0.45 * noise(seed + 1);
      const lean = (noise(seed + 2) - 0.5) * 0.04 * (u1 - u0);
      // Walk the strand in half-pixel steps, stamping a soft disc whose width tapers to the tip.
      const steps = Math.ceil(Math.abs(v1 - v0) * length * size * 2);
      for (let k = 0; k <= steps; k++) {
        const f = k / steps;
        const x = (u + lean * f * f) * size, y = (1 - (v0 + (v1 - v0) * length * f)) * size;
        const radius = ((WIDTH.root + (WIDTH.tip - WIDTH.root) * f) * scale) / 2;
        for (let py = Math.floor(y - radius - 1); py <= Math.ceil(y + radius + 1); py++) {
          for (let px = Math.floor(x - radius - 1); px <= Math.ceil(x + radius + 1); px++) {
            if (px < 0 || py < 0 || px >= size || py >= size) continue;
            const d = Math.hypot(px + 0.5 - x, py + 0.5 - y);
            const a = Math.max(0, Math.min(1, radius + 0.5 - d));
            const i = (py * size + px) * 4 + 3;
            out[i] = Math.max(out[i], Math.round(255 * a));
          }
        }
      }
    }
  }
  baked.set(key, out);
  return out;
}
