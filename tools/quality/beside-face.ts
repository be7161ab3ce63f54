/**
 * The step between the photo's skin and the skin filled in beside the face, read on the head's albedo: what a turned
 * view shows as a mask's edge when the fill is darker or greyer than the face. The photo's cheeks (landmarks 50, 280,
 * 205, 425: a 5-texel median each, then the median of the four) against the median texel of the skin vertices
 * 1-3.5 cm from the face's outline, between the eyes' and the mouth corners' heights (the ears are not skin).
 */
import type { RgbImage } from '../../src/geometry/texture/rgb-image.ts';
import type { AvatarModel } from '../../src/model/avatar.ts';
import { buildTemplate } from '../../src/pipeline/head-template.ts';
import { decodeRgb } from '../decode-image.ts';
import { median, medianPatch } from '../../src/geometry/texture/sample.ts';
import { srgbToLab, deltaE, type Lab } from './skin-colour.ts';

const CHEEKS = [50, 280, 205, 425];
/** The eyes' upper lids' middles and the mouth's corners: the band's top and bottom. */
const EYES = [159, 386];
const MOUTH_CORNERS = [61, 291];
/** Distance from the face's outline, cm. */
const BAND = [1, 3.5] as const;
const PATCH = 2;

export interface BesideFaceStep {
  /** Beside minus cheeks: ΔL*, Δa*, Δb*. */
  difference: Lab;
  deltaE: number;
}

/**
 * The step for a head (positions in cm, uvs v up) with its atlas; `skin` the head's skin vertices (no face, no ears),
 * `faceOval` the face's outline. Undefined when no skin vertex lies in the band.
 */
export function besideFaceStep(atlas: RgbImage, positions: Float32Array, uvs: Float32Array, skin: readonly number[], faceOval: readonly number[]): BesideFaceStep | undefined {
  // The texel under a vertex's uv (v up), within the atlas.
  const texel = (v: number) => [
    Math.min(atlas.width - 1, Math.floor(uvs[2 * v] * atlas.width)),
    Math.min(atlas.height - 1, Math.floor((1 - uvs[2 * v + 1]) * atlas.height)),
  ];
  const cheeks = CHEEKS.map((v) => {
    const [x, y] = texel(v);
    return medianPatch(atlas, x, y, PATCH);
  });
  const cheek = [0, 1, 2].map((c) => median(cheeks.map((p) => p[c])));
  const height = (ids: number[]) => ids.reduce((s, v) => s + positions[3 * v + 1], 0) / ids.length;
  const top = height(EYES), bottom = height(MOUTH_CORNERS);
  const beside: number[][] = [[], [], []];
  for (const v of skin) {
    const [x, y, z] = [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
    if (y > top || y < bottom) continue;
    let d = Infinity;
    for (const o of faceOval) d = Math.min(d, Math.hypot(x - positions[3 * o], y - positions[3 * o + 1], z - positions[3 * o + 2]));
    if (d < BAND[0] || d > BAND[1]) continue;
    const [tx, ty] = texel(v);
    for (let c = 0; c < 3; c++) beside[c].push(atlas.data[(ty * atlas.width + tx) * 3 + c]);
  }
  if (beside[0].length === 0) return undefined;
  const a = srgbToLab(cheek), b = srgbToLab(beside.map(median));
  return { difference: [b[0] - a[0], b[1] - a[1], b[2] - a[2]], deltaE: deltaE(a, b) };
}

/** The step on an avatar's head: its base colour texture, its fitted head and its template's skin and face outline. */
export async function modelBesideFace(model: AvatarModel): Promise<BesideFaceStep | undefined> {
  const head = model.meshes.find((m) => m.name === 'head');
  const name = head && model.materials.find((m) => m.name === head.material)?.baseColorTexture;
  const texture = model.textures.find((t) => t.name === name);
  if (!head || !texture) return undefined;
  const { regions, loops } = buildTemplate(model.template);
  return besideFaceStep(await decodeRgb(texture.data), head.geometry.positions, head.geometry.uvs, regions.skin, loops.faceOval);
}
