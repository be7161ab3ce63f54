/**
 * A head seen from a point inside the cranium: for every direction, how far out the surface lies and how
 * much hair the template's hairline gives it. Hair strands are grown over this map (roots on it, strands
 * kept outside it), which is cheaper than ray casting and smooth enough for cards a few millimetres off the skin.
 */
import type { Vec3 } from '../../model/avatar.ts';
import { hypot3 } from '../mesh/vec.ts';

/** Cells around (azimuth, 0 at the front +z, towards +x) and from the bottom to the top (elevation). */
const AZ = 96;
const EL = 48;

export interface ScalpMap {
  centre: Vec3;
  /** Surface distance from the centre by cell, AZ x EL. */
  radius: Float32Array;
  /** Hair coverage 0..1 by cell. */
  coverage: Float32Array;
}

export function direction(azimuth: number, elevation: number): Vec3 {
  const c = Math.cos(elevation);
  return [Math.sin(azimuth) * c, Math.sin(elevation), Math.cos(azimuth) * c];
}

function cellOf(x: number, y: number, z: number): [number, number] {
  const r = hypot3(x, y, z) || 1;
  const az = Math.atan2(x, z);
  const el = Math.asin(Math.max(-1, Math.min(1, y / r)));
  return [((az / (2 * Math.PI) + 1) % 1) * AZ, (el / Math.PI + 0.5) * (EL - 1)];
}

/** The cranium's centre: midway across and front to back over the hair-covered vertices, 8 cm below their top. */
export function craniumCentre(positions: ArrayLike<number>, coverage: ArrayLike<number>): Vec3 {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < coverage.length; v++) {
    if (coverage[v] < 0.5) continue;
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[v * 3 + k]);
      hi[k] = Math.max(hi[k], positions[v * 3 + k]);
    }
  }
  return [(lo[0] + hi[0]) / 2, hi[1] - (hi[0] - lo[0]) / 2, (lo[2] + hi[2]) / 2];
}

/**
 * The map of a head mesh (`vertices` of it, e.g. without the mouth and eye sockets) seen from `centre`:
 * the outermost vertex per cell, cells without one filled from their neighbours.
 */
export function scalpMap(positions: ArrayLike<number>, vertices: readonly number[], coverage: ArrayLike<number> | undefined, centre: Vec3): ScalpMap {
  const radius = new Float32Array(AZ * EL);
  const cover = new Float32Array(AZ * EL);
  const count = new Float32Array(AZ * EL);
  for (const v of vertices) {
    const x = positions[v * 3] - centre[0], y = positions[v * 3 + 1] - centre[1], z = positions[v * 3 + 2] - centre[2];
    const [a, e] = cellOf(x, y, z);
    const cell = Math.round(e) * AZ + (Math.round(a) % AZ);
    radius[cell] = Math.max(radius[cell], hypot3(x, y, z));
    cover[cell] += coverage ? coverage[v] : 0;
    count[cell]++;
  }
  for (let c = 0; c < cover.length; c++) if (count[c] > 0) cover[c] /= count[c];
  // Fill empty cells (sparse vertices near the poles) from filled neighbours until none is left.
  for (let pass = 0; pass < 64; pass++) {
    let empty = 0;
    // A loop, not map with a closure made per call (compiled again every job).
    const filled = new Float32Array(count.length);
    for (let c = 0; c < count.length; c++) filled[c] = count[c] > 0 ? 1 : 0;
    for (let e = 0; e < EL; e++) {
      for (let a = 0; a < AZ; a++) {
        const c = e * AZ + a;
        if (filled[c]) continue;
        let r = 0, cv = 0, n = 0;
        for (const [da, de] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const ee = e + de;
          if (ee < 0 || ee >= EL) continue;
          const o = ee * AZ + ((a + da + AZ) % AZ);
          if (!filled[o]) continue;
          r += radius[o]; cv += cover[o]; n++;
        }
        if (n === 0) { empty++; continue; }
        radius[c] = r / n; cover[c] = cv / n; count[c] = 1;
      }
    }
    if (empty === 0) break;
  }
  return { centre, radius, coverage: cover };
}

function sample(grid: Float32Array, x: number, y: number, z: number): number {
  const [a, e] = cellOf(x, y, z);
  const a0 = Math.floor(a), e0 = Math.min(EL - 2, Math.floor(e));
  const fa = a - a0, fe = Math.min(1, e - e0);
  // The two columns around the direction, wrapped; no closure here (this runs per hair vertex).
  const c0 = ((a0 % AZ) + AZ) % AZ, c1 = (((a0 + 1) % AZ) + AZ) % AZ;
  const low = e0 * AZ, high = (e0 + 1) * AZ;
  return (grid[low + c0] * (1 - fa) + grid[low + c1] * fa) * (1 - fe) + (grid[high + c0] * (1 - fa) + grid[high + c1] * fa) * fe;
}

/** Surface distance from the centre towards the point (x, y, z) (any distance along that ray). */
export function surfaceRadius(map: ScalpMap, x: number, y: number, z: number): number {
  return sample(map.radius, x - map.centre[0], y - map.centre[1], z - map.centre[2]);
}

export function hairlineCoverage(map: ScalpMap, x: number, y: number, z: number): number {
  return sample(map.coverage, x - map.centre[0], y - map.centre[1], z - map.centre[2]);
}

/**
 * A distance from the centre beyond which a point is outside the head: the outermost vertex of the 3 x 3
 * cells around its direction. A triangle's points lie no further out than its corners, and a corner of a
 * triangle seen in a cell lies in that cell or a neighbour while triangles are smaller than the cells
 * (under 0.3 cm against 0.6 cm here).
 */
export function outsideRadius(map: ScalpMap, x: number, y: number, z: number): number {
  const [a, e] = cellOf(x - map.centre[0], y - map.centre[1], z - map.centre[2]);
  const a0 = Math.round(a), e0 = Math.round(e);
  // Towards the poles the cells narrow around: widen the neighbourhood so that it spans as much surface.
  const poleward = Math.min(EL - 1, Math.abs(e0 - (EL - 1) / 2) + 1);
  const span = Math.min(AZ / 2, Math.ceil(1 / Math.max(0.02, Math.cos((poleward / (EL - 1)) * Math.PI))));
  let r = 0;
  for (let de = -1; de <= 1; de++) {
    const ee = Math.min(EL - 1, Math.max(0, e0 + de));
    for (let da = -span; da <= span; da++) r = Math.max(r, map.radius[ee * AZ + (((a0 + da) % AZ) + AZ) % AZ]);
  }
  return r;
}

/** The point at `lift` cm outside the surface along the ray from the centre through (x, y, z). */
export function onScalp(map: ScalpMap, p: Vec3, lift: number): Vec3 {
  const d: Vec3 = [p[0] - map.centre[0], p[1] - map.centre[1], p[2] - map.centre[2]];
  const len = hypot3(d[0], d[1], d[2]) || 1;
  const r = surfaceRadius(map, p[0], p[1], p[2]) + lift;
  return [map.centre[0] + (d[0] / len) * r, map.centre[1] + (d[1] / len) * r, map.centre[2] + (d[2] / len) * r];
}
