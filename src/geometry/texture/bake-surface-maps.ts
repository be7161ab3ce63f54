/**
 * The PBR maps beside the base colour, baked from a template's geometry: ambient occlusion (how much
 * of the sky each surface point sees, the other meshes included), roughness by region (wet lips and
 * mouth, oilier nose, matt skin) and a tangent-space normal map of the detail the mesh is too coarse
 * for (skin pores, the lips' vertical lines). Pure: images in, images out.
 */
import type { MeshData, Vec3 } from '../../model/avatar.ts';
import type { RgbaImage } from '../render/image.ts';
import type { RenderItem } from '../render/rasterize.ts';
import { pickSurface, visiblePoints } from '../render/surface-pick.ts';
import { dilate, UvRaster } from './uv-raster.ts';

export interface SurfaceMaps {
  /** Occlusion in every colour channel (grey, so that readers that take a map's colour agree). */
  occlusion: RgbaImage;
  /** glTF packing: roughness in green, metallic (0) in blue. */
  metallicRoughness: RgbaImage;
  /** Tangent-space normals, OpenGL convention (green towards +v). */
  normal?: RgbaImage;
}

/** Directions the sky is sampled from (a Fibonacci sphere), and the visibility renders' resolution. */
const SKY_DIRECTIONS = 24, SKY_PIXELS = 128;
/** A point counts as seen from a direction when it is this close (cm) behind the nearest surface there. */
const SEEN_TOLERANCE = 0.15;

/**
 * An eyeball's occlusion made the same all round each circle of latitude on its front (about its vertical axis), from
 * the middle of the opening: the eye turns in and out under the lids, and occlusion baked at rest turns with it. The
 * nose side of the ball, dark at rest (0.4 of the sky at the equator, 45 degrees in, against 0.9 in front), came
 * into the middle of the opening looking out, as a dark, banded white; the lids' shade above and below stays.
 * `centre` and `radius` are the eyeball's; it looks along +z. Pure: returns a new array.
 */
export function yawFreeEyeOcclusion(positions: ArrayLike<number>, centre: Vec3, radius: number, occlusion: Float32Array): Float32Array {
  const count = positions.length / 3;
  const at = (v: number) => [0, 1, 2].map((k) => (positions[3 * v + k] - centre[k]) / radius);
  const latitude = (y: number) => Math.asin(Math.max(-1, Math.min(1, y)));
  // The profile: mean occlusion per band of latitude over the opening's middle, bands without a vertex from their nearest.
  const sums = new Float64Array(EYE_BANDS), counts = new Float64Array(EYE_BANDS);
  const band = (y: number) => Math.min(EYE_BANDS - 1, Math.floor(((latitude(y) + Math.PI / 2) / Math.PI) * EYE_BANDS));
  for (let v = 0; v < count; v++) {
    const [x, y, z] = at(v);
    if (z <= 0 || Math.abs(Math.atan2(x, z)) > EYE_PROFILE_YAW) continue;
    sums[band(y)] += occlusion[v];
    counts[band(y)]++;
  }
  const filled = [...counts.keys()].filter((b) => counts[b] > 0);
  if (filled.length === 0) return Float32Array.from(occlusion);
  const means = Array.from({ length: EYE_BANDS }, (_, b) => {
    const nearest = filled.reduce((best, f) => (Math.abs(f - b) < Math.abs(best - b) ? f : best));
    return sums[nearest] / counts[nearest];
  });
  // Between the bands' middles the profile runs straight, so that no step shows where a band ends.
  const profile = (y: number) => {
    const t = Math.min(EYE_BANDS - 1, Math.max(0, ((latitude(y) + Math.PI / 2) / Math.PI) * EYE_BANDS - 0.5));
    const b = Math.min(EYE_BANDS - 2, Math.floor(t));
    return means[b] + (t - b) * (means[b + 1] - means[b]);
  };
  // The back of the ball, in the socket, keeps its own; the change fades in across the equator.
  return Float32Array.from(occlusion, (own, v) => {
    const [, y, z] = at(v);
    const w = Math.min(1, Math.max(0, (z - EYE_FRONT[0]) / (EYE_FRONT[1] - EYE_FRONT[0])));
    return own + w * (profile(y) - own);
  });
}
/** Bands of latitude of an eyeball's occlusion profile, and the yaw (radians either side of ahead) it is taken over. */
const EYE_BANDS = 36, EYE_PROFILE_YAW = (30 * Math.PI) / 180;
/** Forwardness (z over the radius) from which an eyeball's occlusion starts to follow the profile, and fully does. */
const EYE_FRONT = [-0.3, 0];

/**
 * Per vertex of each mesh, the cosine-weighted share of the sky it sees past all the meshes (1 open,
 * 0 enclosed): the mouth's inside, the eye sockets, the creases and the ears' folds come out dark.
 */
