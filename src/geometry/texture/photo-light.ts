/**
 * The photo's light on the face, estimated from the fitted head: white-balanced skin luminance at the
 * face's vertices against their normals (in the camera's frame) gives second-order spherical-harmonics
 * irradiance; dividing it out, with the white balance, gives each vertex's gain from photo to albedo.
 */
import type { Rgb, RgbImage } from './rgb-image.ts';
import { projectPoints, type PhotoCamera } from './photo-camera.ts';
import { sampleBilinear } from './sample.ts';
import { fitShLight, shEvaluate, shDirection } from './sh-light.ts';
import { faceFrame, fitSideLight, sideLightAt } from './side-light.ts';
import { insideDistance } from './bake-albedo.ts';
import { srgbToLinear } from '../render/srgb.ts';

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
/** With the side light left by the harmonics divided out too, the range of the whole: deep shadow is brightened at most 3.3x. */
const EVENED_SHADING = [0.3, 2] as const;

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
  const { photo, camera, gains } = input;
  const n = input.positions.length / 3;
  const img = projectPoints(camera, input.positions);
  const r = camera.rotation;
  const camNormals = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    const x = input.normals[v * 3], y = input.normals[v * 3 + 1], z = input.normals[v * 3 + 2];
    camNormals[v * 3] = r[0] * x + r[1] * y + r[2] * z;
    camNormals[v * 3 + 1] = r[3] * x + r[4] * y + r[5] * z;
    camNormals[v * 3 + 2] = r[6] * x + r[7] * y + r[8] * z;
  }
  const oval: [number, number][] = [];
  let frontMost = Infinity;
  for (const v of input.faceOval) {
    oval.push([img[v * 2], img[v * 2 + 1]]);
    frontMost = Math.min(frontMost, input.positions[v * 3 + 2]);
  }
  const ids: number[] = [];
  const values: number[] = [];
  const colours: number[] = [];
  const px = new Float32Array(3);
  for (let v = 0; v < n; v++) {
    if (camNormals[v * 3 + 2] < MIN_FACING || (input.visible && !input.visible[v])) continue;
    if (input.positions[v * 3 + 2] < frontMost - 1) continue;
    const x = img[v * 2], y = img[v * 2 + 1];
    if (insideDistance(oval, x, y) <= 0) continue;
    const pixel = Math.min(photo.height - 1, Math.max(0, Math.floor(y))) * photo.width + Math.min(photo.width - 1, Math.max(0, Math.floor(x)));
    if (input.features?.[pixel] || (input.matte && input.matte[pixel] < 128)) continue;
    sampleBilinear(photo, x, y, px);
    const red = srgbToLinear[Math.round(px[0])] * gains[0], green = srgbToLinear[Math.round(px[1])] * gains[1], blue = srgbToLinear[Math.round(px[2])] * gains[2];
    ids.push(v);
    values.push(0.2126 * red + 0.7152 * green + 0.0722 * blue);
    colours.push(red, green, blue);
  }
  const normals = new Float32Array(ids.length * 3);
  // Plain loops, not forEach with a closure made per call: inlined, the closure died with the job and took this
  // function's optimized code with it.
  for (let i = 0; i < ids.length; i++) normals.set(camNormals.subarray(ids[i] * 3, ids[i] * 3 + 3), i * 3);
  const sh = fitShLight(normals, Float32Array.from(values));
  const even = withoutSideLight(sh);
  const rel = new Float32Array(n);
  for (let v = 0; v < n; v++) {
    const x = camNormals[v * 3], y = camNormals[v * 3 + 1], z = camNormals[v * 3 + 2];
    const toEven = shEvaluate(even, x, y, z);
    // Normals turned away can take a negative fitted light: that is as dark as the clamp allows.
    const shade = ids.length && toEven > 0 ? shEvaluate(sh, x, y, z) / toEven : 1;
    rel[v] = Math.max(1e-3, shade) ** input.sideLight;
  }
  // What the harmonics leave of the side light, from the samples as they are once the harmonics' share is divided out.
  const { positions } = input;
  const frame = faceFrame(positions, input.faceOval);
  const points = new Float32Array(ids.length * 2);
  const evened = new Float32Array(ids.length * 3);
  for (let i = 0; i < ids.length; i++) {
    const v = ids[i];
    points[i * 2] = positions[v * 3];
    points[i * 2 + 1] = positions[v * 3 + 1];
    for (let c = 0; c < 3; c++) evened[i * 3 + c] = colours[i * 3 + c] / relativeShading(rel[v]);
  }
  const side = fitSideLight(points, evened, frame);
  const share = new Float32Array(3);
  const vertexGain = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    sideLightAt(side, positions[v * 3], positions[v * 3 + 1], share);
    const harmonics = relativeShading(rel[v]);
    for (let c = 0; c < 3; c++) {
      const shading = harmonics * Math.exp(input.evenSides * share[c]);
      vertexGain[v * 3 + c] = gains[c] / Math.min(EVENED_SHADING[1], Math.max(EVENED_SHADING[0], shading));
    }
  }
  const first = Math.hypot(sh[1], sh[2], sh[3]);
  return { sh, direction: shDirection(sh), directionality: sh[0] > 0 ? first / sh[0] : 0, vertexGain, samples: ids.length };
}
