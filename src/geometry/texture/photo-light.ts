/**
 * The photo's light on the face, estimated from the fitted head: white-balanced skin luminance at the
 * face's vertices against their normals (in the camera's frame) gives second-order spherical-harmonics
 * irradiance; dividing it out, with the white balance, gives each vertex's gain from photo to albedo.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { projectPoints, type PhotoCamera } from './photo-camera.ts';
import { sampleBilinear } from './sample.ts';
import { fitShLight, shEvaluate, shDirection } from './sh-light.ts';
import { boundLogLight, faceFrame, fitSideLight, sideLightAt, type SideLight } from './side-light.ts';
import { insideDistance } from './bake-albedo.ts';
import { srgbToLinear, LUMINANCE, rec601Luma } from '../render/srgb.ts';
import { hairLikeness, hairPatchRadius } from './facial-hair.ts';

export interface PhotoLightInput {
  positions: Float32Array;
  normals: Float32Array;
  photo: RgbImage;
  camera: PhotoCamera;
  /** Vertex ids of the face's outer boundary loop: only vertices inside it are sampled. */
  faceOval: readonly number[];
  /** Per vertex, 0 where the photo's camera did not see the surface. */
  visible?: Uint8Array;
  /** Per photo pixel, non-zero on features that are not skin (eyes, brows, lips): not sampled. */
  features?: Uint8Array;
  /** Per photo pixel, 0..255 person: pixels below half are not sampled. */
  matte?: Uint8Array;
  /** White-balance gains (linear RGB). */
  gains: Rgb;
  /**
   * The photo's skin tone (sRGB, as photographed): samples that read as hair against it (a beard, stubble; see
   * facial-hair.ts) are not light on skin and are not sampled.
   */
  skin?: Rgb;
  /** How much of the side light the spherical harmonics describe is divided out: 1 all of it, 0.5 half (in the exponent), 0 none. */
  sideLight: number;
  /**
   * How much of the side-to-side difference left after that is divided out (in the exponent; see side-light.ts):
   * 1 makes the skin as light on one side as on the other.
   */
  evenSides: number;
}

export interface PhotoLight {
  /** SH irradiance (9 coefficients) of the white-balanced luminance, normals in the camera's frame (x right, y up, z to the camera). */
  sh: Float64Array;
  /** Unit direction towards the light's directional part, camera frame. */
  direction: [number, number, number];
  /** Directional part over ambient (0 = flat light). */
  directionality: number;
  /** Per vertex, linear RGB gains from photo colour to albedo (white balance over relative shading). */
  vertexGain: Float32Array;
  /** Vertices the fit used. */
  samples: number;
}

/** Normals facing the camera less than this are not sampled (grazing: foreshortened and often at the hairline). */
const MIN_FACING = 0.35;
/** Shading relative to the evened light's is clamped to this range: deep shadow is not brightened into noise. */
const RELATIVE_SHADING = [0.6, 1.5] as const;
const relativeShading = (shade: number) => Math.min(RELATIVE_SHADING[1], Math.max(RELATIVE_SHADING[0], shade));
/**
 * With the side light left by the harmonics divided out too, the range of the whole in luminance (log): deep
 * shadow is brightened at most 3.3x. The bound keeps the shading's colour (see side-light.ts' MAX_LOG_SHARE).
 */
const EVENED_SHADING = [Math.log(0.3), Math.log(2)] as const;

/**
 * The light without its side-to-side part: the terms odd in x (x, xy, xz). Dividing the photo's light by it
 * evens out a face lit from one side and keeps the top light and the fall-off towards the silhouette, which
 * the preview's mostly ambient light does not draw again: removing those as well cost likeness on the test
 * photos (identity distance 0.431 -> 0.442 on the eight photos of people photographed twice) and made the
 * same person's skin colour differ more (ΔE 7.2 -> 8.0).
 */
