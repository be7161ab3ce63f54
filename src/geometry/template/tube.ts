import type { Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';

/** One cross-section of a tube: its centre and the two half-axes (profile x and y directions scaled). */
export interface TubeSection {
  centre: Vec3;
  /** Half-axis vectors; a profile point at angle a is centre + across*cos(a)' + up*sin(a)' (superellipse). */
  across: Vec3;
  up: Vec3;
}

/** The `profilePoints` points round one section, as `addTube` lays them (superellipse of exponent 2/`square`). */
export function sectionProfile(s: TubeSection, profilePoints: number, square: number): Vec3[] {
  return Array.from({ length: profilePoints }, (_, k) => {
    const a = (2 * Math.PI * k) / profilePoints;
    const c = Math.cos(a), sn = Math.sin(a);
    const x = Math.sign(c) * Math.abs(c) ** (1 / square), y = Math.sign(sn) * Math.abs(sn) ** (1 / square);
    return [0, 1, 2].map((d) => s.centre[d] + s.across[d] * x + s.up[d] * y) as Vec3;
  });
}

/**
 * A closed tube through `sections`, capped by the two poles, added to `b`. The profile is a
 * superellipse (exponent 2/`square`, boxier as it grows). UVs fill `rect` ([u0, v0, u1, v1]):
 * u along the tube, v around it (downwards, which keeps the UV winding counter-clockwise), with
 * the start of the profile doubled at v = v0 (a UV seam of coincident vertices). `across x up`
 * must point along the tube, from the first section to the last. Returns the new vertex ids.
 */
export function addTube(b: MeshBuilder, sections: TubeSection[], poles: [Vec3, Vec3], profilePoints: number, square: number, rect: [number, number, number, number]): number[] {
  const first = b.vertexCount;
  const [u0, v0, u1, v1] = rect;
  const n = sections.length;
  const uAt = (i: number) => u0 + ((u1 - u0) * (i + 1)) / (n + 1);
  const rings = sections.map((s, i) => {
    const points = sectionProfile(s, profilePoints, square);
    return Array.from({ length: profilePoints + 1 }, (_, k) => b.vertex(points[k % profilePoints], [uAt(i), v1 - ((v1 - v0) * k) / profilePoints]));
  });
  const start = b.vertex(poles[0], [u0, (v0 + v1) / 2]);
  const end = b.vertex(poles[1], [u1, (v0 + v1) / 2]);
  for (let k = 0; k < profilePoints; k++) b.triangle(start, rings[0][k + 1], rings[0][k]);
  for (let i = 1; i < n; i++) {
    for (let k = 0; k < profilePoints; k++) {
      const a = rings[i - 1][k], a2 = rings[i - 1][k + 1], c = rings[i][k], c2 = rings[i][k + 1];
      b.triangle(a, a2, c2);
      b.triangle(a, c2, c);
    }
  }
  for (let k = 0; k < profilePoints; k++) b.triangle(end, rings[n - 1][k], rings[n - 1][k + 1]);
  return Array.from({ length: b.vertexCount - first }, (_, i) => first + i);
}
