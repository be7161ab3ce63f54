/**
 * What of the eye sockets a viewer and the photo see past the eyeballs.
 *
 * The lids' opening reaches past the eyeball's outline at the eyes' corners (on the test photos 1.15 to 1.3
 * eyeball radii from its centre, seen from the front), so there one looks past the eyeball into the socket. The
 * photo at those places holds the person's own eye corners: the lash lines meeting, the caruncle, the shaded
 * white. Painted the socket's dark, every avatar's open eyes ended in black wedges. So the socket takes the photo
 * where the photo saw it, the photo's colours continued where it did not, and the dark only where no view from
 * the front half-space's middle (`SEEN_WITHIN` of straight ahead) reaches it past the eyeball.
 */
import type { Vec3 } from '../../model/avatar.ts';
import type { PhotoCamera } from './photo-camera.ts';
import type { Sphere } from '../mesh/sphere-fit.ts';

/** Views this far from straight ahead (radians) see into the eyes' corners: the packages' three-quarter view. */
const SEEN_WITHIN = Math.PI / 4;

/** `visible` with the socket vertices an eyeball hides from the photo's camera cleared, as a copy (`positions` packed xyz). */
export function hiddenByEyeballs(visible: Uint8Array, socket: readonly number[], positions: Float32Array, camera: PhotoCamera, eyes: readonly Sphere[]): Uint8Array {
  const r = camera.rotation;
  const towardsCamera: Vec3 = [r[6], r[7], r[8]];
  const out = new Uint8Array(visible);
  for (const v of socket) if (eyes.some((e) => blocks(e, positions, v, towardsCamera))) out[v] = 0;
  return out;
}

/**
 * The socket's vertices that no view within `SEEN_WITHIN` of straight ahead (+Z) sees past an eyeball: those
 * keep the socket's dark. A vertex is hidden from every such view when the eyeball's disc, seen from it, covers
 * the whole cone of those directions.
 */
export function socketOutOfSight(socket: readonly number[], positions: Float32Array, eyes: readonly Sphere[]): number[] {
  return socket.filter((v) => eyes.some((e) => {
    const w = toCentre(e, positions, v), distance = Math.hypot(...w);
    if (distance <= e.radius) return true;
    const offAxis = Math.acos(Math.max(-1, Math.min(1, w[2] / distance)));
    return offAxis + SEEN_WITHIN < Math.asin(e.radius / distance);
  }));
}

/** Whether the eyeball lies on the line from vertex v towards `direction` (unit). */
function blocks(e: Sphere, positions: Float32Array, v: number, direction: Vec3): boolean {
  const w = toCentre(e, positions, v);
  const along = w[0] * direction[0] + w[1] * direction[1] + w[2] * direction[2];
  return along > 0 && w[0] ** 2 + w[1] ** 2 + w[2] ** 2 - along * along < e.radius ** 2;
}

function toCentre(e: Sphere, positions: Float32Array, v: number): Vec3 {
  return [e.center[0] - positions[3 * v], e.center[1] - positions[3 * v + 1], e.center[2] - positions[3 * v + 2]];
}
