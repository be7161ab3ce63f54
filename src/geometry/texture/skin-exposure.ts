/**
 * The photo's exposure, as far as one photo tells it. The skin's lightness in a photo is its reflectance
 * times the exposure, and nothing on a face separates the two reliably (the white of the eyes is shaded,
 * squinted or blurred into the lids). Both vary: exposure between photos by about half a stop, skin
 * reflectance between people by about a stop (one standard deviation, in the logarithm). The most probable
 * reflectance given the photo (the posterior mean of log-normal priors) is then the photo's skin pulled in
 * the logarithm a fifth of the way towards the population's typical skin: two photos of one person differ
 * by four fifths of their exposure difference, and a dark or a light skin moves by a fifth of its distance
 * from the typical one.
 */
import type { Rgb } from './rgb-image.ts';
import { srgbToLinear } from '../render/srgb.ts';

/** Exposure's spread between photos and skin reflectance's between people, standard deviations in stops. */
const EXPOSURE_STOPS = 0.5;
const SKIN_STOPS = 1;
/** The share of the log-luminance pulled to the prior: the exposure's share of the total variance. */
export const EXPOSURE_SHARE = EXPOSURE_STOPS ** 2 / (EXPOSURE_STOPS ** 2 + SKIN_STOPS ** 2);
/**
 * Typical skin's linear luminance in a well-exposed photo: one stop above the 18 % middle grey that exposure
 * meters aim at (where the zone system places skin).
 */
export const TYPICAL_SKIN_LUMINANCE = 0.36;

/** The factor (linear light, all channels alike) that takes the photo's skin (sRGB) to its most probable exposure. */
export function exposureGain(skin: Rgb): number {
  const lin = skin.map((v) => srgbToLinear[Math.min(255, Math.max(0, Math.round(v)))]);
  const y = Math.max(1e-4, 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]);
  return (TYPICAL_SKIN_LUMINANCE / y) ** EXPOSURE_SHARE;
}
