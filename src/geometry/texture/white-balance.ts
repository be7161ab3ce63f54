/**
 * White balance of a face photo: per-channel gains (linear light) that make the photo look lit by white
 * light. A light's colour is read on two axes. Blue-yellow (warm, cool light) from the white of the eyes and the
 * teeth, each where enough of it shows and it is paler than the skin: skin colours differ between people most along
 * that axis, so skin cannot tell a warm light from a tan. Green-magenta (pink stage light, a green tube) from the
 * eyes and the skin together, each weighted by how little it varies under white light: along that axis skin varies
 * no more between people than the eyes' white does between photos, and it catches a pink, veined white. The skin then
 * keeps the result honest: human skin's hue under white light lies in a narrow band (CIE Lab hue 35-70°, whatever its
 * darkness), and it is neither grey nor vivid (chroma 10-40), so a cast the eyes miss or exaggerate is pulled back
 * until the skin's hue is inside the band, then its chroma inside its range.
 */
import type { Rgb } from './rgb-image.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS, luminance } from '../render/srgb.ts';

/** The white of the eye under white light (sRGB): slightly warm, as measured on the neutrally lit test photos. */
const SCLERA_UNDER_WHITE: Rgb = [186, 170, 166];
/**
 * Sclera pixels (the brighter third, see measureSclera) at which the eyes are fully trusted; fewer fade to no
 * correction. The median of a few hundred pixels is steady; ordinary photos show 450-850 (1200 left casts mostly in
 * place). A white mixed with lid skin is caught by SCLERA_WHITER_THAN_SKIN, a pink or veined one by the skin's
 * green-magenta check, not by the count.
 */
const SCLERA_FULL_TRUST = 300;
/**
 * Spread of the eyes' white along the green-magenta axis (ln G - mean of ln R, ln B, linear light) under white
 * light: SD over the test photos whose eyes are trusted (veins and lids make some pinker).
 */
const SCLERA_GREEN_MAGENTA_SD = 0.1;
/**
 * Skin under white light on the same axis: mean and SD over the 18 test photos. Skin colours differ between people
 * mostly in lightness and along blue-yellow (pale to olive, tan, dark); along green-magenta they hardly differ,
 * so here skin is as good a reference as the eyes' white (on blue-yellow it is not, and only the hue band checks it).
 */
const SKIN_GREEN_MAGENTA = [-0.124, 0.06] as const;
/**
 * The teeth under white light, as ln(R/B) of linear light: median over the test photos showing clean teeth (p01-a,
 * p05-a, p07-a, p07-side, p08-a, p12-a: 0.16-0.55). Teeth are yellower than the eyes' white but vary about as much
 * between people as it does between photos (SD 0.13 for both), so where both are seen they weigh alike; where the
 * eyes are not (glasses, lids, whites as red as the skin) the teeth are the only neutral on that axis.
 */
const TEETH_BLUE_YELLOW = 0.35;
/**
 * How much greener than the skin the teeth are, at least, on the green-magenta axis (a cast moves both alike):
 * teeth are about neutral (0.00) and skin is -0.12, while a mouth whose bright third is lips, gums or tongue reads
 * pinker than the skin (-0.4 and below on the test photos). At this margin and above the teeth are trusted, at none
 * or less not at all.
 */
const TEETH_GREENER_THAN_SKIN = 0.05;
/** How far a light ranges on that axis (a stage gel, a fluorescent tube): a wide prior, near-white light likelier. */
const LIGHT_GREEN_MAGENTA_SD = 0.5;
/** The skin hue band (degrees in CIE Lab). */
export const SKIN_HUE = [35, 70] as const;
/**
 * How much redder than the white of the eyes skin is, at least, in ln(R/B) of linear light: a cast multiplies
 * both alike, so the difference is the light's own and tells a white sclera from one mixed with lid skin or
 * veined (a blurred, squinting or turned eye), which reads as red as the skin. At this margin and above the
 * eyes are trusted, at none or less not at all.
 */
const SCLERA_WHITER_THAN_SKIN = 0.2;
/**
 * The chroma (CIE Lab) of skin under white light. Skin is never near grey: the palest balanced skin tones of the 19
 * test photos have 13 (p09-a, p03-a), and one below 10 has lost its colour to the light (a cool light on warm skin
 * turns it grey-blue, which the hue band alone brings only to its edge, at the chroma the cast left). Nor is it
 * vivid: the most saturated, p08-a and p10-a, have 36 and 33; a skin tone above 40 has the light's colour added
 * (warm stage light on a flushed face).
 */
export const SKIN_CHROMA = [10, 40] as const;
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

