import type { LightRig } from './lighting.ts';

/**
 * The light a rig gives a surface, as tables over the surface's unit normal in camera space.
 * The lights are fixed to the camera and the viewer is taken as straight ahead, so diffuse light,
 * rim and highlight depend on the normal alone: the inner loop reads them instead of evaluating
 * every light at every pixel (that was a fifth of a preview). Cells are indexed by the normal's
 * x and y; a normal facing the viewer (z <= 0) reads the front half, one facing away the back half.
 */

/** Cells along x and y of the diffuse table: steps of 1/256 keep gradients within about one sRGB level. */
export const DIFFUSE_GRID = 512;
/** Cells along x and y of a highlight table (front half only): half the diffuse grid, so its index is the diffuse one halved. */
export const SPECULAR_GRID = DIFFUSE_GRID / 2;
/** Reflectance at normal incidence of skin, teeth, eyes and hair (glTF's dielectric default). */
export const DIELECTRIC_F0 = 0.04;
/** Roughness levels of the highlight tables, evenly from MIN_ROUGHNESS to 1. */
export const ROUGHNESS_LEVELS = 32;
/** Smoother surfaces are drawn with this roughness: a sharper highlight would fall between the cells and the pixels. */
export const MIN_ROUGHNESS = 0.12;

export interface LightTables {
  /** Diffuse light (lights and rim, not the ambient) per cell: the front half, then the back half. */
  diffuse: Float32Array;
  /** The highlight table of a roughness level, made when first asked for. */
  highlight(level: number): Float32Array;
  /** Every level's highlight table (for items with a roughness map), by level. */
  highlights(): Float32Array[];
}

const cache = new Map<string, LightTables>();
/** Rigs whose tables are kept (up to some 10 MB each); the service draws with two. */
const CACHED_RIGS = 4;

/**
 * The tables of a rig, made once per rig: by its values, since a rig that crossed to another thread (the
 * pipeline's helper draws with the photo-texture light) is a new object every time.
 */
export function lightTables(rig: LightRig): LightTables {
  const key = JSON.stringify(rig);
  let tables = cache.get(key);
  if (!tables) {
    tables = makeTables(rig);
    if (cache.size >= CACHED_RIGS) cache.delete(cache.keys().next().value!);
  }
  // Most recently used last: the first key is the one to drop.
  cache.delete(key);
  cache.set(key, tables);
  return tables;
}

/** The roughness level of a roughness, clamped to [MIN_ROUGHNESS, 1]. */
export function roughnessLevel(roughness: number): number {
  const r = roughness < MIN_ROUGHNESS ? MIN_ROUGHNESS : roughness > 1 ? 1 : roughness;
  return ((r - MIN_ROUGHNESS) * ((ROUGHNESS_LEVELS - 1) / (1 - MIN_ROUGHNESS)) + 0.5) | 0;
}

/** The unit normal at the centre of cell (i, j) of a grid, on the front (z <= 0) or back half; outside the unit disc, on its rim. */
function cellNormal(i: number, j: number, grid: number, front: boolean): [number, number, number] {
  let x = ((i + 0.5) / grid) * 2 - 1, y = ((j + 0.5) / grid) * 2 - 1;
  const r2 = x * x + y * y;
  if (r2 > 1) {
    const r = Math.sqrt(r2);
    x /= r; y /= r;
  }
  const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
  return [x, y, front ? -z : z];
}

function makeTables(rig: LightRig): LightTables {
  const lights = rig.lights.map((l) => {
    const len = Math.hypot(...l.direction);
    const d = l.direction.map((c) => c / len);
    // The half vector between the light and the viewer (along -z).
    const hl = Math.hypot(d[0], d[1], d[2] - 1);
    const h = [d[0] / hl, d[1] / hl, (d[2] - 1) / hl];
    const fresnel = DIELECTRIC_F0 + (1 - DIELECTRIC_F0) * (1 + h[2]) ** 5;
    return { d, h, intensity: l.intensity, fresnel };
  });
  const diffuse = new Float32Array(2 * DIFFUSE_GRID * DIFFUSE_GRID);
  for (let half = 0; half < 2; half++) {
    for (let j = 0; j < DIFFUSE_GRID; j++) {
      for (let i = 0; i < DIFFUSE_GRID; i++) {
        const n = cellNormal(i, j, DIFFUSE_GRID, half === 0);
        let light = 0;
        for (const l of lights) light += Math.max(0, n[0] * l.d[0] + n[1] * l.d[1] + n[2] * l.d[2]) * l.intensity;
        // The viewer looks along +z: a normal with z near 0 is on the silhouette.
        const edge = 1 - Math.max(0, -n[2]);
        diffuse[half * DIFFUSE_GRID * DIFFUSE_GRID + j * DIFFUSE_GRID + i] = light + rig.rim * edge * edge * edge;
      }
    }
  }
  const levels: Float32Array[] = [];
  const highlight = (level: number): Float32Array => (levels[level] ??= highlightTable(lights, rig.specular ?? 1, level));
  let all: Float32Array[] | undefined;
  const highlights = (): Float32Array[] => (all ??= Array.from({ length: ROUGHNESS_LEVELS }, (_, level) => highlight(level)));
  return { diffuse, highlight, highlights };
}

/**
 * GGX highlights of one roughness level: D(n.h) F pi/4 times the light's intensity, summed over
 * the lights that reach the surface, in the units of the diffuse term (albedo times intensity),
 * times the rig's `scale`. The geometry term and n.v are taken as 1.
 */
function highlightTable(lights: { d: number[]; h: number[]; intensity: number; fresnel: number }[], scale: number, level: number): Float32Array {
  const roughness = MIN_ROUGHNESS + ((1 - MIN_ROUGHNESS) * level) / (ROUGHNESS_LEVELS - 1);
  const a2 = roughness ** 4; // alpha = roughness^2
  const table = new Float32Array(SPECULAR_GRID * SPECULAR_GRID);
  for (let j = 0; j < SPECULAR_GRID; j++) {
    for (let i = 0; i < SPECULAR_GRID; i++) {
      const n = cellNormal(i, j, SPECULAR_GRID, true);
      let sum = 0;
      for (const l of lights) {
        if (n[0] * l.d[0] + n[1] * l.d[1] + n[2] * l.d[2] <= 0) continue;
        const t = Math.max(0, n[0] * l.h[0] + n[1] * l.h[1] + n[2] * l.h[2]);
        const q = t * t * (a2 - 1) + 1;
        sum += (a2 / (Math.PI * q * q)) * l.fresnel * l.intensity * scale * (Math.PI / 4);
      }
      table[j * SPECULAR_GRID + i] = sum;
    }
  }
  return table;
}
