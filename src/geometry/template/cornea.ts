import type { Vec3 } from '../../model/avatar.ts';
import type { MeshBuilder } from '../mesh/builder.ts';
import { irisRingAngles } from './eyeball.ts';

/**
 * The cornea covers the iris and stands this far (cm) off the eyeball at its rim, rising by `bulge`
 * towards its apex. The lids close on a sphere about 0.036 cm out (frame.ts LID_REACH on a 1.2 cm
 * eyeball), so the apex stays inside it: a closed lid covers the cornea.
 */
const CORNEA = { rimGap: 0.004, bulge: 0.02 };

/**
 * A clear cap over the iris of the eyeball at `centre` (looking along +Z), open at its rim, added to
 * `b`: its apex curves more than the eyeball, as a real cornea does. It has the eyeball's `segments`
 * and every `ringStep`-th of its rings over the iris (the last at the iris's edge), so its facets lie
 * over the eyeball's. UVs fill a disc (centre, radius) of the cornea's own texture space. Returns the
 * new vertices.
 */
export function addCornea(b: MeshBuilder, centre: Vec3, eyeRadius: number, segments: number, ringStep: number, uv: { centre: [number, number]; radius: number }): number[] {
  const first = b.vertexCount;
  const angles = irisRingAngles(eyeRadius);
  const limbus = angles[angles.length - 1];
  const point = (polar: number, azimuth: number): Vec3 => {
    const r = eyeRadius + CORNEA.rimGap + CORNEA.bulge * (1 - (polar / limbus) ** 2);
    return [centre[0] + r * Math.sin(polar) * Math.cos(azimuth), centre[1] + r * Math.sin(polar) * Math.sin(azimuth), centre[2] + r * Math.cos(polar)];
  };
  const apex = b.vertex(point(0, 0), uv.centre);
  const rings = angles.filter((_, k) => (angles.length - 1 - k) % ringStep === 0);
  const ringIds = rings.map((polar) =>
    Array.from({ length: segments }, (_, s) => {
      const azimuth = (2 * Math.PI * s) / segments, rho = (uv.radius * polar) / limbus;
      return b.vertex(point(polar, azimuth), [uv.centre[0] + rho * Math.cos(azimuth), uv.centre[1] + rho * Math.sin(azimuth)]);
    }),
  );
  // Counter-clockwise seen from the front (outside), like the eyeball's front.
  for (let s = 0; s < segments; s++) b.triangle(apex, ringIds[0][s], ringIds[0][(s + 1) % segments]);
  for (let r = 1; r < ringIds.length; r++) b.strip(ringIds[r - 1], ringIds[r]);
  return Array.from({ length: b.vertexCount - first }, (_, i) => first + i);
}
