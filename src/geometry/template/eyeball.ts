import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertexNormals } from '../mesh/normals.ts';

/** Adult iris diameter 1.17 cm and a mid-sized pupil of 0.4 cm. */
const IRIS_RADIUS = 0.585, PUPIL_RADIUS = 0.2;
/** The front of the eyeball (up to this polar angle) is one disc in UV, the back a small one. */
const FRONT_LIMIT = (3 * Math.PI) / 4;
/** UV discs: front centred in the texture; the iris takes its inner half. */
const FRONT_UV = { centre: [0.5, 0.5] as [number, number], iris: 0.25, edge: 0.45 };
const BACK_UV = { centre: [0.1, 0.1] as [number, number], radius: 0.09 };

export interface EyeballLayout {
  irisUv: { centre: [number, number]; radius: number; pupilRadius: number };
}

const irisAngle = (radius: number) => Math.asin(IRIS_RADIUS / radius);

/**
 * Polar angles of the eyeball's rings over the pupil and the iris, the last at the iris's edge: the
 * cornea takes its rings from these, so that its facets lie over the eyeball's and never dip into them.
 */
export function irisRingAngles(radius: number): number[] {
  const iris = irisAngle(radius), pupil = Math.asin(PUPIL_RADIUS / radius);
  return [pupil / 2, pupil, (pupil + iris) / 2, iris];
}

export function eyeballLayout(radius: number): EyeballLayout {
  return { irisUv: { centre: FRONT_UV.centre, radius: FRONT_UV.iris, pupilRadius: (FRONT_UV.iris * Math.asin(PUPIL_RADIUS / radius)) / irisAngle(radius) } };
}

/**
 * A UV sphere around `centre` looking along +Z. Its front (pupil, iris, white) maps to a disc in
 * which the iris is the disc of `eyeballLayout().irisUv`; the back maps to a small disc of its
 * own, so one ring of vertices is doubled at the seam (same positions).
 */
export function buildEyeball(centre: Vec3, radius: number, segments: number): MeshData {
  const b = new MeshBuilder();
  const iris = irisAngle(radius);
  const front = [...irisRingAngles(radius), ...[1, 2, 3, 4, 5, 6].map((k) => iris + ((FRONT_LIMIT - iris) * k) / 6)];
  const back = [FRONT_LIMIT + (Math.PI - FRONT_LIMIT) / 3, FRONT_LIMIT + ((Math.PI - FRONT_LIMIT) * 2) / 3];
  const frontRho = (polar: number) => (polar <= iris ? (FRONT_UV.iris * polar) / iris : FRONT_UV.iris + ((FRONT_UV.edge - FRONT_UV.iris) * (polar - iris)) / (FRONT_LIMIT - iris));
  const backRho = (polar: number) => (BACK_UV.radius * (Math.PI - polar)) / (Math.PI - FRONT_LIMIT);
  const point = (polar: number, azimuth: number): Vec3 => [
    centre[0] + radius * Math.sin(polar) * Math.cos(azimuth),
    centre[1] + radius * Math.sin(polar) * Math.sin(azimuth),
    centre[2] + radius * Math.cos(polar),
  ];
  // Front disc: azimuth counter-clockwise seen from the front, as in the texture (u right, v up).
  const ring = (polar: number, uv: [number, number], rho: number, mirror: number) =>
    Array.from({ length: segments }, (_, s) => {
      const azimuth = (2 * Math.PI * s) / segments;
      return b.vertex(point(polar, azimuth), [uv[0] + mirror * rho * Math.cos(azimuth), uv[1] + rho * Math.sin(azimuth)]);
    });
  const frontPole = b.vertex(point(0, 0), FRONT_UV.centre);
  const frontRings = front.map((polar) => ring(polar, FRONT_UV.centre, frontRho(polar), 1));
  // Triangles wind outward: rings grow from the front pole, so each ring closes the previous one.
  for (let s = 0; s < segments; s++) b.triangle(frontPole, frontRings[0][s], frontRings[0][(s + 1) % segments]);
  for (let r = 1; r < frontRings.length; r++) b.strip(frontRings[r - 1], frontRings[r]);
  // Back disc, seen from behind (mirrored in u so that it keeps the same winding).
  const backRings = [FRONT_LIMIT, ...back].map((polar) => ring(polar, BACK_UV.centre, backRho(polar), -1));
  for (let r = 1; r < backRings.length; r++) b.strip(backRings[r - 1], backRings[r]);
  b.fan(backRings[backRings.length - 1], b.vertex(point(Math.PI, 0), BACK_UV.centre));
  const positions = Float32Array.from(b.positions);
  const indices = Uint32Array.from(b.indices);
  return { positions, normals: vertexNormals(positions, indices), uvs: Float32Array.from(b.uvs), indices };
}
