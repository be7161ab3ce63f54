/**
 * The work on an avatar's photo that needs only the photo, its landmarks and the person matte, not the fitted
 * head: what the photo shows of the hair, and the photo-side half of the textures (the glasses' frame filled,
 * the feature mask, skin and sclera colours and the white balance, the inner matte, the lips repaired, the iris
 * colour and the eye texture). The pipeline has it done on its helper thread while it fits the head
 * (helper-thread.ts); both threads run these functions.
 */
import type { RgbImage } from '../geometry/texture/rgb-image.ts';
import { measureSkinTone } from '../geometry/texture/bake-albedo.ts';
import { whiteBalance, balanceIris, type WhiteBalance } from '../geometry/texture/white-balance.ts';
import { synthesiseLips } from '../geometry/texture/lip-colour.ts';
import { fillCornerCreases } from '../geometry/texture/corner-crease.ts';
import { bakeEyeTexture, HIDDEN_IRIS, SCLERA, type Rgb } from '../geometry/texture/bake-parts.ts';
import { featureMask, measureIris, measureSclera, measureTeeth } from './face/face-regions.ts';
import { detectGlasses, glassesFrameMask, fillMasked, opaqueLenses, withoutOpaqueLenses } from './face/glasses.ts';
import { innerMatte, type PersonMatte } from './face/person-matte.ts';
import { observeHair } from './hair/observe.ts';
import type { HairObservation } from './hair/observation.ts';
import { EYE_TEXTURE_SIZE } from './part-textures.ts';
import type { TemplateView } from './template-view.ts';

/** Landmarks sitting on plain skin (cheeks, forehead, chin) where the skin tone is measured. */
const SKIN_SAMPLE_LANDMARKS = [50, 280, 101, 330, 151, 9, 108, 337, 199, 205, 425];

/** Each mouth corner's landmarks: the outer lip contour's corner and the inner contour's beside it. */
const MOUTH_CORNERS = [
  { outer: 61, inner: 78 },
  { outer: 291, inner: 308 },
];

/** What the photo-only work reads: the analysed photo (FaceAnalysis.image), its landmarks and scale, the person matte. */
export interface PhotoPrepInput {
  image: RgbImage;
  /** FaceAnalysis.landmarks: x, y in image pixels, z. */
  landmarks: Float32Array;
  /** FaceAnalysis.cmPerPixel. */
  cmPerPixel: number;
  matte: PersonMatte;
}

/** The photo-side inputs of the texture bake (head-textures.ts). */
export interface PhotoTexturePrep {
  glasses: boolean;
  /** The photo with the glasses' frame filled (the input image itself without glasses): skin, light and visibility are measured on it. */
  photo: RgbImage;
  /**
   * `photo` with the teeth-like pixels between the lips replaced and the smile's crease beyond the mouth's corners
   * filled: the albedo is sampled from it.
   */
  lipsPhoto: RgbImage;
  /** The lips' colour as the photo shows them (sRGB; black when no pixel looked like lip). */
  lipColour: Rgb;
  /** Per pixel, what it is to the lips' repair (LipRepair.pixels). */
  lipPixels: Uint8Array;
  /** featureMask of the landmarks (eyes, brows, lips), one byte per pixel. */
  features: Uint8Array;
  /** The skin's colour as the photo shows it (sRGB). */
  photoSkin: Rgb;
  balance: WhiteBalance;
  /** innerMatte of the person matte. */
  person: Uint8Array;
  /** The iris colour under white light (sRGB). */
  iris: Rgb;
  /** The eyeballs' RGBA texture, EYE_TEXTURE_SIZE square. */
  eye: Uint8Array;
}

export function observePhotoHair(input: PhotoPrepInput): HairObservation {
  return observeHair(input.image, input.landmarks, input.matte);
}

/** `tpl` gives the lips' contours and the iris's place in the eye texture. */
export function preparePhotoTextures(tpl: Pick<TemplateView, 'source' | 'irisUv'>, input: PhotoPrepInput): PhotoTexturePrep {
  const lm = input.landmarks;
  // Behind opaque lenses the photo shows nothing of the eyes: the lenses are filled as the frame is, and the iris is
  // HIDDEN_IRIS.
  const lenses = opaqueLenses(input.image, lm);
  const frame = detectGlasses(input.image, lm).present;
  const glasses = lenses || frame;
  // The frame comes out of the photo before anything is sampled from it (skin tone, light, albedo).
  const photo = lenses ? withoutOpaqueLenses(input.image, lm, frame) : frame ? fillMasked(input.image, glassesFrameMask(input.image, lm)) : input.image;
  const features = featureMask(lm, photo.width, photo.height);
  const photoSkin = measureSkinTone(
    photo,
    SKIN_SAMPLE_LANDMARKS.map((i) => [lm[i * 3], lm[i * 3 + 1]]),
    Math.max(2, Math.round((1 / input.cmPerPixel) * 0.4)),
  );
  // Seen through lenses (tinted, coated) the white of the eyes is no reference; the teeth are not behind them.
  const contour = (loop: readonly number[]) => loop.map((i): [number, number] => [lm[i * 3], lm[i * 3 + 1]]);
  const innerLips = contour(tpl.source.loops.lipsInner);
  const sclera = glasses ? undefined : measureSclera(photo, lm);
  const balance = whiteBalance(photoSkin, sclera, measureTeeth(photo, innerLips));
  const person = innerMatte(input.matte);
  const lips = synthesiseLips(photo, contour(tpl.source.loops.lipsOuter), innerLips);
  const iris = lenses ? HIDDEN_IRIS : balanceIris(measureIris(photo, lm), balance.gains, photoSkin, sclera, SCLERA);
  const eye = bakeEyeTexture(EYE_TEXTURE_SIZE, tpl.irisUv, iris);
  const corners = MOUTH_CORNERS.map((c) => {
    const [outer, inner] = contour([c.outer, c.inner]);
    return { outer, inner };
  });
  const lipsPhoto = fillCornerCreases(lips.photo, corners, contour(tpl.source.loops.lipsOuter)).photo;
  return { glasses, photo, lipsPhoto, lipColour: lips.colour, lipPixels: lips.pixels, features, photoSkin, balance, person, iris, eye };
}
