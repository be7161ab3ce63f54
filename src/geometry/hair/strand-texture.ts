/**
 * The hair texture, drawn procedurally: strands along v (root at the top of each card column), with
 * coverage in alpha that thins towards uneven tips, roots darker than tips, per-strand tone, and a
 * highlight band across the strands as an anisotropic hair highlight would put it. Drawn once as shade
 * and alpha; `tintHair` colours it per avatar from the observed base, dark and light colours.
 */
import type { RgbaImage } from '../render/image.ts';
import type { Rgb } from '../texture/rgb-image.ts';
import { ATLAS, HAIR_TEXTURE_SIZE, type AtlasRegion } from './atlas.ts';
import { seededRandom } from '../../util/seeded-random.ts';

export interface StrandPattern {
  size: number;
  /** Brightness multiplier per pixel (about 0.4 .. 1.3). */
  shade: Float32Array;
  /** 0 takes the dark colour, 1 the light one. */
  tone: Float32Array;
  alpha: Uint8Array;
}

let pattern: StrandPattern | undefined;

/** The pattern, drawn on first use (a few tens of milliseconds) and kept. */
export function strandPattern(): StrandPattern {
  pattern ??= drawPattern(HAIR_TEXTURE_SIZE);
  return pattern;
}

function drawPattern(size: number): StrandPattern {
  const rnd = seededRandom(42);
  const shade = new Float32Array(size * size).fill(0.8);
  const tone = new Float32Array(size * size).fill(0.5);
  const alpha = new Uint8Array(size * size);
  const colW = (ATLAS.cardsWidth / ATLAS.cardColumns) * size;
  // Card columns: strands run down the rows (v from 1 at the root to 0 at the tip).
  for (let k = 0; k < ATLAS.cardColumns; k++) {
    const x0 = k * colW, flyaway = k === ATLAS.flyawayColumn;
    const strands = flyaway ? 9 : 70 + k * 6;
    for (let s = 0; s < strands; s++) {
      // Clumps: strands gather around a few centres across the card.
      const clump = Math.floor(rnd() * 6);
      const cx = x0 + colW * (0.12 + 0.76 * ((clump + 0.5) / 6 + (rnd() - 0.5) * 0.2));
      const len = flyaway ? 0.5 + 0.5 * rnd() : 0.55 + 0.45 * Math.sqrt(rnd());
      const strandTone = rnd();
      const bright = 0.75 + 0.45 * rnd();
      const wave = rnd() * 3, waveAmp = 0.6 + rnd() * 1.5;
      const halfWidth = flyaway ? 0.6 : 0.7 + rnd() * 0.8;
      const rows = Math.floor(size * len);
      for (let y = 0; y < rows; y++) {
        const along = y / size; // 0 at the root
        // Strands of a clump converge towards their tip.
        const x = cx + (cx - (x0 + colW / 2)) * 0.08 * (1 - along) + Math.sin(wave + along * 9) * waveAmp;
        const tipFade = Math.min(1, (len - along) / 0.12);
        const highlight = 1 + 0.35 * Math.exp(-(((along - 0.3) / 0.06) ** 2));
        const rootDark = 0.62 + 0.38 * Math.min(1, along / 0.25);
        for (let px = Math.floor(x - halfWidth - 1); px <= Math.ceil(x + halfWidth + 1); px++) {
          if (px < x0 + 1 || px >= x0 + colW - 1) continue;
          const cover = Math.max(0, Math.min(1, halfWidth + 0.5 - Math.abs(px + 0.5 - x))) * tipFade;
          if (cover <= 0) continue;
          const i = y * size + px;
          const a = alpha[i] / 255;
          const na = a + cover * (1 - a);
          const w = cover / na;
          shade[i] = shade[i] * (1 - w) + bright * rootDark * highlight * w;
          tone[i] = tone[i] * (1 - w) + strandTone * w;
          alpha[i] = Math.round(na * 255);
        }
      }
    }
  }
  fillRegion(ATLAS.shell, size, rnd, shade, tone, alpha, 255);
  fillRegion(ATLAS.stubble, size, rnd, shade, tone, alpha, 0);
  return { size, shade, tone, alpha };
}

/**
 * The shell's dense opaque strands (`alphaBase` 255), or stubble: short dark dots on nothing (`alphaBase` 0).
 * Over the bottom `feather` band (the hairline) coverage ends strand by strand at random heights.
 */
function fillRegion(r: AtlasRegion, size: number, rnd: () => number, shade: Float32Array, tone: Float32Array, alpha: Uint8Array, alphaBase: number): void {
  const x0 = Math.floor(r.u0 * size), x1 = Math.ceil(r.u1 * size);
  const y0 = Math.floor((1 - r.v1) * size), y1 = Math.ceil((1 - r.v0) * size);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const i = y * size + x;
    alpha[i] = alphaBase;
    shade[i] = 0.62 + 0.15 * Math.sin(x * 1.7 + Math.sin(y * 0.05) * 3) + 0.1 * rnd();
    tone[i] = rnd() * 0.5;
  }
  if (alphaBase === 0) {
    const dots = ((x1 - x0) * (y1 - y0)) / 6;
    for (let d = 0; d < dots; d++) {
      const x = x0 + Math.floor(rnd() * (x1 - x0)), y = y0 + Math.floor(rnd() * (y1 - y0 - 2));
      for (let k = 0; k < 2; k++) alpha[(y + k) * size + x] = 200 + Math.floor(rnd() * 55);
    }
  }
  const band = Math.max(1, Math.round(r.feather * size));
  for (let x = x0; x < x1; x += 2) {
    // Where this pair of strand pixels ends, as a share of the band up from its bottom edge.
    const tip = 0.15 + 0.8 * rnd();
    for (let y = y1 - band; y < y1; y++) {
      const up = (y1 - y) / band;
      const keep = Math.min(1, Math.max(0, (up - tip) / 0.15 + 0.5));
      for (let k = 0; k < 2 && x + k < x1; k++) alpha[y * size + x + k] = Math.round(alpha[y * size + x + k] * keep);
    }
  }
}

/** The hair texture in the observed colours: sRGB, alpha the coverage. */
export function tintHair(colour: { base: Rgb; dark: Rgb; light: Rgb }): RgbaImage {
  const p = strandPattern();
  const n = p.size * p.size;
  const rgba = new Uint8Array(n * 4);
  const { base, dark, light } = colour;
  for (let i = 0; i < n; i++) {
    const t = p.tone[i], s = p.shade[i];
    for (let k = 0; k < 3; k++) {
      const c = t < 0.5 ? dark[k] + (base[k] - dark[k]) * (t * 2) : base[k] + (light[k] - base[k]) * (t * 2 - 1);
      rgba[i * 4 + k] = Math.max(0, Math.min(255, Math.round(c * s)));
    }
    rgba[i * 4 + 3] = p.alpha[i];
  }
  return { width: p.size, height: p.size, rgba };
}
