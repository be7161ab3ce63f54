import type { Vec3 } from '../../model/avatar.ts';
import { loopParameters } from '../mesh/builder.ts';
import { add, centroid, dot, normalize, scale, sub, vertex } from '../mesh/vec.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';

/**
 * An ear: a shell grown from an opening left in the skin. A stem leaves the head and flares into
 * the pinna's back (an ellipse, tilted back, standing further out at the back: 6.2 cm tall with its
 * lobe, the adult mean, its rim about 1.4 cm off the skull); the helix turns over the rim and rolls
 * inwards into the scapha's groove, rises again as the antihelix and falls into the hollow of the
 * concha. The scapha and the antihelix run round the back and the top only: at the front the helix
 * falls straight into the concha, as its crus does. At the bottom the rolls fade into a soft lobe;
 * at the front of the concha the tragus stands up over the ear canal, and across the notch below
 * it the antitragus. Each ring point keeps its angle about the opening's centre and the rings'
 * outlines nest (growing to the rim, shrinking after it), so that the shell is a height field over
 * them and cannot cross itself.
 */
const PINNA = { halfHeight: 2.75, halfWidth: 1.6, egg: 0.18, back: 0.8, up: 0.35, tilt: (15 * Math.PI) / 180 };
/**
 * Per ring: size of the outline, distance out from the head, how far its centre has moved from
 * the opening to the pinna's centre, extra distance at the back, how much of the ring is the
 * outline (the rest is the opening itself), and its distance where the lobe is (no rolls there).
 */
const RINGS: [number, number, number, number, number, number][] = [
  [0.45, 0.3, 0, 0, 0.5, 0.3],
  [0.6, 0.6, 0.3, 0, 1, 0.6],
  [0.92, 0.85, 1, 0.35, 1, 0.85],
  [1.04, 1.15, 1, 0.45, 1, 1.1],
  // The helix's crest, its inner lip and the scapha's groove behind it.
  [0.96, 1.32, 1, 0.42, 1, 1.16],
  [0.86, 1.22, 1, 0.34, 1, 1.12],
  [0.77, 0.96, 1, 0.3, 1, 1.05],
  // The slope up to the antihelix's ridge (the triangular fossa where it forks), the ridge, the concha's wall.
  [0.68, 1.07, 1, 0.28, 1, 1.0],
  [0.58, 1.18, 1, 0.26, 1, 0.95],
  [0.42, 0.85, 1, 0.18, 1, 0.82],
];
/** The rings by name: the helix's crest to the concha's wall (the rings the front smooths into one slope from CREST on). */
const [CREST, INNER_LIP, GROOVE, FOSSA, ANTIHELIX, WALL] = [4, 5, 6, 7, 8, 9];
/**
 * The antihelix forks at the top: its inferior crus goes on round the concha, its superior crus rises towards the
 * helix, the triangular fossa between them. From FORK[0] (outline angle, upper back) to FORK[1] the scapha's groove
 * rises into the superior crus and the slope inside it sinks into the fossa, so that the ridge splits in two, while the
 * helix's inner lip sinks into what is left of the scapha; the front's slope takes all of it down into the concha.
 */
const FORK = [1.0, 1.6] as const;
/** The forked rings' distance out where the fork is open. */
const FORKED: Record<number, number> = { [INNER_LIP]: 1.04, [GROOVE]: 1.2, [FOSSA]: 0.9 };
/** Ring r's distance out at an outline angle, with the antihelix's fork. */
function forked(r: number, angle: number, distance: number): number {
  const to = FORKED[r];
  if (to === undefined) return distance;
  return distance + (to - distance) * smoothstepBetween(FORK[0], FORK[1], Math.atan2(Math.sin(angle), Math.cos(angle)));
}
/** Points per ring per base vertex: the pinna needs a finer outline than the skin's opening. */
const DETAIL = 2;
/** How much lower the lobe reaches, as a fraction of the outline's size. */
const LOBE_LENGTH = 0.22;
/** Where the tragus sits (outline angle: 0 back, pi/2 up, pi front) and how far it stands out. */
const TRAGUS = { angle: Math.PI + 0.35, height: 0.4 };
/** The antitragus: below and behind the concha, above the lobe, a smaller knob. */
const ANTITRAGUS = { angle: -Math.PI / 2 + 0.55, height: 0.22 };
const CONCHA_OUT = 0.45;

