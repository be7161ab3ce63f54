/**
 * Skin colour of a render as an evaluator measures it: the face is found on the render, the median colour
 * of small patches on the cheeks and forehead is averaged and expressed in CIE Lab (D65). Two photos of the
 * same person should give the same skin: their difference is CIE76 ΔE (2-3 is what a person notices).
 */
import type { RgbImage } from '../../src/geometry/texture/rgb-image.ts';
import { medianPatch } from '../../src/geometry/texture/sample.ts';
import { srgbToLinear } from '../../src/geometry/render/srgb.ts';
import { detectFaces } from '../../src/pipeline/face/landmark-model.ts';
import type { RgbaImage } from '../../src/geometry/render/image.ts';

export type Lab = [number, number, number];

/** Landmarks on plain skin of the rendered face: both cheeks, the forehead's middle and sides. */
const CHEEK_FOREHEAD = [50, 280, 205, 425, 151, 108, 337];
/** Patch half-size as a fraction of the distance between the eyes' outer corners. */
const PATCH = 0.04;

/** sRGB (0..255) to CIE Lab under D65. */
export function srgbToLab(rgb: ArrayLike<number>): Lab {
  const [r, g, b] = [0, 1, 2].map((c) => srgbToLinear[Math.min(255, Math.max(0, Math.round(rgb[c])))]);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** '#rrggbb' (as the meta gives colours) to sRGB 0..255. */
export function rgbOfHex(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** CIE76 colour difference. */
export function deltaE(a: Lab, b: Lab): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The cheeks' patches on each side of the rendered face: the subject's right (image left) and left. */
const CHEEKS = { right: [50, 205], left: [280, 425] };

export interface RenderedSkin {
  /** Mean CIE Lab over the cheek and forehead patches. */
  lab: Lab;
  /**
   * The darker cheek's luminance (linear) over the brighter one's, on a front render lit evenly from the front:
   * 1 when the albedo is even from side to side, lower where the photo's side light stayed in it.
   */
  cheekBalance: number;
  /**
   * The cheeks' colour difference without their lightness: the distance between their mean CIE a*, b* (ΔE units).
   * A side light's warm shadow left on one side and a grey, over-corrected other side read as balanced
   * luminance; this sees them.
   */
  cheekChroma: number;
}

/** The skin colour and the cheeks' balance of the largest face on an image, or undefined when no face is found. */
export async function renderedSkin(image: RgbImage): Promise<RenderedSkin | undefined> {
  const faces = await detectFaces(image.data, image.width, image.height);
  if (faces.length === 0) return undefined;
  const face = faces.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  const eyes = Math.hypot(face.mesh[33][0] - face.mesh[263][0], face.mesh[33][1] - face.mesh[263][1]);
  const r = Math.max(1, Math.round(eyes * PATCH));
  const patch = (i: number) => medianPatch(image, face.mesh[i][0], face.mesh[i][1], r);
  const labs = CHEEK_FOREHEAD.map((i) => srgbToLab(patch(i)));
  const luminance = (ids: number[]) => ids.reduce((s, i) => s + linearLuminance(patch(i)), 0) / ids.length;
  const [right, left] = [luminance(CHEEKS.right), luminance(CHEEKS.left)];
  const chroma = (ids: number[]) => [1, 2].map((c) => ids.reduce((s, i) => s + srgbToLab(patch(i))[c], 0) / ids.length);
  const [rightAb, leftAb] = [chroma(CHEEKS.right), chroma(CHEEKS.left)];
  return {
    lab: [0, 1, 2].map((c) => labs.reduce((s, l) => s + l[c], 0) / labs.length) as Lab,
    cheekBalance: Math.min(right, left) / Math.max(right, left, 1e-6),
    cheekChroma: Math.hypot(rightAb[0] - leftAb[0], rightAb[1] - leftAb[1]),
  };
}

/**
 * The side view's cheek and jaw behind the face (`SIDE_CHEEK`, the pipeline's 512 px side view framing the head):
 * pixels of the head at least half as light as `tone` (hair and shadow below that are left out), their r/g
 * chromaticity's distance from `tone`'s, mean and 90th percentile (0 = the skin tone's hue). The skin the photo does
 * not show is filled there; a blotch of another hue (a blush or a shadow's red carried over from the face's border)
 * shows as a higher figure. Undefined where no pixel counts.
 */
export function sideSkinHue(side: RgbaImage, tone: ArrayLike<number>): { mean: number; p90: number } | undefined {
  const toneSum = tone[0] + tone[1] + tone[2];
  const off: number[] = [];
  for (let y = SIDE_CHEEK.y[0]; y < Math.min(side.height, SIDE_CHEEK.y[1]); y++) {
    for (let x = SIDE_CHEEK.x[0]; x < Math.min(side.width, SIDE_CHEEK.x[1]); x++) {
      const o = (y * side.width + x) * 4, { rgba } = side;
      const sum = rgba[o] + rgba[o + 1] + rgba[o + 2];
      if (rgba[o + 3] < 255 || sum < 0.5 * toneSum) continue;
      off.push(Math.hypot(rgba[o] / sum - tone[0] / toneSum, rgba[o + 1] / sum - tone[1] / toneSum));
    }
  }
  if (off.length === 0) return undefined;
  off.sort((a, b) => a - b);
  return { mean: off.reduce((s, d) => s + d, 0) / off.length, p90: off[Math.floor(0.9 * off.length)] };
}

/** The side view's cheek and jaw behind the face, in its pixels. */
const SIDE_CHEEK = { x: [150, 330], y: [180, 360] };

function linearLuminance(rgb: ArrayLike<number>): number {
  const [r, g, b] = [0, 1, 2].map((c) => srgbToLinear[Math.min(255, Math.max(0, Math.round(rgb[c])))]);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** One pair of photos of the same person: the second photo's Lab minus the first's, per channel, and their ΔE. */
export interface SkinPair {
  person: string;
  names: [string | undefined, string | undefined];
  /** ΔL*, Δa*, Δb*: which of lightness (exposure, shading) or the colour's axes carries the difference. */
  difference: Lab;
  deltaE: number;
}

/**
 * Mean ΔE over every pair of photos of the same person (ids 'multi' and undefined skipped; NaN without pairs),
 * and each pair's difference per channel.
 */
export function samePersonDeltaE(skins: { name?: string; person?: string; lab?: Lab }[]): { mean: number; pairs: number; byPair: SkinPair[] } {
  const byPair: SkinPair[] = [];
  skins.forEach((a, i) =>
    skins.slice(i + 1).forEach((b) => {
      if (!a.lab || !b.lab || !a.person || a.person === 'multi' || a.person !== b.person) return;
      const difference = [0, 1, 2].map((c) => b.lab![c] - a.lab![c]) as Lab;
      byPair.push({ person: a.person, names: [a.name, b.name], difference, deltaE: deltaE(a.lab, b.lab) });
    }),
  );
  const mean = byPair.length ? byPair.reduce((s, p) => s + p.deltaE, 0) / byPair.length : NaN;
  return { mean, pairs: byPair.length, byPair };
}

/**
 * How far apart different people's skin colours are: each person's mean Lab (ids 'multi' and undefined skipped),
 * then the mean ΔE over pairs of people and the standard deviation of their L*. A change that brings the same
 * person's photos closer by pulling everyone towards one tone shows here as a smaller spread.
 */
export function betweenPersonSpread(skins: { person?: string; lab?: Lab }[]): { meanDeltaE: number; lightnessSd: number; persons: number } {
  const byPerson = new Map<string, Lab[]>();
  for (const s of skins) if (s.lab && s.person && s.person !== 'multi') byPerson.set(s.person, [...(byPerson.get(s.person) ?? []), s.lab]);
  const means = [...byPerson.values()].map((labs) => [0, 1, 2].map((c) => labs.reduce((sum, l) => sum + l[c], 0) / labs.length) as Lab);
  const ds = means.flatMap((a, i) => means.slice(i + 1).map((b) => deltaE(a, b)));
  const lightness = means.reduce((sum, m) => sum + m[0], 0) / means.length;
  return {
    meanDeltaE: ds.length ? ds.reduce((sum, d) => sum + d, 0) / ds.length : NaN,
    lightnessSd: means.length > 1 ? Math.sqrt(means.reduce((sum, m) => sum + (m[0] - lightness) ** 2, 0) / means.length) : NaN,
    persons: means.length,
  };
}
