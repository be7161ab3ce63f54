/**
 * Textures of the small parts, drawn procedurally: the eye (sclera, iris in the photo's iris colour with
 * radial fibres and a dark limbal ring, pupil) in the template's eye UV layout, and the teeth and tongue.
 */
import type { RgbImage } from './rgb-image.ts';
import { median } from './sample.ts';
import { CROWN_U, TOOTH_COLUMNS } from '../template/mouth-parts.ts';
import { smoothstep, smoothstepBetween } from '../mesh/smoothstep.ts';

import type { Rgb } from './rgb-image.ts';
import { rec601Luma } from '../render/srgb.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';

export type { Rgb };

export interface IrisUv {
  /** Iris disc centre and radius in the eye's UV space (v up). */
  center: [number, number];
  radius: number;
  pupilRadius: number;
}

/** Ratio of the pupil's radius to the iris radius assumed when sampling the photo's iris. */
const PUPIL_RATIO = 0.38;
/**
 * The white of the eye, set so that it reads as light on the previews as on the photos (the brighter third of the
 * eye's white, measured alike on both: median over the test photos without glasses). [236, 232, 226] read 1.17; at
 * 0.9 of it, [212, 209, 203], 1.06, until the lids, lashes, corneas and lighting of later sessions took it to 1.20; at
 * 0.78 of that it reads 1.0 again. A whiter white than the photo's made the renders less like the person each time.
 */
export const SCLERA: Rgb = [165, 163, 158];
/** The iris where the photo does not show it (the eyes behind opaque lenses): a mid brown, the commonest iris colour. */
export const HIDDEN_IRIS: Rgb = [92, 64, 44];

/**
 * How much of its texture's colour (sRGB) an iris shows lit as the preview lights the face: recessed in the socket,
 * under the lids and the cornea. Median over the test photos' previews, each iris's ring against its texture:
 * 0.86 (0.77-1.03; the cornea's reflection lifts dark irises more).
 */
const IRIS_SHADE = 0.86;

/** An iris in the photo: centre and radius (px), and the eye's opening (the lid margins, a closed polygon) when known. */
export interface PhotoIris {
  x: number;
  y: number;
  r: number;
  opening?: readonly (readonly [number, number])[];
}

/**
 * The iris colour from the photo: median over the iris ring (between pupil and rim) of both eyes, inside each eye's
 * opening (the lids cover the ring's top and often its bottom, and on a narrowed or turned eye their skin and lashes
 * are most of it: p11-a's far eye read #5c3a3a),
 * leaving out specular highlights (too bright), over IRIS_SHADE: the photo's iris lies in the same
 * shade of its socket, lids and cornea as the avatar's does, so taken as it is the avatar's came out darker than
 * the photo's (and its likeness less: brightened 1.3 times, the identity distance fell on 14 of the 18 photos).
 * The whole ring where the openings leave too little of it.
 */
export function sampleIrisColour(photo: RgbImage, irises: PhotoIris[]): Rgb {
  const inOpenings = ringChannels(photo, irises, true);
  const ch = inOpenings[0].length >= MIN_IRIS_PIXELS ? inOpenings : ringChannels(photo, irises, false);
  if (ch[0].length === 0) return [90, 70, 50];
  return ch.map((c) => Math.min(255, median(c) / IRIS_SHADE)) as Rgb;
}

/** Fewer ring pixels than this inside the openings (a squint, a tiny face) and the whole ring is sampled. */
const MIN_IRIS_PIXELS = 24;

/** The ring pixels' channels, without highlights; with `inOpening`, only those inside their eye's opening. */
function ringChannels(photo: RgbImage, irises: PhotoIris[], inOpening: boolean): number[][] {
  const ch: number[][] = [[], [], []];
  for (const { x, y, r, opening } of irises) {
    for (let yy = Math.floor(y - r); yy <= Math.ceil(y + r); yy++) {
      for (let xx = Math.floor(x - r); xx <= Math.ceil(x + r); xx++) {
        if (xx < 0 || yy < 0 || xx >= photo.width || yy >= photo.height) continue;
        const d = Math.hypot(xx - x, yy - y) / r;
        if (d < PUPIL_RATIO + 0.1 || d > 0.85) continue;
        if (inOpening && opening && !insidePolygon(opening, xx + 0.5, yy + 0.5)) continue;
        const i = (yy * photo.width + xx) * 3;
        const lum = rec601Luma(photo.data, i);
        if (lum > 170) continue;
        for (let c = 0; c < 3; c++) ch[c].push(photo.data[i + c]);
      }
    }
  }
  return ch;
}

/** Deterministic hash noise in [0, 1). */
function noise(i: number): number {
  const s = Math.sin(i * 12.9898) * 43758.5453;
  return s - Math.floor(s);
}