export function vertexOcclusion(meshes: MeshData[]): Float32Array[] {
  const items: RenderItem[] = meshes.map((m) => ({ geometry: m, doubleSided: true }));
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const m of meshes) for (let i = 0; i < m.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], m.positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], m.positions[i]);
  }
  const centre: Vec3 = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2) as Vec3;
  const extent = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const seen = meshes.map((m) => new Float32Array(m.positions.length / 3));
  const weight = meshes.map((m) => new Float32Array(m.positions.length / 3));
  for (let s = 0; s < SKY_DIRECTIONS; s++) {
    const y = 1 - (2 * (s + 0.5)) / SKY_DIRECTIONS, r = Math.sqrt(1 - y * y), a = s * Math.PI * (3 - Math.sqrt(5));
    const d: Vec3 = [r * Math.cos(a), y, r * Math.sin(a)];
    const camera = {
      type: 'orthographic' as const,
      viewHeight: extent,
      eye: [centre[0] + extent * d[0], centre[1] + extent * d[1], centre[2] + extent * d[2]] as Vec3,
      target: centre,
      up: (Math.abs(d[1]) > 0.9 ? [0, 0, 1] : [0, 1, 0]) as Vec3,
    };
    const pick = pickSurface(items, camera, { width: SKY_PIXELS, height: SKY_PIXELS });
    meshes.forEach((m, i) => {
      const visible = visiblePoints(pick, m.positions, SEEN_TOLERANCE);
      for (let v = 0; v < visible.length; v++) {
        const cos = m.normals[3 * v] * d[0] + m.normals[3 * v + 1] * d[1] + m.normals[3 * v + 2] * d[2];
        if (cos <= 0) continue;
        weight[i][v] += cos;
        seen[i][v] += cos * visible[v];
      }
    });
  }
  return seen.map((s, i) => s.map((x, v) => (weight[i][v] > 0 ? x / weight[i][v] : 1)));
}

/** Deterministic hash noise in [0, 1) of an integer lattice point. */
function hash(x: number, y: number): number {
  const s = Math.sin(x * 127.1 + y * 311.7) * 43758.5453;
  return s - Math.floor(s);
}

/** Smooth value noise in [0, 1) at a point of the plane (lattice spacing 1). */
function valueNoise(x: number, y: number): number {
  const x0 = Math.floor(x), y0 = Math.floor(y), fx = x - x0, fy = y - y0;
  const sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  const top = hash(x0, y0) + (hash(x0 + 1, y0) - hash(x0, y0)) * sx;
  const bottom = hash(x0, y0 + 1) + (hash(x0 + 1, y0 + 1) - hash(x0, y0 + 1)) * sx;
  return top + (bottom - top) * sy;
}

/** What a surface region looks like up close: roughness, pore depth and how strongly lip lines show. */
export interface SurfaceLook {
  roughness: number;
  pores: number;
  lipLines: number;
}

export interface SurfaceMapInput {
  mesh: MeshData;
  size: number;
  /** Per vertex, 0..1. */
  occlusion: Float32Array;
  /** Per vertex. */
  look: SurfaceLook[];
  /** False for surfaces without detail worth a map (eyes, teeth). */
  normalMap: boolean;
}

/** Texels between a pore's centres: pores about 0.2 mm apart at the face's texel density of a 2048 atlas. */
const PORE_TEXELS = 3;
/** Texels between the lips' vertical lines. */
const LIP_LINE_TEXELS = 5;

/** Bakes one mesh's maps in its UV layout (uncovered texels take their covered neighbours' values). */
export function bakeSurfaceMaps(input: SurfaceMapInput): SurfaceMaps {
  const { mesh, size } = input;
  const n = mesh.positions.length / 3;
  const attrs = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) attrs.set([input.occlusion[v], input.look[v].roughness, input.look[v].pores, input.look[v].lipLines], v * 4);
  const texel = new Float32Array(size * size * 4);
  const covered = new Uint8Array(size * size);
  new UvRaster(mesh.uvs, mesh.indices, size).interpolate(attrs, 4, texel, 4, covered);
  // Texel densities differ across an atlas; the detail is drawn in texels of a 2048 atlas.
  const detailScale = size / 2048;
  const height = new Float32Array(size * size);
  if (input.normalMap) {
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
      const t = y * size + x;
      if (!covered[t]) continue;
      const px = x / detailScale, py = y / detailScale;
      const pores = 1 - valueNoise(px / PORE_TEXELS, py / PORE_TEXELS) - 0.5 * valueNoise(px / (3 * PORE_TEXELS), py / (3 * PORE_TEXELS));
      const lines = Math.abs(Math.sin((Math.PI * px) / LIP_LINE_TEXELS + 2 * valueNoise(px / 20, py / 8)));
      height[t] = texel[t * 4 + 2] * pores - texel[t * 4 + 3] * lines;
    }
  }
  const occlusion = new Uint8Array(size * size * 4), roughness = new Uint8Array(size * size * 4);
  const normal = input.normalMap ? new Uint8Array(size * size * 4) : undefined;
  const byte = (x: number) => Math.max(0, Math.min(255, Math.round(x * 255)));
  for (let t = 0; t < size * size; t++) {
    const ao = byte(texel[t * 4]);
    occlusion.set([ao, ao, ao, 255], t * 4);
    roughness.set([255, byte(texel[t * 4 + 1]), 0, 255], t * 4);
    if (!normal) continue;
    const x = t % size, y = (t - x) / size;
    const h = (xx: number, yy: number) => {
      const k = Math.min(size - 1, Math.max(0, yy)) * size + Math.min(size - 1, Math.max(0, xx));
      return covered[k] ? height[k] : height[t];
    };
    // Image rows run down, v up: the slope towards +v is the one towards the row above.
    const du = (h(x + 1, y) - h(x - 1, y)) / 2, dv = (h(x, y - 1) - h(x, y + 1)) / 2;
    const l = Math.hypot(du, dv, 1);
    normal.set([byte((-du / l + 1) / 2), byte((-dv / l + 1) / 2), byte((1 / l + 1) / 2), 255], t * 4);
  }
  const passes = 4;
  // dilate marks the texels it fills: each map starts from the covered ones.
  dilate(occlusion, covered.slice(), size, passes);
  dilate(roughness, covered.slice(), size, passes);
  if (normal) dilate(normal, covered.slice(), size, passes);
  const image = (rgba: Uint8Array): RgbaImage => ({ width: size, height: size, rgba });
  return { occlusion: image(occlusion), metallicRoughness: image(roughness), normal: normal && image(normal) };
}