/** Scales gains so that they keep the luminance of colour `c` (linear). */
function keepLuminance(gains: Rgb, c: Rgb): Rgb {
  const k = luminance(c) / Math.max(1e-6, luminance([c[0] * gains[0], c[1] * gains[1], c[2] * gains[2]]));
  return gains.map((g) => g * k) as Rgb;
}

/** CIE Lab (D65) of a linear RGB colour. */
function labOfLinear(c: Rgb): Rgb {
  const x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
  const y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
  const [fx, fy, fz] = [x, y, z].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** Linear RGB of a CIE Lab (D65) colour: labOfLinear's inverse. */
function linearOfLab(lab: Rgb): Rgb {
  const fy = (lab[0] + 16) / 116;
  const [x, y, z] = [fy + lab[1] / 500, fy, fy - lab[2] / 200].map((f) => (f > 6 / 29 ? f ** 3 : (116 * f - 16) / (24389 / 27)));
  const [xn, zn] = [x * 0.95047, z * 1.08883];
  return [3.2406 * xn - 1.5372 * y - 0.4986 * zn, -0.9689 * xn + 1.8758 * y + 0.0415 * zn, 0.0557 * xn - 0.204 * y + 1.057 * zn];
}

/** ln(R/B) of a linear colour: a light's position on the blue-yellow axis. */
function blueYellow(c: Rgb): number {
  return Math.log(Math.max(1e-4, c[0]) / Math.max(1e-4, c[2]));
}

/** ln G minus the mean of ln R and ln B of a linear colour: a light's position on the green-magenta axis. */
function greenMagenta(c: Rgb): number {
  return Math.log(Math.max(1e-4, c[1])) - (Math.log(Math.max(1e-4, c[0])) + Math.log(Math.max(1e-4, c[2]))) / 2;
}

/** CIE Lab hue angle (degrees) of a linear RGB colour; only a* and b* are needed, so the light's level does not matter. */
export function hueOfLinear(c: Rgb): number {
  const [, a, b] = labOfLinear(c);
  return (Math.atan2(b, a) * 180) / Math.PI;
}

/** A pale neutral seen in the photo: its colour (sRGB, e.g. a median) and how many pixels it was read from. */
export interface Neutral {
  colour: Rgb;
  pixels: number;
}

/**
 * Trust (0-1) in a neutral as a reference for blue-yellow: full from SCLERA_FULL_TRUST pixels, and only as far as it
 * is paler than the skin on that axis (SCLERA_WHITER_THAN_SKIN; a cast moves both alike, so the difference is the
 * person's and tells a white from one mixed with skin).
 */
function neutralTrust(n: Neutral, skinLin: Rgb): number {
  const redder = blueYellow(skinLin) - blueYellow(linear(n.colour));
  return Math.min(1, n.pixels / SCLERA_FULL_TRUST) * Math.min(1, Math.max(0, redder / SCLERA_WHITER_THAN_SKIN));
}

/** Gains from the skin's, the sclera's and the teeth's colours (sRGB, e.g. medians) of one photo. */
export function whiteBalance(skin: Rgb, sclera?: Neutral, teeth?: Neutral): WhiteBalance {
  const skinLin = linear(skin);
  // The light, as log-ratios of linear light along the two axes a light's colour varies along: blue-yellow (R/B) from
  // the eyes and the teeth, weighted by trust, their summed trust fading the correction out as the evidence thins;
  // green-magenta from the eyes and the skin together, each weighted by how little it varies under white light,
  // against a wide prior on the light.
  const blueYellowSeen: { light: number; trust: number }[] = [];
  let eyesGreenMagenta = 0;
  let eyesWeight = 0;
  if (sclera) {
    const measured = linear(sclera.colour);
    const ref = linear(SCLERA_UNDER_WHITE);
    const trust = neutralTrust(sclera, skinLin);
    blueYellowSeen.push({ light: blueYellow(measured) - blueYellow(ref), trust });
    eyesGreenMagenta = greenMagenta(measured) - greenMagenta(ref);
    eyesWeight = trust / SCLERA_GREEN_MAGENTA_SD ** 2;
  }
  if (teeth) {
    const measured = linear(teeth.colour);
    const greener = greenMagenta(measured) - greenMagenta(skinLin);
    const trust = neutralTrust(teeth, skinLin) * Math.min(1, Math.max(0, greener / TEETH_GREENER_THAN_SKIN));
    blueYellowSeen.push({ light: blueYellow(measured) - TEETH_BLUE_YELLOW, trust });
  }
  const lightBlueYellow = trustedMean(blueYellowSeen);
  const skinWeight = 1 / SKIN_GREEN_MAGENTA[1] ** 2;
  const lightGreenMagenta =
    (eyesWeight * eyesGreenMagenta + skinWeight * (greenMagenta(skinLin) - SKIN_GREEN_MAGENTA[0])) /
    (eyesWeight + skinWeight + 1 / LIGHT_GREEN_MAGENTA_SD ** 2);
  let gains = keepLuminance([Math.exp(-lightBlueYellow / 2), Math.exp(-lightGreenMagenta), Math.exp(lightBlueYellow / 2)], skinLin);
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
  gains = withSkinChroma(gains, skinLin);
  const inv = gains.map((g) => 1 / g);
  const top = Math.max(...inv);
  const light = inv.map((v) => linearToSrgb[Math.round((v / top) * (LINEAR_STEPS - 1))]) as Rgb;
  return { gains, light };
}

/**
 * The estimates' mean weighted by trust, scaled by their summed trust up to 1: one reference trusted in part corrects
 * in part, as the eyes alone always did.
 */
function trustedMean(seen: { light: number; trust: number }[]): number {
  const total = seen.reduce((a, e) => a + e.trust, 0);
  if (total === 0) return 0;
  return (seen.reduce((a, e) => a + e.trust * e.light, 0) / total) * Math.min(1, total);
}

/**
 * Gains that also bring the balanced skin's chroma inside SKIN_CHROMA, at the hue it has (the band's middle if it is
 * grey) and its lightness: the least change that makes it a skin colour again.
 */
function withSkinChroma(gains: Rgb, skinLin: Rgb): Rgb {
  const balanced = mul(skinLin, gains);
  const [l, a, b] = labOfLinear(balanced);
  const chroma = Math.hypot(a, b);
  const wanted = Math.min(SKIN_CHROMA[1], Math.max(SKIN_CHROMA[0], chroma));
  if (wanted === chroma) return gains;
  const hue = chroma > 1e-3 ? Math.atan2(b, a) : (((SKIN_HUE[0] + SKIN_HUE[1]) / 2) * Math.PI) / 180;
  const target = linearOfLab([l, wanted * Math.cos(hue), wanted * Math.sin(hue)]);
  return clampGains(keepLuminance(gains.map((g, c) => (g * Math.max(1e-4, target[c])) / Math.max(1e-4, balanced[c])) as Rgb, skinLin));
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
  return [gained(c[0], gains[0]), gained(c[1], gains[1]), gained(c[2], gains[2])];
}

/** An sRGB channel under its gain (applyGains names the channels: a callback made per call was compiled again every job). */
const gained = (v: number, gain: number): number =>
  linearToSrgb[Math.min(LINEAR_STEPS - 1, Math.round(srgbToLinear[Math.min(255, Math.max(0, Math.round(v)))] * gain * (LINEAR_STEPS - 1)))];

/**
 * How much more the avatar's iris is coloured, against its white, than the photo's. On the front previews the
 * cornea, its reflection and the lids' shade leave about 0.6 of the texture's a*, b* against the white (least squares
 * over 11 test photos' irises, quality's `irisTint`). At 1.5 the previews' irises read closest to the photos' (mean
 * `irisTint` on 12 photos 6.0 with the global gains alone, 4.9 here, 5.7 at 2, where blue and brown irises overshoot).
 */
const IRIS_TINT_GAIN = 1.5;

/**
 * The iris's colour as it stands against the white of its eye. A light iris has little colour of its own, and a
 * viewer reads it against the white beside it: a grey-green iris by a pinkish white looks green. The global gains
 * (`whiteBalance`) weigh the skin over the eyes and leave such an iris grey against the avatar's white. Here the
 * iris's CIE a*, b* less its white's, both under the gains (which take out most of a cast, as a Lab difference alone
 * would not), are put on the avatar's `white`, IRIS_TINT_GAIN times as large, as far as the photo's white is trusted
 * (its pixels, and paler than the skin); its lightness is the balanced colour's.
 */
export function balanceIris(iris: Rgb, gains: Rgb, skin: Rgb, sclera: Neutral | undefined, white: Rgb): Rgb {
  const balanced = applyGains(iris, gains);
  const trust = sclera ? neutralTrust(sclera, linear(skin)) : 0;
  if (!sclera || trust === 0) return balanced;
  const [l, a, b] = labOfLinear(linear(balanced));
  const [, sa, sb] = labOfLinear(linear(applyGains(sclera.colour, gains)));
  const [, wa, wb] = labOfLinear(linear(white));
  const [ta, tb] = [wa + IRIS_TINT_GAIN * (a - sa), wb + IRIS_TINT_GAIN * (b - sb)];
  const out = linearOfLab([l, a + trust * (ta - a), b + trust * (tb - b)]);
  return out.map((v) => linearToSrgb[Math.round(Math.min(1, Math.max(0, v)) * (LINEAR_STEPS - 1))]) as Rgb;
}