/**
 * Per texel of a `size` square eye texture: the iris's shade (NaN outside the iris), from the pupil out
 * to the limbal ring: radial fibres of three widths that wind a little, a darker pupillary zone bounded by
 * a lighter collarette a fifth of the way out, and the limbal ring; and how much of the white and of the
 * pupil covers it. Every edge is smooth over a few texels: the earlier 64 hard-edged wedges, steps at the
 * collarette and the ring, and a 128 texel iris showed as blocks in any close-up. The shade's area mean is
 * IRIS_MEAN_SHADE. The same for every avatar: memoised per size and layout (treat as read-only).
 */
function eyeLayout(size: number, iris: IrisUv): EyeLayout {
  const key = `${size}:${iris.center.join(',')}:${iris.radius}:${iris.pupilRadius}`;
  const cached = eyeLayouts.get(key);
  if (cached) return cached;
  const layout = { shade: new Float32Array(size * size).fill(NaN), white: new Float64Array(size * size), pupil: new Float64Array(size * size) };
  const pupil = iris.pupilRadius / iris.radius;
  const texel = 1 / (size * iris.radius);
  let sum = 0, count = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size, v = 1 - (y + 0.5) / size;
      const d = Math.hypot(u - iris.center[0], v - iris.center[1]) / iris.radius;
      const i = y * size + x;
      // Into the white over 0.08 of the radius, from the limbal ring's shade.
      layout.white[i] = smoothstepBetween(1, 1.08, d);
      layout.pupil[i] = 1 - smoothstepBetween(pupil - 2 * texel, pupil + 2 * texel, d);
      if (d < pupil - 2 * texel || d > 1 + texel) continue;
      const t = (d - pupil) / (1 - pupil);
      const angle = Math.atan2(v - iris.center[1], u - iris.center[0]);
      const wound = angle + 0.02 * Math.sin(2 * angle + 4 * t);
      const fibres = 0.55 * ringNoise(wound, 40, 1) + 0.3 * ringNoise(wound, 97, 2) + 0.15 * ringNoise(wound, 211, 3);
      // The fibres stand out most in the middle of the iris, less at the pupil and the rim.
      const strength = 0.3 + 0.4 * Math.sin(Math.PI * Math.min(1, Math.max(0, t)));
      // The zones of the wedge pattern's, whose proportions the previews' likeness was measured with, made smooth: the
      // pupillary zone at 0.8 out to the collarette, the limbal ring at 0.45 from 0.78 of the way out.
      const pupillary = 0.8 + 0.2 * smoothstepBetween(0.14, 0.22, t);
      const collarette = 1 + 0.1 * Math.exp(-(((t - 0.2) / 0.04) ** 2));
      const limbus = 1 - 0.55 * smoothstepBetween(0.74, 0.81, t);
      const shade = (1 + strength * (fibres - 0.5) * 2) * pupillary * collarette * limbus;
      layout.shade[i] = shade;
      if (d >= pupil && d < 1) [sum, count] = [sum + shade, count + 1];
    }
  }
  const scale = IRIS_MEAN_SHADE / (sum / count);
  for (let i = 0; i < layout.shade.length; i++) layout.shade[i] *= scale;
  eyeLayouts.set(key, layout);
  return layout;
}
interface EyeLayout {
  shade: Float32Array;
  white: Float64Array;
  pupil: Float64Array;
}
const eyeLayouts = new Map<string, EyeLayout>();
/**
 * The iris's mean shade: that of the wedge pattern before it, which the iris colour's measure (IRIS_SHADE) and the
 * previews' iris lightness were tuned with.
 */
const IRIS_MEAN_SHADE = 0.802;
const PUPIL_COLOUR: Rgb = [12, 10, 10];

/** Smooth deterministic noise around a circle in [0, 1]: `cells` values, cosine-interpolated. */
function ringNoise(angle: number, cells: number, seed: number): number {
  const x = ((angle / (2 * Math.PI)) % 1 + 1) % 1 * cells;
  const i = Math.floor(x), f = x - i;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return noise(seed * 1000 + i) * (1 - w) + noise(seed * 1000 + ((i + 1) % cells)) * w;
}

/** RGBA eye texture of `size` x `size`: pupil, iris in `irisColour`, its soft edge and the sclera. */
export function bakeEyeTexture(size: number, iris: IrisUv, irisColour: Rgb): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  const { shade, white, pupil } = eyeLayout(size, iris);
  for (let i = 0; i < size * size; i++) {
    for (let k = 0; k < 3; k++) {
      const irisK = Number.isNaN(shade[i]) ? irisColour[k] * 0.45 : irisColour[k] * shade[i];
      const c = (irisK * (1 - white[i]) + SCLERA[k] * white[i]) * (1 - pupil[i]) + PUPIL_COLOUR[k] * pupil[i];
      out[4 * i + k] = Math.max(0, Math.min(255, Math.round(c)));
    }
    out[4 * i + 3] = 255;
  }
  return out;
}