/** Weight of the lobe at an outline angle: the lowest part, a little towards the back. */
const lobeWeight = (angle: number) => Math.max(0, -Math.sin(angle - 0.2)) ** 3;
const tragusWeight = (angle: number) => Math.max(0, Math.cos(angle - TRAGUS.angle)) ** 10;
const antitragusWeight = (angle: number) => Math.max(0, Math.cos(angle - ANTITRAGUS.angle)) ** 14;
/** How much of the front (where the helix's crus enters the concha) an outline angle is. */
const frontWeight = (angle: number) => Math.max(0, -Math.cos(angle)) ** 2;
/**
 * A real pinna meets the head at its front (the helix's root, the tragus) and stands out towards the back,
 * 20-30 degrees off the side of the head (here its rim 0.5 cm out at the front, 1.6 cm at the back: about
 * 20 degrees). Standing level, it read as a plate on a stem from the front. The pinna's rings are lowered
 * towards the head by up to FRONT_DROP cm at the front, as a whole, so that their relief stays; the stem
 * under them is squeezed to STEM_FRONT of its height there, so that it stays below them. At FRONT_DROP
 * 0.75, or with the concha's floor lowered as well, the shell cuts itself.
 */
const FRONT_DROP = 0.65;
const STEM_FRONT = 0.15;
/** The pinna's first ring: those before it are the stem. */
const PINNA_RING = 2;
/** 0 at the back of the outline, 1 at its front. */
const frontness = (angle: number) => (1 - Math.cos(angle)) / 2;
/** Distance out of ring r at an outline angle, leaning the pinna in towards the head at its front. */
const leaned = (distance: number, r: number, angle: number) =>
  r < PINNA_RING ? distance * (1 - (1 - STEM_FRONT) * frontness(angle)) : distance - FRONT_DROP * frontness(angle);
/** Ring r's distance out at the front: a straight slope from the crest down to the concha's wall. */
const frontDistance = (r: number) => RINGS[CREST][1] + ((RINGS[RINGS.length - 1][1] - RINGS[CREST][1]) * (r - CREST)) / (RINGS.length - 1 - CREST);

/** The ear's axes: out from the head (the side, turned back a little), back along the head and up. */
export function earFrame(side: 1 | -1): { out: Vec3; back: Vec3; up: Vec3 } {
  const out = normalize([side, 0, -0.2]);
  return { out, back: normalize(sub([0, 0, -1], scale(out, -out[2]))), up: [0, 1, 0] };
}

/** The pinna's outline about its centre at an angle (0 back, pi/2 up, pi front), in cm along back and up. */
export function pinnaOutline(angle: number): [number, number] {
  // Egg-shaped: broad over the top of the helix, narrowing towards the lobe.
  const x = PINNA.halfWidth * (1 + PINNA.egg * Math.sin(angle)) * Math.cos(angle), y = PINNA.halfHeight * Math.sin(angle);
  return [x * Math.cos(PINNA.tilt) + y * Math.sin(PINNA.tilt), -x * Math.sin(PINNA.tilt) + y * Math.cos(PINNA.tilt)];
}

/**
 * The outline the skin's opening for an ear takes about its centroid (cm along back and up): the pinna's, at
 * OPENING_SIZE. The stem rises from it to the pinna's first rings. A larger opening stood out in front of the
 * pinna, which leans in there, and its stem showed as a flap beside the tragus (at 0.44 and more).
 */
export const openingOutline = (angle: number): [number, number] => scale2(pinnaOutline(angle), OPENING_SIZE);
const OPENING_SIZE = 0.38;
const scale2 = ([x, y]: [number, number], s: number): [number, number] => [x * s, y * s];

/**
 * A loop round an ear's opening, as its rings are laid out on it: its points in the (back, up) plane about their
 * centroid `b`, and each point's outline angle, spread evenly by arc length in the loop's own turning sense from the
 * point nearest the back direction (`turn` is that sense, +1 or -1).
 */
