/**
 * White balance of a face photo: per-channel gains (linear light) that make the photo look lit by white
 * light. The white of the eyes is the reference where enough of it shows; the skin keeps the result honest:
 * human skin's hue under white light lies in a narrow band (CIE Lab hue 35-70°, whatever its darkness), so
 * a cast the eyes miss or exaggerate is pulled back until the skin's hue is inside it.
 */
import type { Rgb } from './rgb-image.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS } from '../render/srgb.ts';

/** The white of the eye under white light (sRGB): slightly warm, as measured on the neutrally lit test photos. */
const SCLERA_UNDER_WHITE: Rgb = [186, 170, 166];
/** Sclera pixels (the brighter third, see measureSclera) at which the eyes are fully trusted; fewer fade to no correction. */
const SCLERA_FULL_TRUST = 1200;
/** The skin hue band (degrees in CIE Lab). */
export const SKIN_HUE = [35, 70] as const;
/**
 * How much redder than the white of the eyes skin is, at least, in ln(R/B) of linear light: a cast multiplies
 * both alike, so the difference is the light's own and tells a white sclera from one mixed with lid skin or
 * veined (a blurred, squinting or turned eye), which reads as red as the skin. At this margin and above the
 * eyes are trusted, at none or less not at all.
 */
const SCLERA_WHITER_THAN_SKIN = 0.2;
/** Most a single channel is changed, either way: stronger casts are left partly in place rather than guessed. */
const MAX_GAIN = 1.8;

export interface WhiteBalance {
  /** Multipliers of linear R, G, B (luminance kept). */
  gains: Rgb;
  /** The light's colour the gains remove (sRGB, brightest channel 255). */
  light: Rgb;
}

function linear(c: Rgb): Rgb {
  return c.map((v) => srgbToLinear[Math.min(255, Math.max(0, Math.round(v)))]) as Rgb;
}

const lum = (c: ArrayLike<number>) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];

/** Scales gains so that they keep the luminance of colour `c` (linear). */
function keepLuminance(gains: Rgb, c: Rgb): Rgb {
  const k = lum(c) / Math.max(1e-6, lum([c[0] * gains[0], c[1] * gains[1], c[2] * gains[2]]));
  return gains.map((g) => g * k) as Rgb;
}

/** CIE Lab hue angle (degrees) of a linear RGB colour; only a* and b* are needed, so the light's level does not matter. */
export function hueOfLinear(c: Rgb): number {
  const x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
  const y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
  const [fx, fy, fz] = [x, y, z].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116));
  return (Math.atan2(200 * (fy - fz), 500 * (fx - fy)) * 180) / Math.PI;
}

/** Gains from the sclera's and the skin's colours (sRGB, e.g. medians) of one photo. */
export function whiteBalance(skin: Rgb, sclera?: { colour: Rgb; pixels: number }): WhiteBalance {
  const skinLin = linear(skin);
  let gains: Rgb = [1, 1, 1];
  if (sclera) {
    const measured = linear(sclera.colour);
    const redder = Math.log(skinLin[0] / Math.max(1e-4, skinLin[2])) - Math.log(measured[0] / Math.max(1e-4, measured[2]));
    const trust = Math.min(1, sclera.pixels / SCLERA_FULL_TRUST) * Math.min(1, Math.max(0, redder / SCLERA_WHITER_THAN_SKIN));
    const ref = linear(SCLERA_UNDER_WHITE);
    gains = keepLuminance(measured.map((m, c) => Math.exp(trust * Math.log(ref[c] / Math.max(1e-4, m)))) as Rgb, measured);
  }
  gains = keepLuminance(clampGains(gains), skinLin);
  // Skin outside the hue band: move along the cast's blue-yellow and green-magenta axes (the two a daylight or
  // stage light varies along) until it is inside, by bisection on the amount.
  const hue = hueOfLinear(mul(skinLin, gains));
  const target = hue < SKIN_HUE[0] ? SKIN_HUE[0] : hue > SKIN_HUE[1] ? SKIN_HUE[1] : undefined;
  if (target !== undefined) {
    // Lower hue (pinker) needs more green and less blue, higher hue (yellow-green) the reverse.
    const dir = hue < target ? 1 : -1;
    const at = (t: number): Rgb => clampGains(keepLuminance([gains[0], gains[1] * Math.exp(0.5 * dir * t), gains[2] * Math.exp(-dir * t)], skinLin));
    let lo = 0;
    let hi = 1.5;
    for (let i = 0; i < 24; i++) {
      const mid = (lo + hi) / 2;
      const h = hueOfLinear(mul(skinLin, at(mid)));
      if ((dir > 0 && h < target) || (dir < 0 && h > target)) lo = mid;
      else hi = mid;
    }
    gains = at(hi);
  }
  const inv = gains.map((g) => 1 / g);
  const top = Math.max(...inv);
  const light = inv.map((v) => linearToSrgb[Math.round((v / top) * (LINEAR_STEPS - 1))]) as Rgb;
  return { gains, light };
}

function mul(c: Rgb, g: Rgb): Rgb {
  return [c[0] * g[0], c[1] * g[1], c[2] * g[2]];
}

function clampGains(g: Rgb): Rgb {
  const mean = Math.cbrt(g[0] * g[1] * g[2]);
  return g.map((v) => mean * Math.min(MAX_GAIN, Math.max(1 / MAX_GAIN, v / mean))) as Rgb;
}

/** An sRGB colour under the gains. */
export function applyGains(c: Rgb, gains: Rgb): Rgb {
  return c.map((v, i) => linearToSrgb[Math.min(LINEAR_STEPS - 1, Math.round(srgbToLinear[Math.min(255, Math.max(0, Math.round(v)))] * gains[i] * (LINEAR_STEPS - 1)))]) as Rgb;
}