const solids = new Map<string, Uint8Array>();

/**
 * A uniform colour with a little deterministic grain (an entirely flat texture looks plastic).
 * Memoised: the same few textures serve every avatar (treat the result as read-only).
 */
export function bakeSolidTexture(size: number, colour: Rgb, grain: number): Uint8Array {
  const key = `${size}:${colour.join(',')}:${grain}`;
  const cached = solids.get(key);
  if (cached) return cached;
  const out = new Uint8Array(size * size * 4);
  solids.set(key, out);
  for (let i = 0; i < size * size; i++) {
    const g = 1 + (noise(i) - 0.5) * grain;
    for (let k = 0; k < 3; k++) out[i * 4 + k] = Math.max(0, Math.min(255, Math.round(colour[k] * g)));
    out[i * 4 + 3] = 255;
  }
  return out;
}

export const TEETH_COLOUR: Rgb = [232, 226, 208];
export const GUM_COLOUR: Rgb = [196, 104, 108];
export const TONGUE_COLOUR: Rgb = [176, 86, 92];
export const MOUTH_INSIDE_COLOUR: Rgb = [92, 38, 42];
export const EYE_SOCKET_COLOUR: Rgb = [40, 28, 26];

/**
 * The tongue's texture, or the teeth's (the template's UV layouts: mouth-parts.ts). Memoised like bakeSolidTexture.
 * Shaded as the mouth's inside shades them, which neither the sky occlusion (the mouth's inside is closed at rest)
 * nor a renderer without it shows: the teeth darken from the incisors back to the molars and towards the gums, the
 * gums towards the back; the tongue towards its root and its underside, with a median groove down its top.
 */
export function bakeMouthPartTexture(size: number, part: 'teeth' | 'tongue', gumsBelowV: number): Uint8Array {
  const key = `${part}:${size}:${gumsBelowV}`;
  const cached = solids.get(key);
  if (cached) return cached;
  const out = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x, u = (x + 0.5) / size, v = 1 - (y + 0.5) / size;
      const [colour, shade] = part === 'tongue' ? [TONGUE_COLOUR, tongueShade(u, v)] : v < gumsBelowV ? [GUM_COLOUR, gumShade(u)] : [TEETH_COLOUR, toothShade(u)];
      const g = shade * (1 + (noise(i) - 0.5) * (part === 'tongue' ? 0.12 : 0.06));
      for (let k = 0; k < 3; k++) out[i * 4 + k] = Math.max(0, Math.min(255, Math.round(colour[k] * g)));
      out[i * 4 + 3] = 255;
    }
  }
  solids.set(key, out);
  return out;
}

/** Back teeth in the mouth's shadow: the molars at this share of the incisors' brightness. */
const MOLAR_SHADE = 0.5;

/** A crown's shade at u: by its place along the arch (its column) and from its root (0.8) to its edge (1). */
function toothShade(u: number): number {
  const column = Math.min(TOOTH_COLUMNS - 1, Math.floor(u * TOOTH_COLUMNS));
  const along = Math.min(1, Math.max(0, (u * TOOTH_COLUMNS - column - CROWN_U[0] * TOOTH_COLUMNS) / ((CROWN_U[1] - CROWN_U[0]) * TOOTH_COLUMNS)));
  const back = smoothstep((column - 1) / (TOOTH_COLUMNS - 2));
  return (1 - (1 - MOLAR_SHADE) * back) * (0.8 + 0.2 * along);
}

/** The gums' shade at u (along the arch, its middle at 0.5): darker towards both ends, at the back of the mouth. */
function gumShade(u: number): number {
  return 1 - (1 - MOLAR_SHADE) * smoothstep((Math.abs(2 * u - 1) - 0.3) / 0.7);
}

/** The tongue's top, around its tube (mouth-parts.ts: v runs round from its side at the top of the layout). */
const TONGUE_TOP_V = 0.74;
/**
 * The tongue's shade at (u along it, root to tip; v around it): its root dark in the throat, its underside darker
 * than its top, a shallow groove down the middle of its front two thirds.
 */
function tongueShade(u: number, v: number): number {
  const root = 0.45 + 0.55 * smoothstep((u - 0.05) / 0.5);
  const top = Math.abs(v - TONGUE_TOP_V) / 0.48;
  const under = 1 - 0.3 * smoothstep((top - 0.5) / 0.4);
  const groove = 1 - 0.22 * Math.max(0, 1 - Math.abs(v - TONGUE_TOP_V) / 0.035) * smoothstep((u - 0.3) / 0.3) * (1 - smoothstep((u - 0.9) / 0.08));
  return root * under * groove;
}