export function loopAround(positions: ArrayLike<number>, loop: readonly number[], side: 1 | -1): { b: Vec3; flat: [number, number][]; angles: number[]; turn: number } {
  const { back, up } = earFrame(side);
  const b = centroid(positions, loop);
  const flat = loop.map((v): [number, number] => {
    const r = sub(vertex(positions, v), b);
    return [dot(r, back), dot(r, up)];
  });
  const n = loop.length;
  const turn = Math.sign(shoelace(flat));
  const start = flat.reduce((best, p, i) => (Math.abs(Math.atan2(p[1], p[0])) < Math.abs(Math.atan2(flat[best][1], flat[best][0])) ? i : best), 0);
  const along = loopParameters(positions, [...loop.slice(start), ...loop.slice(0, start)]);
  const angles = loop.map((_, i) => Math.atan2(flat[start][1], flat[start][0]) + turn * 2 * Math.PI * along[(i - start + n) % n]);
  return { b, flat, angles, turn };
}

/** Twice the signed area of a polygon. */
function shoelace(points: readonly [number, number][]): number {
  let area = 0;
  points.forEach((p, i) => {
    const q = points[(i + 1) % points.length];
    area += p[0] * q[1] - q[0] * p[1];
  });
  return area;
}

export function earRings(positions: ArrayLike<number>, base: readonly number[], side: 1 | -1): { rings: Vec3[][]; apex: Vec3 } {
  const { out, back, up } = earFrame(side);
  const { b, angles, turn } = loopAround(positions, base, side);
  const centre = add(add(b, scale(back, PINNA.back)), scale(up, PINNA.up));
  const rel = base.map((v) => sub(vertex(positions, v), b));
  const n = base.length;
  // Loop position of ring point j (a fraction of the way between base vertices i and i + 1).
  const where = (j: number) => ({ i: Math.floor(j / DETAIL), f: (j % DETAIL) / DETAIL });
  const angleOf = (j: number) => {
    const { i, f } = where(j);
    const next = angles[(i + 1) % n];
    // Past the last point the angle goes on a whole turn to the first one.
    const step = next - angles[i] + (turn * (next - angles[i]) < 0 ? turn * 2 * Math.PI : 0);
    return angles[i] + f * step;
  };
  const relAt = (j: number): Vec3 => {
    const { i, f } = where(j);
    return add(scale(rel[i], 1 - f), scale(rel[(i + 1) % n], f));
  };
  const rings = RINGS.map(([size, ringDistance, shift, backExtra, blend, lobeDistance], r) =>
    Array.from({ length: n * DETAIL }, (_, j): Vec3 => {
      const angle = angleOf(j);
      const distance = forked(r, angle, ringDistance);
      const lobe = lobeWeight(angle);
      const grown = r >= 2 ? size * (1 + LOBE_LENGTH * lobe) : size;
      const [ob, ou] = pinnaOutline(angle);
      const ringCentre = add(b, scale(sub(centre, b), shift));
      const target = add(add(ringCentre, scale(back, ob * grown)), scale(up, ou * grown));
      const relJ = relAt(j);
      const onBase = add(add(b, relJ), scale(out, -dot(relJ, out)));
      const planar = add(scale(onBase, 1 - blend), scale(target, blend));
      const backness = Math.max(0, ob / PINNA.halfWidth);
      // The tragus and the antitragus stand up on the concha's rim, the inner ring the most.
      const knobs = r === ANTIHELIX || r === WALL ? (TRAGUS.height * tragusWeight(angle) + ANTITRAGUS.height * antitragusWeight(angle)) * (r === WALL ? 1 : 0.5) : 0;
      const relief = r > CREST ? distance + (frontDistance(r) - distance) * frontWeight(angle) : distance;
      const lift = leaned(relief * (1 - lobe) + lobeDistance * lobe + backExtra * backness, r, angle) + knobs;
      // The base's own curvature fades out as the rings leave the head.
      return add(planar, scale(out, lift + dot(relJ, out) * (1 - blend)));
    }),
  );
  return { rings, apex: add(add(b, scale(back, PINNA.back * 0.8)), scale(out, CONCHA_OUT)) };
}
