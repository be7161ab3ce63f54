import type { Vec3 } from '../../model/avatar.ts';
import { centroid, vertex } from '../mesh/vec.ts';

/**
 * The inside of the mouth: a bag from the inner lip contour back to the throat, tall enough
 * behind the lips for the teeth and wide enough for the molars. Per ring: depth behind the lip
 * contour's centre, half width, half height, drop (cm).
 */
const PROFILE: [number, number, number, number][] = [
  [0.3, 2.2, 1.2, -0.1],
  [1.2, 2.6, 1.6, -0.3],
  [2.6, 3.3, 1.9, -0.4],
  [4.0, 3.3, 1.9, -0.5],
  [5.2, 2.4, 1.4, -0.6],
];
const APEX: [number, number] = [5.9, -0.6];
const BOXINESS = 0.6;

/** Each lip point keeps its angle about the mouth's centre on every ring, so the rings nest. */
export function mouthBagRings(positions: ArrayLike<number>, lipsInner: readonly number[]): { rings: Vec3[][]; apex: Vec3 } {
  const c = centroid(positions, lipsInner);
  const points = lipsInner.map((v) => vertex(positions, v));
  const halfWidth = Math.max(...points.map((p) => Math.abs(p[0] - c[0])));
  const halfHeight = Math.max(...points.map((p) => Math.abs(p[1] - c[1])));
  const rings = PROFILE.map(([depth, w, h, drop]) =>
    points.map((p): Vec3 => {
      const angle = Math.atan2((p[1] - c[1]) / halfHeight, (p[0] - c[0]) / halfWidth);
      // Near the lips the rings keep the contour's curve around the teeth; deeper they flatten.
      const curve = (p[2] - c[2]) * Math.max(0, 1 - depth / 2);
      // A boxy cross-section leaves room for the molars at the sides.
      const box = (x: number) => Math.sign(x) * Math.abs(x) ** BOXINESS;
      return [c[0] + w * box(Math.cos(angle)), c[1] + drop + h * box(Math.sin(angle)), c[2] - depth + curve];
    }),
  );
  return { rings, apex: [c[0], c[1] + APEX[1], c[2] - APEX[0]] };
}
