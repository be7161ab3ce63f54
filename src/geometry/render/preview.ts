import type { AvatarModel, Vec3 } from '../../model/avatar.ts';
import type { Camera } from './camera.ts';
import type { RgbaImage } from './image.ts';
import type { LightRig } from './lighting.ts';
import { computeTangents } from '../mesh/tangents.ts';
import { renderMeshes, type RenderItem, type RenderMode } from './rasterize.ts';

export const PREVIEW_SIZE = 1024;
/** Vertical field of view of the preview: narrow, like a portrait lens, so the face is not distorted. */
const PREVIEW_FOV = 20;
/**
 * The camera looks slightly down on the head, nearly level, as a portrait is taken. A mouth's corners lie about 1 cm
 * behind its middle, so seen from higher up a neutral mouth reads as a smile: the fitted heads' own mouths (the
 * template's corners sit 0.015 mouth widths below its middle) read 0.017 mouth widths of corner lift from 8 degrees,
 * 0.002 from 4 (issue 19; the 18 test photos' meshes).
 */
const PREVIEW_ELEVATION_DEG = 4;
/** Free space around the framed part, as a fraction of its half height. */
const PREVIEW_MARGIN = 1.1;
/**
 * How far below the top of the head the frame reaches, in head breadths (ear to ear): a head is
 * about 1.5 breadths from crown to chin, so this shows the face and the upper neck, as a portrait does.
 */
const PREVIEW_DEPTH_BREADTHS = 1.75;

/**
 * The views of the avatar rendered into every package, by the camera's turn around the head in
 * degrees, towards the subject's left; the service's preview is the front one.
 */
export const PREVIEW_VIEWS = { front: 0, threeQuarter: 45, side: 90 } as const;
export type PreviewView = keyof typeof PREVIEW_VIEWS;

/** Renders the model as the service's preview: transparent background, front view from slightly above. */
export function renderPreview(
  model: AvatarModel,
  textures: ReadonlyMap<string, RgbaImage>,
  opts: { size?: number; mode?: RenderMode; light?: LightRig } = {},
): RgbaImage {
  const size = opts.size ?? PREVIEW_SIZE;
  return renderMeshes(softItems(modelItems(model, textures)), previewCamera(model), {
    width: size,
    height: size,
    supersample: 2,
    mode: opts.mode ?? 'textured',
    light: opts.light,
  });
}

/**
 * The model's meshes (rest pose) with their materials as render items: base colour and coverage,
 * alpha mode, sides, normal map (with tangents), occlusion and roughness. `textures` holds the
 * decoded images by texture name.
 */
export function modelItems(model: AvatarModel, textures: ReadonlyMap<string, RgbaImage>): RenderItem[] {
  return model.meshes.map((mesh): RenderItem => {
    const material = model.materials.find((m) => m.name === mesh.material);
    if (!material) return { geometry: mesh.geometry };
    const image = (name: string | undefined) => (name === undefined ? undefined : textures.get(name));
    const [r, g, b, a] = material.baseColorFactor;
    const normalMap = image(material.normalTexture);
    const { positions, normals, uvs, indices } = mesh.geometry;
    return {
      geometry: mesh.geometry,
      texture: image(material.baseColorTexture),
      color: [r, g, b],
      opacity: a,
      alphaMode: material.alphaMode,
      alphaCutoff: material.alphaCutoff,
      doubleSided: material.doubleSided,
      normalMap,
      tangents: normalMap && computeTangents(positions, normals, uvs, indices),
      occlusion: image(material.occlusionTexture),
      roughnessMap: image(material.metallicRoughnessTexture),
      roughness: material.roughness,
    };
  });
}

/**
 * Items as the service draws its own pictures: alpha-tested (MASK) materials soft, texels at full
 * coverage in the opaque pass and the rest blended back to front after it (rasterize.ts), so hair strands
 * thin out instead of ending in cut-out steps, and sampled pre-filtered (their strands are finer than a pixel at
 * preview size and would alias into stripes). The packages keep the glTF cutoff for engines, which do not sort one
 * mesh's triangles.
 */
export function softItems(items: readonly RenderItem[]): RenderItem[] {
  return items.map((item) => (item.alphaMode === 'MASK' ? { ...item, alphaMode: 'BLEND', mipmap: true } : item));
}

/**
 * A camera slightly above the model that frames the head and upper neck in a square image: in
 * front of it (+z) for the front view, turned around the head towards the subject's left (+x) for the others.
 */
export function previewCamera(model: AvatarModel, view: PreviewView = 'front'): Camera {
  let top = -Infinity;
  for (const mesh of model.meshes) {
    const p = mesh.geometry.positions;
    for (let i = 1; i < p.length; i += 3) top = Math.max(top, p[i]);
  }
  if (!(top > -Infinity)) throw new RangeError('renderPreview: the model has no vertices');
  // Breadth of the head itself, at the eyes and above: neither hair standing out or hanging wide nor the
  // bust's shoulders push the frame down the neck.
  const head = model.meshes.find((m) => m.name === 'head')?.geometry.positions;
  const eyes = model.meshes.filter((m) => m.name === 'eyeLeft' || m.name === 'eyeRight').map((m) => m.geometry.positions);
  const eyeY = eyes.length ? Math.min(...eyes.map((p) => meanY(p))) : -Infinity;
  let breadth = 0;
  if (head) {
    let a = Infinity, b = -Infinity;
    for (let i = 0; i < head.length; i += 3) if (head[i + 1] >= eyeY) [a, b] = [Math.min(a, head[i]), Math.max(b, head[i])];
    breadth = b - a;
  }
  const bottom = breadth > 0 ? top - PREVIEW_DEPTH_BREADTHS * breadth : -Infinity;
  // The box of what the frame shows: everything from the top of the head down to `bottom`.
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const mesh of model.meshes) {
    const p = mesh.geometry.positions;
    for (let i = 0; i < p.length; i += 3) {
      if (p[i + 1] < bottom) continue;
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], p[i + k]);
        hi[k] = Math.max(hi[k], p[i + k]);
      }
    }
  }
  lo[1] = Math.max(lo[1], bottom);
  const target: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  // The bounding box as the turned camera sees it: its width across the view and its depth along it.
  const turn = (PREVIEW_VIEWS[view] * Math.PI) / 180;
  const [sin, cos] = [Math.abs(Math.sin(turn)), Math.abs(Math.cos(turn))];
  const across = cos * (hi[0] - lo[0]) + sin * (hi[2] - lo[2]);
  const along = sin * (hi[0] - lo[0]) + cos * (hi[2] - lo[2]);
  const half = (Math.max(across, hi[1] - lo[1]) / 2) * PREVIEW_MARGIN;
  // Distance from the front of the bounding box at which the half extent fills half the field of view.
  const distance = half / Math.tan((PREVIEW_FOV * Math.PI) / 360) + along / 2;
  const el = (PREVIEW_ELEVATION_DEG * Math.PI) / 180;
  const eye: Vec3 = [
    target[0] + distance * Math.cos(el) * Math.sin(turn),
    target[1] + distance * Math.sin(el),
    target[2] + distance * Math.cos(el) * Math.cos(turn),
  ];
  return { type: 'perspective', fovY: PREVIEW_FOV, eye, target, up: [0, 1, 0] };
}

function meanY(p: Float32Array): number {
  let sum = 0;
  for (let i = 1; i < p.length; i += 3) sum += p[i];
  return sum / (p.length / 3);
}
