/**
 * A hair cap: the template has no hair, and a bald head changes how a face reads. When the photo shows
 * hair above the forehead, the scalp of the atlas takes its colour (a flat colour, not a hairstyle).
 */
import type { RgbImage, Rgb } from '../geometry/texture/rgb-image.ts';
import { medianPatch, median } from '../geometry/texture/sample.ts';

/** Landmarks along the top of the forehead: the top of the face oval and its neighbours. */
const FOREHEAD_TOP = [10, 109, 338, 67, 297];
const CHIN = 152;
/** How far above the forehead the hair is sampled, as a fraction of the face's height. */
const SAMPLE_ABOVE = 0.12;
/** Colour distance (RGB) from the skin tone above which a sample counts as hair. */
const HAIR_CONTRAST = 45;

function distance(a: Rgb, b: Rgb): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The hair colour above the forehead, or undefined when the samples look like skin (bald) or disagree. */
export function sampleHairColour(photo: RgbImage, landmarks: Float32Array, skin: Rgb): Rgb | undefined {
  const at = (i: number) => [landmarks[i * 3], landmarks[i * 3 + 1]];
  const [tx, ty] = at(10);
  const [cx, cy] = at(CHIN);
  const height = Math.hypot(tx - cx, ty - cy);
  const up = [(tx - cx) / height, (ty - cy) / height];
  const r = Math.max(2, Math.round(height * 0.03));
  const samples = FOREHEAD_TOP.map((i) => {
    const [x, y] = at(i);
    return medianPatch(photo, x + up[0] * height * SAMPLE_ABOVE, y + up[1] * height * SAMPLE_ABOVE, r);
  }).filter((c) => distance(c, skin) > HAIR_CONTRAST);
  if (samples.length < 3) return undefined;
  return [0, 1, 2].map((k) => median(samples.map((s) => s[k]))) as Rgb;
}

function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** Width (cm) over which the cap fades in from the face's border, so the hairline is soft, not the mesh's rim. */
const HAIRLINE_FADE = 2.5;

/**
 * How much each scalp vertex is covered by hair (template space, cm): above the temples and ears at the
 * front and sides, down to the nape at the back, fading in from the face's border (`oval`).
 */
export function hairCoverage(positions: Float32Array, scalp: readonly number[], oval: readonly number[]): Float32Array {
  const out = new Float32Array(positions.length / 3);
  for (const v of scalp) {
    const y = positions[v * 3 + 1];
    const z = positions[v * 3 + 2];
    const line = 4.5 - 9.5 * smoothstep(-3, -13, z);
    let nearest = Infinity;
    for (const o of oval) nearest = Math.min(nearest, Math.hypot(positions[o * 3] - positions[v * 3], positions[o * 3 + 1] - y, positions[o * 3 + 2] - z));
    out[v] = smoothstep(line - 1, line + 1, y) * smoothstep(0, HAIRLINE_FADE, nearest);
  }
  return out;
}