function withoutSideLight(sh: Float64Array): Float64Array {
  const f = Float64Array.from(sh);
  for (const k of [3, 4, 7]) f[k] = 0;
  return f;
}

export function estimatePhotoLight(input: PhotoLightInput): PhotoLight {
  const { positions, camera } = input;
  const img = projectPoints(camera, positions);
  const camNormals = inCameraFrame(camera.rotation, input.normals);
  const oval: [number, number][] = [];
  let frontMost = Infinity;
  for (const v of input.faceOval) {
    oval.push([img[v * 2], img[v * 2 + 1]]);
    frontMost = Math.min(frontMost, positions[v * 3 + 2]);
  }
  const skin = skinSamples(input, img, camNormals, oval, frontMost);
  const { ids, count } = skin;
  const sh = fitShLight(sampleNormals(camNormals, ids, count), skin.values);
  const rel = relativeLight(camNormals, sh, withoutSideLight(sh), count > 0, input.sideLight);
  // What the harmonics leave of the side light, from the samples as they are once the harmonics' share is divided out.
  const side = fitSideLight(samplePoints(positions, ids, count), evenedColours(skin.colours, ids, count, rel), faceFrame(positions, input.faceOval));
  const vertexGain = gainsOf(positions, rel, side, input.gains, input.evenSides);
  const first = Math.hypot(sh[1], sh[2], sh[3]);
  return { sh, direction: shDirection(sh), directionality: sh[0] > 0 ? first / sh[0] : 0, vertexGain, samples: count };
}

/*
 * The loops over the head's vertices below are module functions taking their state as arguments, not loops in
 * estimatePhotoLight: called once per avatar, it was compiled (on stack, 150 ms of TurboFan) again on every one.
 */

/** The unit normals (packed xyz) in the camera's frame. */
function inCameraFrame(r: readonly number[], normals: Float32Array): Float32Array {
  const out = new Float32Array(normals.length);
  for (let v = 0; v < normals.length; v += 3) {
    const x = normals[v], y = normals[v + 1], z = normals[v + 2];
    out[v] = r[0] * x + r[1] * y + r[2] * z;
    out[v + 1] = r[3] * x + r[4] * y + r[5] * z;
    out[v + 2] = r[6] * x + r[7] * y + r[8] * z;
  }
  return out;
}

/** The skin the fit samples: vertex ids, white-balanced luminance and linear colour (packed rgb), the first `count` of each. */
interface SkinSamples {
  ids: Int32Array;
  values: Float32Array;
  colours: Float64Array;
  count: number;
}

/** The vertices facing the camera inside the face's oval, seen, on skin and on the person, with their photo colour. */
function skinSamples(input: PhotoLightInput, img: Float32Array, camNormals: Float32Array, oval: [number, number][], frontMost: number): SkinSamples {
  const { photo, gains, positions, visible, features, matte, skin } = input;
  const n = positions.length / 3;
  const skinLuma = skin ? rec601Luma(skin) : 0;
  const grainRadius = hairPatchRadius(input.camera.pixelsPerCm);
  const samples: SkinSamples = { ids: new Int32Array(n), values: new Float32Array(n), colours: new Float64Array(n * 3), count: 0 };
  const px = new Float32Array(3);
  for (let v = 0; v < n; v++) {
    if (camNormals[v * 3 + 2] < MIN_FACING || (visible && !visible[v])) continue;
    if (positions[v * 3 + 2] < frontMost - 1) continue;
    const x = img[v * 2], y = img[v * 2 + 1];
    if (insideDistance(oval, x, y) <= 0) continue;
    const pixel = Math.min(photo.height - 1, Math.max(0, Math.floor(y))) * photo.width + Math.min(photo.width - 1, Math.max(0, Math.floor(x)));
    if (features?.[pixel] || (matte && matte[pixel] < 128)) continue;
    sampleBilinear(photo, x, y, px);
    if (skinLuma > 0 && isHair(photo, x, y, px, grainRadius, skinLuma)) continue;
    const red = srgbToLinear[Math.round(px[0])] * gains[0], green = srgbToLinear[Math.round(px[1])] * gains[1], blue = srgbToLinear[Math.round(px[2])] * gains[2];
    const k = samples.count++;
    samples.ids[k] = v;
    samples.values[k] = LUMINANCE[0] * red + LUMINANCE[1] * green + LUMINANCE[2] * blue;
    samples.colours[k * 3] = red;
    samples.colours[k * 3 + 1] = green;
    samples.colours[k * 3 + 2] = blue;
  }
  samples.values = samples.values.subarray(0, samples.count);
  return samples;
}

