/**
 * The PBR maps (occlusion, roughness, normal) of a template's meshes. They come from the template's
 * geometry and regions alone, so they are baked and PNG-encoded once per template and process and
 * shared by every avatar made from it (the fit moves the surface a little; the maps hold its detail).
 */
import type { Texture } from '../model/avatar.ts';
import type { RgbaImage } from '../geometry/render/image.ts';
import { bakeSurfaceMaps, vertexOcclusion, yawFreeEyeOcclusion, type SurfaceLook } from '../geometry/texture/bake-surface-maps.ts';
import { BOUND_PART_NAMES, type HeadTemplate } from '../geometry/template/types.ts';
import type { TemplateView } from './template-view.ts';
import { encodeTextures } from './encode-textures.ts';
import { imagesInSharedMemory } from './shared-memory.ts';
import { insidePolygon } from '../geometry/spatial/inside-polygon.ts';
import { smoothOverSurface } from '../geometry/mesh/surface-smooth.ts';

/** The slots' file names: `<mesh>_<slot>.png`. */
export const SURFACE_SLOTS = { normal: 'normal', occlusion: 'occlusion', metallicRoughness: 'metallicRoughness' } as const;
export const surfaceMapName = (mesh: string, slot: keyof typeof SURFACE_SLOTS) => `${mesh}_${SURFACE_SLOTS[slot]}.png`;

/** Looks by region. Roughness: wet mouth and eyes, smoother lips, matt skin. */
const SKIN: SurfaceLook = { roughness: 0.55, pores: 0.15, lipLines: 0 };
const FACE: SurfaceLook = { roughness: 0.5, pores: 0.15, lipLines: 0 };
const LIPS: SurfaceLook = { roughness: 0.35, pores: 0.05, lipLines: 0.25 };
const WET: SurfaceLook = { roughness: 0.25, pores: 0, lipLines: 0 };
const TONGUE: SurfaceLook = { roughness: 0.45, pores: 0.5, lipLines: 0 };
const TEETH: SurfaceLook = { roughness: 0.3, pores: 0, lipLines: 0 };
const CORNEA: SurfaceLook = { roughness: 0.05, pores: 0, lipLines: 0 };
const SCLERA: SurfaceLook = { roughness: 0.15, pores: 0, lipLines: 0 };
const PART_MAP_SIZE = 128;
/** Passes of neighbour averaging over the head's occlusion (each reaches one ring further, about 4 mm on the neck). */
const OCCLUSION_SMOOTHING = 4;
/** How much of its occlusion the photo-textured face keeps. */
const FACE_OCCLUSION = 0.25;

export interface SurfaceMapSet {
  /** Decoded, by file name (for the preview). */
  images: Map<string, RgbaImage>;
  /** The same, PNG-encoded. */
  textures: Promise<Texture[]>;
}

const cache = new Map<string, SurfaceMapSet>();

export function surfaceMaps(tpl: TemplateView): SurfaceMapSet {
  let set = cache.get(tpl.version);
  if (!set) {
    // In shared memory: the helper thread draws the package's views from them without a copy per avatar.
    const images = imagesInSharedMemory(bakeAll(tpl));
    set = { images, textures: encodeTextures(images) };
    set.textures.catch(() => undefined); // awaited by every run; this only keeps a failure from counting as unhandled here
    cache.set(tpl.version, set);
  }
  return set;
}

function bakeAll(tpl: TemplateView): Map<string, RgbaImage> {
  const source = tpl.source;
  // The parts riding on the lids and eyeballs (clear films, lash cards, the caruncle) get no maps and
  // cast no occlusion: the cornea would shade the iris it lets through.
  const bound = new Set<string>(BOUND_PART_NAMES);
  const meshes = tpl.meshes.filter((m) => !bound.has(m.name));
  const occlusion = vertexOcclusion(meshes.map((m) => m.geometry));
  // Seen from a few sky directions, neighbouring skin vertices differ by whole directions: jagged steps, a band round
  // the neck in the preview. Smoothed over the skin; the face (whose albedo carries the photo's shading) and the ears'
  // folds keep their own.
  const head = meshes.findIndex((m) => m.name === 'head');
  const { positions, indices } = meshes[head].geometry;
  occlusion[head] = smoothOverSurface(occlusion[head], positions, indices, OCCLUSION_SMOOTHING, [...source.regions.face, ...source.regions.ears]);
  // The face's albedo comes from the photo and already carries its creases' shade: darkened again,
  // the preview lost likeness (p03-a's landmark error 0.022 -> 0.035 at full strength).
  for (const v of source.regions.face) occlusion[head][v] = 1 - FACE_OCCLUSION * (1 - occlusion[head][v]);
  meshes.forEach((m, i) => {
    const eye = tpl.eyes[m.name];
    if (eye) occlusion[i] = yawFreeEyeOcclusion(m.geometry.positions, eye.center, eye.radius, occlusion[i]);
  });
  const images = new Map<string, RgbaImage>();
  meshes.forEach((m, i) => {
    const count = m.geometry.positions.length / 3;
    const look = m.name === 'head' ? headLooks(source) : Array.from({ length: count }, (_, v) => partLook(tpl, m.name, m.geometry.uvs, v));
    const maps = bakeSurfaceMaps({
      mesh: m.geometry,
      size: m.name === 'head' ? tpl.textureSize / 2 : PART_MAP_SIZE,
      occlusion: occlusion[i],
      look,
      normalMap: m.name === 'head' || m.name === 'tongue',
    });
    images.set(surfaceMapName(m.name, 'occlusion'), maps.occlusion);
    images.set(surfaceMapName(m.name, 'metallicRoughness'), maps.metallicRoughness);
    if (maps.normal) images.set(surfaceMapName(m.name, 'normal'), maps.normal);
  });
  return images;
}

function partLook(tpl: TemplateView, name: string, uvs: Float32Array, v: number): SurfaceLook {
  if (name in tpl.eyes) {
    const { center, radius } = tpl.irisUv;
    return Math.hypot(uvs[2 * v] - center[0], uvs[2 * v + 1] - center[1]) <= radius ? CORNEA : SCLERA;
  }
  return name === 'tongue' ? TONGUE : TEETH;
}

/** Per head vertex: the lips (inside the outer lip contour, seen from the front), the mouth's and eyes' wet linings, face, other skin. */
function headLooks(t: HeadTemplate): SurfaceLook[] {
  const p = t.head.positions;
  const count = p.length / 3;
  const looks: SurfaceLook[] = Array.from({ length: count }, () => SKIN);
  for (const v of t.regions.face) looks[v] = FACE;
  const outline = t.loops.lipsOuter.map((v): [number, number] => [p[3 * v], p[3 * v + 1]]);
  for (const v of t.regions.face) if (insidePolygon(outline, p[3 * v], p[3 * v + 1])) looks[v] = LIPS;
  for (const v of [...t.regions.mouthBag, ...t.regions.eyeSocketLeft, ...t.regions.eyeSocketRight]) looks[v] = WET;
  return looks;
}
