import type { Vec3 } from '../../model/avatar.ts';
import { BUST_BOTTOM_Y, NECK_AXIS } from './bust.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

/**
 * The anatomy under the skin of the neck and the bust, as a height (cm, along the surface's normal)
 * over the smooth shapes of head-shape.ts and bust.ts: the sternocleidomastoids running from behind
 * the ears to the top of the sternum, the notch between their ends, the clavicles with the hollows
 * above them, the trapezius sloping from the neck to the shoulders, the deltoids capping the
 * shoulders, and the pectorals with the groove of the sternum between them. Features in front are
 * laid out as seen from the front (x, y), those behind as seen from behind, and they fade out
 * round the sides; the deltoids are round in space. Sizes are adult means in the template's frame
 * (cm: Y up, face along +Z, chin at y = -9.4, neck cut at -15.5, shoulder tips at x = +-19.5).
 */

/** A ridge (or, with a negative height, a groove) along a segment of the (x, y) plane. */
interface Ridge {
  from: [number, number];
  to: [number, number];
  height: number;
  /** Its half-width (the Gaussian's sigma), cm. */
  width: number;
  /**
   * The fraction of its length over which it grows from nothing at `from`, for a muscle that emerges from under
   * something the relief does not reach; without it, full height to both ends.
   */
  rise?: number;
}

/** Right side (x < 0) of each pair; the left one is its mirror image. */
const FRONT: Ridge[] = [
  // Sternocleidomastoid: from the mastoid behind the ear down and forward to the sternum's top. It emerges from under
  // the jaw, where the relief stops: at full height there it was cut off level, a band round the neck.
  { from: [-5.6, -9.8], to: [-1.4, -17.2], height: 0.45, width: 0.8, rise: 0.4 },
  // Clavicle: from the sternum out to the acromion, rising a little, in an S seen from above.
  { from: [-1.8, -17.8], to: [-7.5, -18.6], height: 0.4, width: 0.75 },
  { from: [-7.5, -18.6], to: [-15.5, -18.9], height: 0.4, width: 0.75 },
  // The supraclavicular hollow between the neck's muscle, the clavicle and the trapezius.
  { from: [-4.5, -16.9], to: [-8.5, -17.3], height: -0.3, width: 0.9 },
  // Pectoralis major: a broad rise under the clavicle, fading towards the armpit.
  { from: [-3.5, -24], to: [-11, -24.5], height: 0.8, width: 3.2 },
];
/** On the midline in front: the jugular notch above the sternum and the sternum's groove. */
const MIDLINE: Ridge[] = [
  { from: [0, -16.4], to: [0, -17.4], height: -0.4, width: 0.9 },
  { from: [0, -21], to: [0, -33], height: -0.2, width: 1.1 },
];
const BACK: Ridge[] = [
  // Trapezius: from the nape down the slope of the shoulder.
  { from: [-2.5, -14.5], to: [-14, -19.5], height: 0.6, width: 2.2 },
];
/** Deltoid: a cap over the shoulder's point, round in space. */
const DELTOID = { centre: [-18.6, -22.5, -6] as Vec3, height: 0.9, width: 3 };
/** Nothing within this much (cm) of the bust's flat bottom: its edge stays level and clean. */
const BOTTOM_CLEAR = 3;
/** Nothing above the jaw's underside: the face and the ears are the fit's. */
const TOP_Y = -9.5;

function ridge(x: number, y: number, r: Ridge): number {
  const [ax, ay] = r.from, [bx, by] = r.to;
  const ex = bx - ax, ey = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)));
  const d2 = (x - ax - t * ex) ** 2 + (y - ay - t * ey) ** 2;
  const grow = r.rise === undefined ? 1 : smoothstep(t / r.rise);
  return grow * r.height * Math.exp(-d2 / (2 * r.width * r.width));
}

/** The relief's height (cm, outwards along the normal) at a point of the neck or the bust. */
export function torsoRelief(p: Vec3): number {
  const [x, y, z] = p;
  if (y > TOP_Y) return 0;
  const fade = smoothstep((TOP_Y - y) / 1.5) * smoothstep((y - BUST_BOTTOM_Y - BOTTOM_CLEAR) / 3);
  if (fade === 0) return 0;
  // Front and back halves about the neck's axis, blending over the sides.
  const front = smoothstep((z - NECK_AXIS[1] + 2) / 4);
  const mirrored = -Math.abs(x);
  const sum = (ridges: Ridge[], u: number) => ridges.reduce((s, r) => s + ridge(u, y, r), 0);
  const deltoid = DELTOID.height * Math.exp(-((mirrored - DELTOID.centre[0]) ** 2 + (y - DELTOID.centre[1]) ** 2 + (z - DELTOID.centre[2]) ** 2) / (2 * DELTOID.width ** 2));
  return fade * (front * (sum(FRONT, mirrored) + sum(MIDLINE, x)) + (1 - front) * sum(BACK, mirrored) + deltoid);
}

/** Moves `vertices` of a mesh along its (welded) vertex normals by the relief. */
export function applyTorsoRelief(positions: Float32Array | number[], normals: ArrayLike<number>, vertices: Iterable<number>): void {
  for (const v of vertices) {
    const h = torsoRelief([positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]]);
    if (h === 0) continue;
    const n = [normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]];
    const len = Math.hypot(n[0], n[1], n[2]) || 1;
    for (let k = 0; k < 3; k++) positions[3 * v + k] += (h * n[k]) / len;
  }
}