/**
 * Whether the sample at (x, y) (its colour `px`, sRGB) reads as hair against the skin's luma: dark itself, its patch
 * grainy. hairLikeness reads no grain for a sample not dark enough: most samples cost one luma.
 */
function isHair(photo: RgbImage, x: number, y: number, px: Float32Array, r: number, skinLuma: number): boolean {
  return hairLikeness(photo, x, y, r, rec601Luma(px) / skinLuma) >= 0.5;
}

/** Per vertex, the fitted light over the evened one (`even`), to the power `sideLight`; 1 without samples. */
function relativeLight(camNormals: Float32Array, sh: Float64Array, even: Float64Array, sampled: boolean, sideLight: number): Float32Array {
  const rel = new Float32Array(camNormals.length / 3);
  for (let v = 0; v < rel.length; v++) {
    const x = camNormals[v * 3], y = camNormals[v * 3 + 1], z = camNormals[v * 3 + 2];
    const toEven = shEvaluate(even, x, y, z);
    // Normals turned away can take a negative fitted light: that is as dark as the clamp allows.
    const shade = sampled && toEven > 0 ? shEvaluate(sh, x, y, z) / toEven : 1;
    rel[v] = Math.max(1e-3, shade) ** sideLight;
  }
  return rel;
}

/** The samples' normals (packed xyz). */
function sampleNormals(camNormals: Float32Array, ids: Int32Array, count: number): Float32Array {
  const normals = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) for (let c = 0; c < 3; c++) normals[i * 3 + c] = camNormals[ids[i] * 3 + c];
  return normals;
}

/** The samples' head-frame x, y (packed). */
function samplePoints(positions: Float32Array, ids: Int32Array, count: number): Float32Array {
  const points = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    points[i * 2] = positions[ids[i] * 3];
    points[i * 2 + 1] = positions[ids[i] * 3 + 1];
  }
  return points;
}

/** The samples' colours with the harmonics' relative shading divided out. */
function evenedColours(colours: Float64Array, ids: Int32Array, count: number, rel: Float32Array): Float32Array {
  const evened = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const shade = relativeShading(rel[ids[i]]);
    for (let c = 0; c < 3; c++) evened[i * 3 + c] = colours[i * 3 + c] / shade;
  }
  return evened;
}

/** Per vertex, the gains from photo colour to albedo: the white balance over the harmonics' and the side light's shading. */
function gainsOf(positions: Float32Array, rel: Float32Array, side: SideLight, gains: Rgb, evenSides: number): Float32Array {
  const share = new Float32Array(3);
  const vertexGain = new Float32Array(rel.length * 3);
  for (let v = 0; v < rel.length; v++) {
    sideLightAt(side, positions[v * 3], positions[v * 3 + 1], share);
    // The log shading per channel, into `share`.
    const harmonics = Math.log(relativeShading(rel[v]));
    for (let c = 0; c < 3; c++) share[c] = harmonics + evenSides * share[c];
    boundLogLight(share, 0, EVENED_SHADING[0], EVENED_SHADING[1]);
    for (let c = 0; c < 3; c++) vertexGain[v * 3 + c] = gains[c] * Math.exp(-share[c]);
  }
  return vertexGain;
}
