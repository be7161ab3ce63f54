import type { Vec3 } from '../../model/avatar.ts';
import { add, dot, hypot3, lerp, scale, sub, vertex } from '../mesh/vec.ts';
import { rayTriangle } from '../mesh/triangle-tests.ts';
import { CrossingTest, forEachSelfIntersection } from '../mesh/checks.ts';
import { overlappingPairsWith, triangleBoxes } from '../mesh/box-grid.ts';
import { vertexNeighbours } from '../mesh/adjacency.ts';
import type { MeshName } from '../template/types.ts';
import { fittedPositions, type Deltas, type ExpressionFrame } from './frame.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

/**
 * The building blocks of every shape, evaluated on the fitted geometry. Each adds its motion
 * into `out`, so a shape is the sum of a few of them.
 */

/** Smooth bump: 1 at the centre, 0 from `radius` on, flat at both ends. */
const falloff = (d: number, radius: number) => (d >= radius ? 0 : (1 - (d / radius) ** 2) ** 2);

/**
 * A weight per vertex of a mesh. The motions take arrays, not callbacks: a closure made per call was compiled on its
 * own, its optimized code dropped with it after every job, and the motion that had inlined it thrown away too.
 */
export type Weights = ArrayLike<number>;

/** Moves head vertices near `centre` by `displacement`, fading to nothing at `radius`; `mask` limits it (e.g. to the lower lip). */
export function brush(frame: ExpressionFrame, out: Deltas, centre: Vec3, radius: number, displacement: Vec3, mask?: Weights): void {
  const p = frame.fitted.head, d = out.head;
  for (let v = 0; v < p.length / 3; v++) {
    const dx = p[3 * v] - centre[0], dy = p[3 * v + 1] - centre[1], dz = p[3 * v + 2] - centre[2];
    const w = falloff(Math.sqrt(dx * dx + dy * dy + dz * dz), radius);
    if (w === 0) continue;
    const m = mask ? w * mask[v] : w;
    d[3 * v] += displacement[0] * m;
    d[3 * v + 1] += displacement[1] * m;
    d[3 * v + 2] += displacement[2] * m;
  }
}

/**
 * Rodrigues: the point (px, py, pz) turned by `angle` radians about the unit `axis` through `pivot`, into `out`
 * (the per-vertex loops pass coordinates and a scratch array: no array per vertex).
 */
function rotateAbout(px: number, py: number, pz: number, pivot: Vec3, axis: Vec3, angle: number, out: Float64Array): void {
  const rx = px - pivot[0], ry = py - pivot[1], rz = pz - pivot[2];
  const c = Math.cos(angle), s = Math.sin(angle);
  const k = (axis[0] * rx + axis[1] * ry + axis[2] * rz) * (1 - c);
  const xx = axis[1] * rz - axis[2] * ry, xy = axis[2] * rx - axis[0] * rz, xz = axis[0] * ry - axis[1] * rx;
  out[0] = pivot[0] + rx * c + xx * s + axis[0] * k;
  out[1] = pivot[1] + ry * c + xy * s + axis[1] * k;
  out[2] = pivot[2] + rz * c + xz * s + axis[2] * k;
}

/** Turns vertices of `mesh` about an axis, each by `angle` times its weight (1 for all without `weight`). */
export function rotate(frame: ExpressionFrame, out: Deltas, mesh: MeshName, pivot: Vec3, axis: Vec3, angle: number, weight?: Weights): void {
  const p = fittedPositions(frame, mesh), d = out[mesh];
  const r = new Float64Array(3);
  for (let v = 0; v < p.length / 3; v++) {
    const w = weight ? weight[v] : 1;
    if (w === 0) continue;
    rotateAbout(p[3 * v], p[3 * v + 1], p[3 * v + 2], pivot, axis, angle * w, r);
    for (let k = 0; k < 3; k++) d[3 * v + k] += r[k] - p[3 * v + k];
  }
}

/** Moves vertices of `mesh` by `displacement` times their weight. */
export function translate(frame: ExpressionFrame, out: Deltas, mesh: MeshName, displacement: Vec3, weight?: Weights): void {
  const d = out[mesh];
  for (let v = 0; v < d.length / 3; v++) {
    const w = weight ? weight[v] : 1;
    for (let k = 0; k < 3; k++) d[3 * v + k] += displacement[k] * w;
  }
}

/**
 * A value along a contour of fitted vertices (an eyelid, a lip), read by position across the
 * face (`lateral` coordinate) with linear interpolation between its points, held at the ends:
 * its points' positions across (ascending) and values. A literal read by module functions, not a
 * class: V8 drops a class's instance layout once its last instance dies (after every job), and
 * with it the optimized code of everything that read one; a literal's layout lives with its site.
 */
export interface Profile {
  xs: Float64Array;
  ys: Float64Array;
}

interface ProfilePoint {
  x: number;
  y: number;
}
const byX = (a: ProfilePoint, b: ProfilePoint) => a.x - b.x;

/** The profile of these points, sorted across the face (stably: points at the same place keep their order). */
function profileOf(points: ProfilePoint[]): Profile {
  points.sort(byX);
  const xs = new Float64Array(points.length), ys = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    xs[i] = points[i].x;
    ys[i] = points[i].y;
  }
  return { xs, ys };
}

/** The profile of the contour's positions along `direction` (its height, its depth). */
export function profileAlong(frame: ExpressionFrame, chain: readonly number[], direction: Vec3, positions: ArrayLike<number> = frame.fitted.head): Profile {
  const points: ProfilePoint[] = [];
  for (const v of chain) {
    const p = vertex(positions, v);
    points.push({ x: dot(p, frame.left), y: dot(p, direction) });
  }
  return profileOf(points);
}

/** The profile's value at `x` across the face. */
export function profileAt(profile: Profile, x: number): number {
  const { xs, ys } = profile;
  if (x <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++) {
    if (x <= xs[i]) {
      const t = (x - xs[i - 1]) / (xs[i] - xs[i - 1] || 1);
      return ys[i - 1] + (ys[i] - ys[i - 1]) * t;
    }
  }
  return ys[xs.length - 1];
}

/** A profile of the contour's angles or distances about a lid's centre, with a method. */
export class ContourProfile {
  private readonly profile: Profile;

  constructor(frame: ExpressionFrame, chain: readonly number[], lid: Lid, measure: 'elevation' | 'distance') {
    const points: ProfilePoint[] = [];
    for (const v of chain) {
      const p = vertex(frame.fitted.head, v);
      points.push({ x: dot(p, frame.left), y: measure === 'elevation' ? lid.elevation(p) : lid.distance(p) });
    }
    this.profile = profileOf(points);
  }

  at(x: number): number {
    return profileAt(this.profile, x);
  }

  /** Its points' places across the face strictly between a and b. */
  between(a: number, b: number): number[] {
    const out: number[] = [];
    for (const x of this.profile.xs) if (x > a && x < b) out.push(x);
    return out;
  }
}

/**
 * The indexes of `values` in ascending order of value, ties in index order (a stable sort), by insertion: a lid's few
 * points, without a comparator closure made per call (its optimised code died with it, compiled again per avatar).
 */
function ascendingOrder(values: readonly number[]): number[] {
  const order: number[] = [];
  for (let k = 0; k < values.length; k++) {
    let at = k;
    while (at > 0 && values[order[at - 1]] > values[k]) at--;
    order.splice(at, 0, k);
  }
  return order;
}

/** Splits a closed contour at its leftmost and rightmost points into its upper and lower halves. */
export function upperAndLower(frame: ExpressionFrame, loop: readonly number[]): { upper: number[]; lower: number[] } {
  const x: number[] = [];
  for (const v of loop) x.push(dot(vertex(frame.fitted.head, v), frame.left));
  const a = x.indexOf(Math.min(...x)), b = x.indexOf(Math.max(...x));
  const [from, to] = a < b ? [a, b] : [b, a];
  const one = loop.slice(from, to + 1), other = [...loop.slice(to), ...loop.slice(0, from + 1)];
  return meanHeight(frame, one) > meanHeight(frame, other) ? { upper: one, lower: other } : { upper: other, lower: one };
}

function meanHeight(frame: ExpressionFrame, chain: number[]): number {
  let sum = 0;
  for (const v of chain) sum += dot(vertex(frame.fitted.head, v), frame.up);
  return sum / chain.length;
}

export type Side = 'left' | 'right';

/** A lower lid closing (never fully: squints) stops this far (cm) short of the upper lid's margin. */
const LIDS_MEET = 0.04;
/**
 * A closed upper lid comes down this far (cm) past the lower lid's rim, fading towards the corners (as PUSH.corner),
 * and stands this far in front of the lower lid's skin there, up to the corners (where it comes down past it, it must
 * be in front of it), so that no slit stays open seen from the front or from below. Standing further off (0.35 mm)
 * leaves more of the eyeball seen from below (2.5 % on the 2.0 template, against 1.5 %).
 */
const OVERLAP = { past: 0.01, front: 0.02 };
/**
 * A closed upper margin stands in front of the lower rim, so a camera below the face sees the eyeball under it unless
 * it comes down further past the rim the further in front it stands: until it hides the eye from `angle` (radians)
 * below, in steps of `step` (cm), at most `steps` of them (1.5 mm).
 */
const FROM_BELOW = { angle: (50 * Math.PI) / 180, step: 0.005, steps: 30 };
/** How far to either side (a share of the eye's width) a closing lid's margin keeps clear of the other's. */
const REACH_ACROSS = 0.02;
/** A closing upper margin's edges are checked against the lower lid's skin at this many steps between their ends. */
const EDGE_SAMPLES = 4;
/**
 * Where the motion fades at the corners, as a multiple of the opening's widest angle. A closing upper margin fades
 * over a much shorter stretch: held back, it would stay above the lower one there while its neighbours come down past
 * it (over a quarter, 0.1-0.3 % of the eyeball stayed seen from the front at the corners of 6 of the 36 fitted eyes).
 */
const CORNER = { margin: 0.1, skin: 0.6, socket: 1 };
/**
 * The lid's skin moves in or out with its margin within `reach` eye units of it, fading at the corners (as CORNER). An
 * upper lid's back moves as its margin does; a lower lid's (squints) fades over `lowerBack` eye units: moved in full
 * behind skin that fades over `reach`, it came out through that skin: 6 of the 36 eye squints of the test photos' 2.0
 * heads crossed (p11-a's right 18 vertices of crossing triangles), then 2 (couple's right at its upper lid; p12-a's
 * left 17 -> 9 vertices, at the inner corner), which eye-untangle.ts takes back. Over 0.45 eye units a cheek squint's
 * back crossed its socket's lining, over 0.9 two squints came back; 0.6-0.75 gave the same.
 */
const PUSH = { reach: 0.3, corner: 0.8, lowerBack: 0.6 };
/**
 * A thin closing upper lid (1.6's: no back) presses the lower lid's rim and first ring of skin down where its margin
 * would cut them (radians per step of the fold check, and at most), keeping them `clearance` (cm) above the closed
 * margin, before the margin is held back: held back, it left a slit open at the inner corner (0.9 % of p03-b's right
 * eyeball seen from the front). 2.0's lids, whose back stands behind the margin, leave such a slit on one test eye
 * (p12-a's right, 0.30 %; 0.14 % pressed), and pressed, the lower rim opened a line seen from below on others (p07-a's
 * left eye from 37 degrees: 0.05 % -> 0.81 %): they are not pressed.
 */
const GIVE = { step: 0.005, most: 0.07, clearance: 0.01 };
/** What lies behind a closed upper margin passes this far (cm) over the lower margin. */
const BEHIND_CLEARANCE = 0.01;
/** Lids pulled in to meet stay this far (cm) off the eyeball. */
const EYE_CLEARANCE = 0.03;

/** (x, y, z), or where it would be pushed out to on the sphere about `centre` of `radius` if it is inside it, into `out`. */
function clearOf(x: number, y: number, z: number, centre: Vec3, radius: number, out: Float64Array): void {
  const rx = x - centre[0], ry = y - centre[1], rz = z - centre[2], length = hypot3(rx, ry, rz);
  if (length >= radius || length === 0) {
    out[0] = x; out[1] = y; out[2] = z;
  } else {
    out[0] = centre[0] + (rx * radius) / length; out[1] = centre[1] + (ry * radius) / length; out[2] = centre[2] + (rz * radius) / length;
  }
}

/**
 * Past the lid's margin its motion starts to fade, and fades out, at these multiples of the
 * opening's widest angle: a wide-open eye closes with a wider band of lid skin.
 */
const SKIN_FADE = [0.2, 1], SOCKET_FADE = [0.85, 3.4];

/** One point of a lid's moving margin: how far it turns, and how far it moves out from the eye's centre. */
interface MarginPoint {
  q: Vec3;
  x: number;
  /** The angle about the lid centre it comes down (or up) to. */
  meet: number;
  turn: number;
  out: number;
  /**
   * A closing upper margin's turn and outward motion where it first met the lower lid, before it came further down to
   * hide the eye from below. Always set (undefined at first), so that every margin point has one shape.
   */
  level: { turn: number; out: number } | undefined;
  /** The share of its turn and outward motion the fold check left it (1 where it did not hold it back). */
  kept: number;
  /** Closed in full after all (closeAhead): where it had ended, and its outward motion closed in full. */
  ahead: { turn: number; out: number; full: number } | undefined;
}

/**
 * An eyelid's geometry on this face, as its motion reads it: both lids' contours as angles about the lid
 * centre, and where its margin goes when it closes. A class, not closures made inside `eyelid`: those were
 * made per avatar, and their optimized code was thrown away with them after every job.
 */
class Lid {
  readonly centre: Vec3;
  readonly upper: ContourProfile;
  readonly lower: ContourProfile;
  readonly widest: number;
  readonly overlaps: boolean;
  private readonly otherRimElevation: ContourProfile;
  private readonly otherContour: ContourProfile;
  private readonly otherDistance: ContourProfile;
  /** The other lid's skin triangles next to its rim. */
  private readonly otherSkin: [number, number, number][] = [];
  private readonly reachAcross: number;
  private readonly margin: MarginPoint[];
  private readonly eye: Vec3;
  /** This lid's rim vertices. */
  readonly rim: number[];
  /** An upper lid's: the lower lid's rim (1) and first ring of skin (2), which it may press down as it closes (GIVE). */
  readonly otherLid: Uint8Array;
  /** The head vertices its motion can reach (near the lid centre), ascending: the rest of the head never moves with it. */
  readonly nearby: Uint32Array;

  constructor(
    private readonly frame: ExpressionFrame,
    side: Side,
    readonly which: 'upper' | 'lower',
  ) {
    const loop = side === 'left' ? frame.template.loops.leftEye : frame.template.loops.rightEye;
    this.centre = frame.lidCentres[side];
    this.eye = frame.eyeCentres[side];
    const chains = upperAndLower(frame, loop);
    this.upper = new ContourProfile(frame, chains.upper, this, 'elevation');
    this.lower = new ContourProfile(frame, chains.lower, this, 'elevation');
    // Loops, not callbacks made per lid: their optimised code died with them, compiled again per avatar.
    let widest = -Infinity, leftmost = Infinity, rightmost = -Infinity;
    for (const v of chains.upper) {
      const x = dot(vertex(frame.fitted.head, v), frame.left);
      widest = Math.max(widest, this.upper.at(x) - this.lower.at(x));
      leftmost = Math.min(leftmost, x);
      rightmost = Math.max(rightmost, x);
    }
    this.widest = widest;
    const ownRim: number[] = [], otherRim: number[] = [];
    for (const v of frame.lidRims[side]) (this.isUpper(v) === (which === 'upper') ? ownRim : otherRim).push(v);
    this.rim = ownRim;
    this.reachAcross = REACH_ACROSS * (rightmost - leftmost);
    // Clear of the other lid's contour through its landmarks too, not only of its refined rim.
    this.otherRimElevation = new ContourProfile(frame, otherRim, this, 'elevation');
    this.otherContour = which === 'upper' ? this.lower : this.upper;
    this.otherDistance = new ContourProfile(frame, otherRim, this, 'distance');
    // The upper lid closes over the lower one: past its margin (an angle about the lid centre) and in front of its skin.
    this.overlaps = which === 'upper';
    // 1 on the other lid's rim, 2 on its first ring of skin (an upper lid's only).
    const ring = new Uint8Array(frame.fitted.head.length / 3);
    this.otherLid = ring;
    if (this.overlaps) {
      for (const v of otherRim) ring[v] = 1;
      for (const v of frame.lidSkin[side]) if (!this.isUpper(v)) ring[v] = 2;
      const { indices } = frame.template.head;
      for (let t = 0; t < indices.length; t += 3) {
        const a = ring[indices[t]], b = ring[indices[t + 1]], e = ring[indices[t + 2]];
        if ((a === 1 || b === 1 || e === 1) && (a === 2 || b === 2 || e === 2)) this.otherSkin.push([indices[t], indices[t + 1], indices[t + 2]]);
      }
    }
    const meets = this.overlapMeets(ownRim);
    const margin: MarginPoint[] = [];
    for (let k = 0; k < ownRim.length; k++) margin.push(this.marginPoint(ownRim[k], meets[k]));
    this.margin = margin;
    if (this.overlaps && frame.thinLids) this.keepEdgesInFront();
    const nearby: number[] = [], p = frame.fitted.head, c = this.centre;
    for (let v = 0; v < p.length / 3; v++) {
      const rx = p[3 * v] - c[0], ry = p[3 * v + 1] - c[1], rz = p[3 * v + 2] - c[2];
      if (lidNear(frame, Math.sqrt(rx * rx + ry * ry + rz * rz)) !== 0) nearby.push(v);
    }
    this.nearby = Uint32Array.from(nearby);
  }

  /** The angle of `p` about the lid centre, up from forward. */
  elevation(p: Vec3): number {
    return this.elevationAt(p[0], p[1], p[2]);
  }

  /** elevation() of the point (x, y, z), for per-vertex loops (no array). */
  elevationAt(x: number, y: number, z: number): number {
    const c = this.centre, { up, forward } = this.frame;
    const rx = x - c[0], ry = y - c[1], rz = z - c[2];
    return Math.atan2(rx * up[0] + ry * up[1] + rz * up[2], rx * forward[0] + ry * forward[1] + rz * forward[2]);
  }

  /** How far `p` is from the lid centre, across the lid (left ignored). */
  distance(p: Vec3): number {
    return this.distanceAt(p[0], p[1], p[2]);
  }

  /** distance() of the point (x, y, z). */
  distanceAt(x: number, y: number, z: number): number {
    const c = this.centre, { up, forward } = this.frame;
    const rx = x - c[0], ry = y - c[1], rz = z - c[2];
    return Math.hypot(rx * up[0] + ry * up[1] + rz * up[2], rx * forward[0] + ry * forward[1] + rz * forward[2]);
  }

  /**
   * The least elevation at `x` of a point `r` from the lid centre behind a closed upper margin at (`marginElevation`,
   * `marginDistance`) for the lid between them to pass BEHIND_CLEARANCE over the lower margin.
   */
  above(x: number, r: number, marginElevation: number, marginDistance: number): number {
    const lower = this.otherDistance.at(x), over = this.otherRimElevation.at(x) + BEHIND_CLEARANCE / lower;
    if (r >= lower) return over;
    // On the line from the margin through the point over the lower margin; straight up from a margin at the lower one's depth.
    const ahead = marginDistance - lower;
    return ahead <= 1e-6 ? Infinity : over + (Math.max(0, over - marginElevation) * (lower - r)) / ahead;
  }

  private isUpper(v: number): boolean {
    const q = vertex(this.frame.fitted.head, v), x = dot(q, this.frame.left);
    return this.elevation(q) > (this.upper.at(x) + this.lower.at(x)) / 2;
  }

  private otherElevation(x: number): number {
    return (this.which === 'upper' ? Math.max : Math.min)(this.otherRimElevation.at(x), this.otherContour.at(x));
  }

  /**
   * How far from the lid centre the other lid's skin is at an angle just past its margin, in the plane across the lid
   * at x: where the ray at that angle meets the strip of skin triangles next to its rim (the farthest hit, or its rim's distance).
   */
  private otherSurface(x: number, angle: number): number {
    const { left, up, forward } = this.frame, c = this.centre, p = this.frame.fitted.head;
    const o = add(c, scale(left, x - dot(c, left))), dir = add(scale(forward, Math.cos(angle)), scale(up, Math.sin(angle)));
    let far = this.otherDistance.at(x);
    for (const [a, b, e] of this.otherSkin) {
      const hit = rayHit(o, dir, vertex(p, a), vertex(p, b), vertex(p, e));
      if (hit > far) far = hit;
    }
    return far;
  }

  private overlapFade(x: number): number {
    return this.overlaps ? smoothstep(Math.max(0, this.upper.at(x) - this.lower.at(x)) / (PUSH.corner * this.widest)) : 0;
  }

  /**
   * A thin lid's closing margin (it has no back to stand behind it) keeps its straight edges as far in front of the
   * lower lid's skin between their ends as its points stand (OVERLAP.front): where the skin bulges further out than an
   * edge, both its ends move out by as much. 1.6's margin has 7 points, and the lower lid's bulge came up to 0.2 mm
   * through the edges between them.
   */
  private keepEdgesInFront(): void {
    const xs: number[] = [];
    for (const m of this.margin) xs.push(m.x);
    const order = ascendingOrder(xs);
    const outward = new Array<number>(this.margin.length).fill(0);
    for (let k = 1; k < order.length; k++) {
      const i = this.margin[order[k - 1]], j = this.margin[order[k]];
      const ri = this.distance(i.q) + i.out, rj = this.distance(j.q) + j.out;
      const ei = this.elevation(i.q) - i.turn, ej = this.elevation(j.q) - j.turn;
      let over = 0;
      for (let s = 1; s < EDGE_SAMPLES; s++) {
        const t = s / EDGE_SAMPLES;
        over = Math.max(over, this.frontAt(i.x + t * (j.x - i.x), ei + t * (ej - ei)) - (ri + t * (rj - ri)));
      }
      outward[order[k - 1]] = Math.max(outward[order[k - 1]], over);
      outward[order[k]] = Math.max(outward[order[k]], over);
    }
    for (let k = 0; k < this.margin.length; k++) this.margin[k].out += outward[k];
  }

  /**
   * Where each point of a closing upper margin comes down to (an angle), for the rim `ownRim`: `past` below the lower
   * rim itself (its refined points sag below the landmarks' contour), and lower still where the straight edge to a
   * neighbour would pass over a point of the lower rim between them.
   */
  private overlapMeets(ownRim: number[]): number[] {
    const xs: number[] = [], meets: number[] = [];
    for (const v of ownRim) {
      const x = dot(vertex(this.frame.fitted.head, v), this.frame.left);
      xs.push(x);
      meets.push(this.pastRim(x));
    }
    const order = ascendingOrder(xs);
    for (let k = 1; k < order.length; k++) {
      const i = order[k - 1], j = order[k];
      let over = 0;
      for (const x of this.otherRimElevation.between(xs[i], xs[j])) {
        const chord = meets[i] + ((meets[j] - meets[i]) * (x - xs[i])) / (xs[j] - xs[i]);
        over = Math.max(over, chord - this.pastRim(x));
      }
      meets[i] -= over;
      meets[j] -= over;
    }
    return meets;
  }

  /** Where (an angle) a closed upper lid comes down to at `x`: `past` below the lower rim. */
  private pastRim(x: number): number {
    return this.otherRimElevation.at(x) - this.past(x);
  }

  /** How far (an angle) a closed upper lid comes down past the lower one's margin at `x`. */
  past(x: number): number {
    return (OVERLAP.past * this.overlapFade(x)) / this.otherDistance.at(x);
  }

  /**
   * How far a point of the moving margin turns, and how far it moves out from (or in towards) the
   * eye's centre: a closed lid's margin ends on the other lid's, a hair above (or below) it, at the
   * same depth, so that no slit stays open seen from the front or from below.
   */
  private marginPoint(v: number, overlapMeet: number): MarginPoint {
    const q = vertex(this.frame.fitted.head, v);
    const x = dot(q, this.frame.left);
    const gap = Math.max(0, this.upper.at(x) - this.lower.at(x));
    // Against the other lid's edge a little to either side too: its margin slopes.
    const near = [this.otherElevation(x - this.reachAcross), this.otherElevation(x), this.otherElevation(x + this.reachAcross)];
    const meet = this.overlaps ? overlapMeet : Math.min(...near) - LIDS_MEET / this.otherDistance.at(x);
    // The refined points between the landmarks may lie past the landmarks' contour: a closing upper lid turns each as
    // far as it needs, in front of the lower lid's skin all along, up to the corners (wherever it comes down past the lower rim).
    if (this.overlaps) return { q, x, meet, turn: Math.max(0, this.elevation(q) - meet), out: this.frontAt(x, meet) - this.distance(q), level: undefined, kept: 1, ahead: undefined };
    return { q, x, meet, turn: Math.max(0, Math.min(gap + this.past(x), meet - this.elevation(q))), out: this.otherDistance.at(x) - this.distance(q), level: undefined, kept: 1, ahead: undefined };
  }

  /**
   * Brings each point of a closing upper margin further down past the lower rim, in front of the lower lid's skin,
   * until it hides the eye from below (hiddenFromBelow): whether any did. Only for a lid that closes onto the lower
   * one (squints and glances, which stop above it, keep their motion), after the fold check held it back.
   */
  hideFromBelow(): boolean {
    let any = false;
    for (const m of this.margin) {
      let low = m.meet, front = this.placedAt(m.x, low);
      for (let k = 0; k < FROM_BELOW.steps && !this.hiddenFromBelow(m.x, low, front); k++) {
        low -= FROM_BELOW.step / this.otherDistance.at(m.x);
        front = this.placedAt(m.x, low);
      }
      if (low === m.meet) continue;
      m.level = { turn: m.turn, out: m.out };
      m.turn = Math.max(0, this.elevation(m.q) - low);
      m.out = front - this.distance(m.q);
      any = true;
    }
    return any;
  }

  /** How far from the lid centre a closing upper margin at `angle` stands: in front of the lower lid's skin. */
  private frontAt(x: number, angle: number): number {
    return Math.max(this.otherSurface(x - this.reachAcross, angle), this.otherSurface(x, angle), this.otherSurface(x + this.reachAcross, angle)) + OVERLAP.front;
  }

  /**
   * Where a margin point brought down to `angle` ends (its distance from the lid centre): in front of the lower lid's
   * skin, but never nearer the eyeball than EYE_CLEARANCE, out to which the lid's motion pushes it (clearOf). Lowered
   * to hide the eye from below as if it stood at the skin, a point the push then carried further forward, up to 0.4 mm
   * at the middle of p09-a's left eye, where the lower lid lies on the eyeball, left a ray from below passing under it.
   */
  private placedAt(x: number, angle: number): number {
    const { left, up, forward } = this.frame, c = this.centre, e = this.eye, radius = this.frame.eyeRadius + EYE_CLEARANCE;
    // Where the ray from the lid centre at `angle`, in the plane across the lid at x, leaves that sphere (if it meets it).
    const o = add(c, scale(left, x - dot(c, left))), dir = add(scale(forward, Math.cos(angle)), scale(up, Math.sin(angle)));
    const w = sub(o, e), b = dot(w, dir), disc = b * b - (dot(w, w) - radius * radius);
    return Math.max(this.frontAt(x, angle), disc < 0 ? 0 : -b + Math.sqrt(disc));
  }

  /**
   * Whether a closed upper margin at (`angle`, `distance`) about the lid centre hides the eye from FROM_BELOW.angle
   * below: a ray passing under it, rising backwards, meets the lower lid before it is over the lower rim. The further
   * in front of the rim the margin stands, the further below it it must come (fading at the corners, as OVERLAP.past).
   */
  private hiddenFromBelow(x: number, angle: number, distance: number): boolean {
    const rim = this.otherRimElevation.at(x), rimDistance = this.otherDistance.at(x);
    const ahead = distance * Math.cos(angle) - rimDistance * Math.cos(rim);
    const under = rimDistance * Math.sin(rim) - distance * Math.sin(angle);
    return under >= this.overlapFade(x) * Math.max(0, ahead) * Math.tan(FROM_BELOW.angle);
  }

  /** Whether the margin, closed this far, comes down to the lower rim anywhere (only then can it cut through the lower lid). */
  reachesLower(closing: number): boolean {
    if (closing <= 0) return false;
    for (const m of this.margin) if (this.elevation(m.q) - closing * m.turn <= this.otherRimElevation.at(m.x)) return true;
    return false;
  }

  /** The index of the margin point nearest head vertex `v` (with `lowered`, of those hideFromBelow brought down; -1 if none). */
  nearestMargin(v: number, lowered = false): number {
    const q = vertex(this.frame.fitted.head, v);
    let best = -1, near = Infinity;
    for (let i = 0; i < this.margin.length; i++) {
      const m = this.margin[i];
      const d = hypot3(q[0] - m.q[0], q[1] - m.q[1], q[2] - m.q[2]);
      if (d < near && (!lowered || m.level)) (best = i), (near = d);
    }
    return best;
  }

  /** These margin points turn and move out `keep` times as far as they did. */
  holdBack(points: Set<number>, keep: number): void {
    for (const i of points) {
      const m = this.margin[i];
      m.turn *= keep;
      m.out *= keep;
      m.kept *= keep;
    }
  }

  /** How many points the margin has. */
  get points(): number {
    return this.margin.length;
  }

  /**
   * Margin point `i`, if the fold check held it back and it still stops short of closing in full (hideFromBelow brought
   * it down less far from where it was held, or not at all), closes in full: whether it did.
   */
  closeInFull(i: number): boolean {
    const m = this.margin[i], held = m.level ?? m, turn = held.turn / m.kept;
    if (m.kept === 1 || m.turn >= turn) return false;
    m.ahead = { turn: m.turn, out: m.out, full: held.out / m.kept };
    m.turn = turn;
    m.out = m.ahead.full;
    return true;
  }

  /** Margin point `i`, closed in full, stands `steps` of AHEAD.step further out. */
  standOut(i: number, steps: number): void {
    const m = this.margin[i];
    m.out = m.ahead!.full + steps * AHEAD.step;
  }

  /** Margin point `i`, closed in full, goes back to where it had ended. */
  sendBack(i: number): void {
    const m = this.margin[i], a = m.ahead!;
    m.turn = a.turn;
    m.out = a.out;
    m.ahead = undefined;
  }

  /**
   * The margin points `points` (all if none are given) that hideFromBelow brought further down go back half way, all
   * the way once that is less than one of its steps: whether any did.
   */
  undoLowering(points?: Set<number>): boolean {
    let any = false;
    for (let i = 0; i < this.margin.length; i++) {
      const m = this.margin[i];
      if (!m.level || (points && !points.has(i))) continue;
      any = true;
      if (points && m.turn - m.level.turn > (2 * FROM_BELOW.step) / this.otherDistance.at(m.x)) {
        m.turn = (m.turn + m.level.turn) / 2;
        m.out = (m.out + m.level.out) / 2;
        continue;
      }
      m.turn = m.level.turn;
      m.out = m.level.out;
      m.level = undefined;
    }
    return any;
  }

  /**
   * The margin's turn, outward motion and nearest distance at (qx, qy, qz), into `motion` (0, 1, 2): every other
   * vertex moves as the margin points nearest to it do (weighted by inverse squared distance).
   */
  fromMargin(qx: number, qy: number, qz: number, motion: Float64Array): void {
    let turn = 0, outward = 0, weights = 0, nearest = Infinity;
    for (const m of this.margin) {
      const near2 = (qx - m.q[0]) ** 2 + (qy - m.q[1]) ** 2 + (qz - m.q[2]) ** 2 + 1e-9;
      const w = 1 / near2;
      nearest = Math.min(nearest, near2);
      turn += w * m.turn;
      outward += w * m.out;
      weights += w;
    }
    motion[0] = turn / weights;
    motion[1] = outward / weights;
    motion[2] = Math.sqrt(nearest);
  }
}

/**
 * Turns an eyelid about the eyeball's centre, so that it slides over the eyeball: `closing` 1
 * brings the upper lid down (or the lower lid up) to the meeting line; negative values open it
 * further. The lid's skin and the socket behind its margin follow, fading towards the brow
 * (or cheek) and deeper into the socket.
 */
export function eyelid(frame: ExpressionFrame, out: Deltas, side: Side, which: 'upper' | 'lower', closing: number): void {
  const lid = new Lid(frame, side, which);
  if (lid.overlaps && lid.reachesLower(closing)) closeWithoutFolds(frame, lid, side, closing, out.head);
  else moveLid(frame, lid, side, closing, out.head);
}

/** The share of its closing a margin point near a new crossing keeps at each step, and the most steps (0.96^80: 4 %). */
const UNFOLD = { keep: 0.96, steps: 80 };
/** The most rounds of smoothing the hidden lining's motion where it still folds after the hold-back (p12-a's left eye needed 2). */
const SMOOTHING_ROUNDS = 10;
/**
 * How far (cm) what lies behind a closed upper margin goes further up at each step of the fold check, and at most (the
 * eyeball seen from 37 degrees below, mean over the 36 fitted eyes: 0.19 % with 1 mm, 0.13 % with 2; 3 mm made crossings).
 */
const LIFT = { step: 0.04, most: 0.2 };
/**
 * A margin point closed in full after all stands further out, in steps of `step` (cm), where the head would cross
 * itself: at most `steps` of them (1 mm), else it goes back to where it had ended (closeAhead).
 */
const AHEAD = { step: 0.005, steps: 20 };
/** Crossings are looked for among the triangles this far (eye units) outside the eyeball's radius from the lid centre: the lids and their sockets. */
const FOLD_REACH = 0.4;

/**
 * Closes an upper lid into `d`, held back where it would make the head cut through itself: the margin points nearest
 * each pair of triangles that cross (and did not before) close less, a step at a time, until no new crossing is left.
 * The lid's skin, back and socket follow their margin points, so the lid stays smooth where it is held. Each step
 * places only the vertices the lid can move and tests only the pairs with a triangle that moved: a pair of still
 * triangles crosses after as it did before. Then the margin comes further down to hide the eye from below
 * (Lid.hideFromBelow), and the lowered points nearest a new crossing go back towards where they were held (undoLowering).
 * Last, on a finished frame (closeAhead), the points still held short close in full, further out where they must.
 */
function closeWithoutFolds(frame: ExpressionFrame, lid: Lid, side: Side, closing: number, d: Float32Array): void {
  const p = frame.fitted.head, { indices } = frame.template.head, c = lid.centre, { nearby } = lid;
  const reach = frame.eyeRadius + FOLD_REACH * frame.eyeUnit;
  const region: number[] = [];
  let edges = 0;
  // The triangles near the lids, in front of the eyeball's middle (the socket's lining further back cannot meet them).
  const eye = frame.eyeCentres[side], { forward } = frame;
  const near = new Uint8Array(p.length / 3);
  for (const v of nearby) {
    const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
    near[v] = hypot3(x - c[0], y - c[1], z - c[2]) < reach && (x - eye[0]) * forward[0] + (y - eye[1]) * forward[1] + (z - eye[2]) * forward[2] > 0 ? 1 : 0;
  }
  // The lids' rims and their first rings of skin and back, out to the corners (the margin closes there in full).
  for (const list of [frame.lidRims[side], frame.lidSkin[side], frame.lidBack[side]]) for (const v of list) near[v] = 1;
  const neighbours = headNeighbours(frame);
  // The socket's lining one ring further (2: looked at, not lifted), so that the check sees every triangle round a lifted
  // vertex (lifted only where it saw them all, 1.6's thin lids, which have no back, stayed open: 0.73 % from the front).
  for (const v of nearby) if (near[v] === 1 && frame.socket[v]) for (const u of neighbours[v]) if (!near[u]) near[u] = 2;
  const back = new Uint8Array(p.length / 3);
  for (const v of frame.lidBack[side]) back[v] = 1;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], e = indices[t + 2];
    if (!near[a] && !near[b] && !near[e]) continue;
    region.push(a, b, e);
    edges += hypot3(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
  }
  // The grid's cell: twice the mean edge (one edge summed per triangle, three indices each).
  const count = region.length / 3, cell = (6 * edges) / region.length;
  const at = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) at[i] = p[i] + d[i];
  const before = new Set<number>();
  forEachSelfIntersection(at, region, cell, (i, j) => before.add(i * count + j));
  const s: FoldCheck = {
    frame, lid, side, closing, d, p, region, count, cell, near, back, neighbours, at, before,
    move: new Float32Array(p.length), base: new Float32Array(p.length), moved: new Uint8Array(count),
    lift: new Float64Array(p.length / 3), locked: new Uint8Array(p.length / 3), give: new Float64Array(p.length / 3),
    smoothed: new Set<number>(), smoothing: 0,
  };
  const { move, lift } = s;
  let fresh = placeLid(s);
  for (let step = 0; fresh.length > 0 && step < UNFOLD.steps + LIFT.most / LIFT.step + (frame.thinLids ? GIVE.most / GIVE.step : 0); step++) {
    const rest = frame.thinLids ? pressDown(s, liftBehind(s, fresh)) : liftBehind(s, fresh);
    if (rest.length > 0) lid.holdBack(nearestMargins(s, rest), UNFOLD.keep);
    fresh = placeLid(s);
  }
  // What holding the margin back could not undo: the lid's back and the socket's lining behind the closed lid folding
  // on themselves, where the motion they take from the margin points by distance bends too sharply (p12-a's left eye:
  // 26 pairs left after every step). There their motion is smoothed with their neighbours', a pass more each round.
  if (fresh.length > 0) {
    // Only vertices `placeLid` resets each time (the lid's nearby ones) are smoothed.
    const inNearby = new Uint8Array(p.length / 3);
    for (const v of nearby) inNearby[v] = 1;
    for (let round = 0; fresh.length > 0 && round < SMOOTHING_ROUNDS; round++) {
      for (const t of fresh) for (let k = 0; k < 3; k++) {
        const v = region[3 * t + k];
        if (!hiddenBehind(s, inNearby, v) || !movedFromBase(s, v)) continue;
        s.smoothed.add(v);
        for (const u of neighbours[v]) if (hiddenBehind(s, inNearby, u)) s.smoothed.add(u);
      }
      s.smoothing++;
      fresh = placeLid(s);
    }
  }
  // Then further down to hide the eye from below, where that makes no new crossing: the lowered points nearest one go
  // back (the nearest of all was often one not lowered, and then every point went back: p10-a's and p07-a's left
  // eyes kept none of it), so the lid ends no less closed than held back, and folds no more.
  if (lid.hideFromBelow()) {
    settle(s, fresh);
    const held = lift.slice();
    fresh = placeLid(s);
    while (fresh.length > 0) {
      const rest = liftBehind(s, fresh, held);
      if (rest.length === fresh.length && !lid.undoLowering(nearestMargins(s, rest, true)) && !lid.undoLowering()) {
        // Nothing lifted and nothing lowered left to send back: the lift as held, where the lid made no new crossing.
        lift.set(held);
        fresh = placeLid(s);
        break;
      }
      fresh = placeLid(s);
    }
  }
  // Held back, a margin point stops short of the lower lid and leaves a slit seen from the front (p12-a's right eye near
  // the nose, where the upper lid's back strip, running slantwise from the margin to its back ring, passes under the
  // steeply rising lower rim): further out, the strip passes over the rim. Each point still short closes in full, as
  // little further out as makes no new crossing. After the lowering: closed so before it, the points stood further out
  // where the lowering left them or sent them back, and more of the eye showed from below (1.6's p01-a right eye 0.80 ->
  // 1.33 % from 37 degrees).
  if (frame.finished) {
    settle(s, fresh);
    for (let i = 0; i < lid.points; i++) if (lid.closeInFull(i)) closeAhead(s, i);
  }
  for (const v of nearby) for (let k = 3 * v; k < 3 * v + 3; k++) d[k] += move[k];
}

/**
 * closeWithoutFolds' state, which the module functions below read and write. As closures made on each call, they were
 * built into its code compiled on stack as constants that died with the avatar: that code was thrown away ("weak
 * objects") and compiled again on every one, some 100-150 ms of TurboFan a job.
 */
interface FoldCheck {
  frame: ExpressionFrame;
  lid: Lid;
  side: Side;
  closing: number;
  /** The shape's deltas so far; the head's fitted positions. */
  d: Float32Array;
  p: Float32Array;
  /** The triangles checked (three head vertex ids each), how many, and the crossing grid's cell. */
  region: number[];
  count: number;
  cell: number;
  /** Per head vertex: 1 near the lid, 2 the socket's lining a ring further; 1 on the lid's back. */
  near: Uint8Array;
  back: Uint8Array;
  neighbours: number[][];
  /** The head as placed now (p + d + move), and the pairs of region triangles that crossed before the lid moved. */
  at: Float64Array;
  before: Set<number>;
  /** The lid's motion now and as it was when a pair last crossed as before; per region triangle, whether it moved. */
  move: Float32Array;
  base: Float32Array;
  moved: Uint8Array;
  /** Per head vertex: how far what lies behind the margin is lifted, whether it lifts no more, how far the lower lid gives. */
  lift: Float64Array;
  locked: Uint8Array;
  give: Float64Array;
  /** Hidden vertices whose motion is smoothed with their neighbours', `smoothing` passes (none at first). */
  smoothed: Set<number>;
  smoothing: number;
}

/**
 * Margin point `i`, closed in full, stands the fewest AHEAD.step further out at which the head makes no new crossing, or
 * goes back to where it had ended if it crosses AHEAD.steps out; the lid is placed and settled there. The steps are found
 * by halving: one by one, placing the lid at each, the 36 eyes on 2.0 placed it 2,160 times against main's 1,092 (1,301).
 */
function closeAhead(s: FoldCheck, i: number): void {
  const { lid } = s;
  let fresh = placeLid(s);
  if (fresh.length > 0) {
    lid.standOut(i, AHEAD.steps);
    if (placeLid(s).length > 0) lid.sendBack(i);
    else {
      // It crosses `low` steps out, not `high`.
      let low = 0, high = AHEAD.steps;
      while (high - low > 1) {
        const mid = (low + high) >> 1;
        lid.standOut(i, mid);
        if (placeLid(s).length > 0) low = mid;
        else high = mid;
      }
      lid.standOut(i, high);
    }
    fresh = placeLid(s);
  }
  settle(s, fresh);
}

/** The lid as placed now is where later steps go back to: the pairs `fresh` that still cross count as crossing before. */
function settle(s: FoldCheck, fresh: number[]): void {
  for (let f = 0; f < fresh.length; f += 2) s.before.add(fresh[f] * s.count + fresh[f + 1]);
  s.base.set(s.move);
}

function movedFromBase(s: FoldCheck, v: number): boolean {
  const { move, base } = s;
  return move[3 * v] !== base[3 * v] || move[3 * v + 1] !== base[3 * v + 1] || move[3 * v + 2] !== base[3 * v + 2];
}

/**
 * Places the lid as its margin points are now, into `move` and `at`: the pairs that cross anew, among those with a
 * triangle that moved from `base` (a pair of triangles both where they were in `base` crosses as it did there).
 */
function placeLid(s: FoldCheck): number[] {
  const { lid, move, at, p, d, region, count, moved, before } = s;
  const { nearby } = lid;
  for (const v of nearby) move[3 * v] = move[3 * v + 1] = move[3 * v + 2] = 0;
  moveLid(s.frame, lid, s.side, s.closing, move, s.lift, s.give);
  smoothMotion(move, s.smoothed, s.smoothing, s.neighbours);
  for (const v of nearby) for (let k = 3 * v; k < 3 * v + 3; k++) at[k] = p[k] + d[k] + move[k];
  for (let t = 0; t < count; t++) {
    moved[t] = 0;
    for (let k = 0; k < 3; k++) if (movedFromBase(s, region[3 * t + k])) moved[t] = 1;
  }
  const fresh: number[] = [];
  const crossing = new CrossingTest(at, region);
  const candidates = overlappingPairsWith(triangleBoxes(at, 3, region), 3, s.cell, moved);
  for (let c = 0; c < candidates.length; c += 2) {
    const i = candidates[c], j = candidates[c + 1];
    if (!before.has(i * count + j) && crossing.cuts(i, j)) fresh.push(i, j);
  }
  return fresh;
}

/** The margin points (`lowered`: of those brought down) nearest the moved vertices of the crossing triangles `fresh`. */
function nearestMargins(s: FoldCheck, fresh: number[], lowered = false): Set<number> {
  const points = new Set<number>();
  for (const t of fresh) for (let k = 0; k < 3; k++) {
    const v = s.region[3 * t + k];
    if (movedFromBase(s, v)) points.add(s.lid.nearestMargin(v, lowered));
  }
  points.delete(-1);
  return points;
}

/** What lies behind the closed margin and moves with it: the lid's back, the socket's lining near it; not locked, moved. */
function liftable(s: FoldCheck, v: number): boolean {
  const { move } = s;
  return (s.back[v] === 1 || (s.frame.socket[v] === 1 && s.near[v] === 1)) && !s.locked[v] && (move[3 * v] !== 0 || move[3 * v + 1] !== 0 || move[3 * v + 2] !== 0);
}

/**
 * What lies behind the closed margin (liftable) is hidden: it goes further up out of the lower lid's way (LIFT.step at a
 * time) before the margin is held back or its lowering undone. A vertex lifted LIFT.most and still crossing goes back
 * to `floor` (where it was held) and lifts no more: the lift was the fold. Returns the pairs the lift cannot help.
 */
function liftBehind(s: FoldCheck, fresh: number[], floor?: Float64Array): number[] {
  const { region, lift } = s;
  const rest: number[] = [], up = new Set<number>(), down = new Set<number>();
  for (let f = 0; f < fresh.length; f += 2) {
    let any = false;
    for (const t of [fresh[f], fresh[f + 1]]) for (let k = 0; k < 3; k++) {
      const v = region[3 * t + k];
      if (liftable(s, v) && lift[v] < LIFT.most) (any = true), up.add(v);
    }
    if (!any) for (const t of [fresh[f], fresh[f + 1]]) for (let k = 0; k < 3; k++) {
      const v = region[3 * t + k];
      if (lift[v] > (floor ? floor[v] : 0)) (any = true), down.add(v);
    }
    if (!any) rest.push(fresh[f], fresh[f + 1]);
  }
  for (const v of up) lift[v] += LIFT.step;
  // Their liftable neighbours too, so the lining does not fold about a lifted vertex.
  for (const v of up) for (const u of s.neighbours[v]) if (!up.has(u) && liftable(s, u)) lift[u] = Math.min(LIFT.most, lift[u] + LIFT.step);
  for (const v of down) (lift[v] = floor ? floor[v] : 0), (s.locked[v] = 1);
  return rest;
}

/**
 * The lower lid's rim and skin in a crossing pair are pressed down a step further (GIVE), up to GIVE.most; returns the
 * pairs with none left to press (thin lids only, see GIVE).
 */
function pressDown(s: FoldCheck, pairs: number[]): number[] {
  const { region, give } = s;
  const rest: number[] = [], pressed = new Set<number>();
  for (let f = 0; f < pairs.length; f += 2) {
    let any = false;
    for (const t of [pairs[f], pairs[f + 1]]) for (let k = 0; k < 3; k++) {
      const v = region[3 * t + k];
      if (s.lid.otherLid[v] && give[v] < GIVE.most) (any = true), pressed.add(v);
    }
    if (!any) rest.push(pairs[f], pairs[f + 1]);
  }
  for (const v of pressed) give[v] = Math.min(GIVE.most, give[v] + GIVE.step);
  return rest;
}

/** A vertex the lid's motion reaches (`inNearby`) on the lid's back or the socket's lining: hidden behind the closed lid. */
function hiddenBehind(s: FoldCheck, inNearby: Uint8Array, v: number): boolean {
  return inNearby[v] === 1 && (s.back[v] === 1 || s.frame.socket[v] === 1);
}

/** Replaces the motion of each vertex in `vertices` by the mean of its own and its neighbours', `passes` times (in place, in order). */
function smoothMotion(move: Float32Array, vertices: Set<number>, passes: number, neighbours: number[][]): void {
  for (let pass = 0; pass < passes; pass++) for (const v of vertices) {
    let x = move[3 * v], y = move[3 * v + 1], z = move[3 * v + 2];
    for (const u of neighbours[v]) (x += move[3 * u]), (y += move[3 * u + 1]), (z += move[3 * u + 2]);
    const n = neighbours[v].length + 1;
    move[3 * v] = x / n;
    move[3 * v + 1] = y / n;
    move[3 * v + 2] = z / n;
  }
}

/** The head's vertex neighbours, found once per template (they depend on its topology alone). */
function headNeighbours(frame: ExpressionFrame): number[][] {
  let out = neighbourCache.get(frame.template);
  if (!out) {
    out = vertexNeighbours(frame.template.head.positions.length / 3, frame.template.head.indices);
    neighbourCache.set(frame.template, out);
  }
  return out;
}
const neighbourCache = new WeakMap<ExpressionFrame['template'], number[][]>();

/** How much of a lid's motion reaches a vertex this far (cm) from its centre: all of it out to the eyeball and half an eye unit, none 0.8 further. */
function lidNear(frame: ExpressionFrame, distance: number): number {
  return 1 - smoothstep((distance - (frame.eyeRadius + 0.5 * frame.eyeUnit)) / (0.8 * frame.eyeUnit));
}

/** How much of its margin's push in or out a lid vertex `distance` cm from the margin takes (PUSH). */
function pushShare(frame: ExpressionFrame, back: boolean, which: 'upper' | 'lower', distance: number): number {
  if (back && which === 'upper') return 1;
  return 1 - smoothstep(distance / ((back ? PUSH.lowerBack : PUSH.reach) * frame.eyeUnit));
}

/** Turns the lid (and moves it in or out) by `closing` into `d`; what lies behind a closing upper margin goes `lift` (cm, per head vertex) further up. */
function moveLid(frame: ExpressionFrame, lid: Lid, side: Side, closing: number, d: Float32Array, lift?: Float64Array, give?: Float64Array): void {
  const { centre, upper, lower, widest, which } = lid;
  const { left } = frame;
  const sign = which === 'upper' ? 1 : -1;
  const back = new Set(frame.lidBack[side]);
  const p = frame.fitted.head;
  // Per vertex, with no array (thousands of vertices, a dozen lids per avatar): the margin's motion, the turned point, the moved one.
  const motion = new Float64Array(3), turned = new Float64Array(3), moved = new Float64Array(3);
  // A closing upper lid places its rim first, then what lies behind it (below).
  const closingOver = lid.overlaps && closing > 0, rim = new Set(lid.rim);
  const behind: number[] = [], behindAt: number[] = [], closedRim: ProfilePoint[] = [], closedRimDistance: ProfilePoint[] = [];
  for (const v of lid.nearby) {
    const rx = p[3 * v] - centre[0], ry = p[3 * v + 1] - centre[1], rz = p[3 * v + 2] - centre[2];
    const near = lidNear(frame, Math.sqrt(rx * rx + ry * ry + rz * rz));
    const qx = p[3 * v], qy = p[3 * v + 1], qz = p[3 * v + 2];
    const x = qx * left[0] + qy * left[1] + qz * left[2];
    const gap = upper.at(x) - lower.at(x);
    if (gap <= 1e-6) continue;
    // Across the opening (socket points near the corners) the weight ramps from the other lid's
    // margin to this one's; past this margin the lid's skin and socket fade out.
    const across = which === 'upper' ? (lid.elevationAt(qx, qy, qz) - lower.at(x)) / gap : (upper.at(x) - lid.elevationAt(qx, qy, qz)) / gap;
    if (across <= 0) continue;
    // The lining of the socket behind the lid slides along with it, fading far round the back.
    const lining = frame.socket[v] && !back.has(v);
    const fade = lining ? SOCKET_FADE : SKIN_FADE, start = fade[0], span = fade[1];
    // Near the corners, where the opening tapers away, everything stays put; the socket over a
    // wider stretch, as its small triangles there fold first.
    const marginCorner = closingOver && rim.has(v);
    // A closing margin's point fades by its own opening: the refined points near a corner lie well off the landmarks' contour.
    const opening = marginCorner ? Math.max(gap, lid.elevationAt(qx, qy, qz) - lower.at(x)) : gap;
    const corner = smoothstep(opening / ((lining ? CORNER.socket : marginCorner ? CORNER.margin : CORNER.skin) * widest));
    // The lid's back (its thickness behind the margin) moves as the margin does: the lid does not fold over it.
    // A closing margin's own points close in full out to the corners (far from the lid centre, faded by `near`, they
    // left a wedge of eyeball seen from the front); the fold check holds them back where they would cut the lower lid.
    const w = corner * (marginCorner ? 1 : near * (back.has(v) || across <= 1 ? smoothstep(Math.min(1, across)) : 1 - smoothstep((((across - 1) * gap) / widest - start) / span)));
    if (w === 0) continue;
    // Never more than the opening at this place allows.
    lid.fromMargin(qx, qy, qz, motion);
    // (A closing upper margin's own points turn as far as they need: see Lid.overlapMeets.)
    const turn = closingOver && rim.has(v) ? motion[0] : Math.min(motion[0], gap + lid.past(x));
    rotateAbout(qx, qy, qz, centre, left, sign * closing * turn * w, turned);
    // Only closing moves the lid in or out (opening wider only turns it), and only its skin near the
    // margin, away from the corners: the socket's lining behind it is already close to the eyeball.
    const radialX = turned[0] - centre[0], radialY = turned[1] - centre[1], radialZ = turned[2] - centre[2];
    const sideways = radialX * left[0] + radialY * left[1] + radialZ * left[2];
    const alongX = radialX - sideways * left[0], alongY = radialY - sideways * left[1], alongZ = radialZ - sideways * left[2];
    const length = hypot3(alongX, alongY, alongZ) || 1;
    const push = lining ? 0 : Math.max(0, closing) * motion[1] * w * pushShare(frame, back.has(v), which, motion[2]) * smoothstep(opening / ((marginCorner ? CORNER.margin : PUSH.corner) * widest));
    clearOf(turned[0] + (push * alongX) / length, turned[1] + (push * alongY) / length, turned[2] + (push * alongZ) / length, frame.eyeCentres[side], frame.eyeRadius + EYE_CLEARANCE, moved);
    if (closingOver && (back.has(v) || frame.socket[v])) {
      behind.push(v);
      behindAt.push(moved[0], moved[1], moved[2]);
      continue;
    }
    if (closingOver && rim.has(v)) closedRim.push({ x, y: lid.elevationAt(moved[0], moved[1], moved[2]) }), closedRimDistance.push({ x, y: lid.distanceAt(moved[0], moved[1], moved[2]) });
    d[3 * v] += moved[0] - qx;
    d[3 * v + 1] += moved[1] - qy;
    d[3 * v + 2] += moved[2] - qz;
  }
  if (!closingOver) return;
  // What lies behind the closing upper margin (2.0's lid back, the socket's lining) stays above the lower lid: above
  // the line from the closed margin over the lower margin, so the strip between them does not cut through the lower lid.
  const marginElevation = profileOf(closedRim), marginDistance = profileOf(closedRimDistance);
  const eye = frame.eyeCentres[side], { forward } = frame;
  for (let i = 0; i < behind.length; i++) {
    const v = behind[i], qx = p[3 * v], qy = p[3 * v + 1], qz = p[3 * v + 2];
    let mx = behindAt[3 * i], my = behindAt[3 * i + 1], mz = behindAt[3 * i + 2];
    const x = qx * left[0] + qy * left[1] + qz * left[2];
    // Only what lies in front of the eyeball's middle can meet the lower lid. Behind it a lining point's elevation about
    // the lid centre wraps round, and raising it swung it round the eyeball to the front (p12-a's right socket, 1.5 cm).
    const inFront = (qx - eye[0]) * forward[0] + (qy - eye[1]) * forward[1] + (qz - eye[2]) * forward[2] > 0;
    const need = Math.min(lid.elevationAt(qx, qy, qz), lid.above(x, lid.distanceAt(mx, my, mz), profileAt(marginElevation, x), profileAt(marginDistance, x)));
    const raise = Math.max(0, need - lid.elevationAt(mx, my, mz)) + (lift ? lift[v] / lid.distanceAt(mx, my, mz) : 0);
    if (inFront && raise > 0) {
      rotateAbout(mx, my, mz, centre, left, -raise, turned);
      clearOf(turned[0], turned[1], turned[2], frame.eyeCentres[side], frame.eyeRadius + EYE_CLEARANCE, moved);
      mx = moved[0]; my = moved[1]; mz = moved[2];
    }
    d[3 * v] += mx - qx;
    d[3 * v + 1] += my - qy;
    d[3 * v + 2] += mz - qz;
  }
  if (give) pressLower(frame, lid, give, marginElevation, closing, d);
}

/**
 * The lower lid's vertices the closing upper lid presses (`give`, radians per head vertex) turned down about the lid
 * centre, into `d`: by `closing` times their give, and never below GIVE.clearance over the closed margin `margin`.
 */
function pressLower(frame: ExpressionFrame, lid: Lid, give: Float64Array, margin: Profile, closing: number, d: Float32Array): void {
  const p = frame.fitted.head, { left } = frame, turned = new Float64Array(3);
  for (const v of lid.nearby) {
    if (give[v] === 0) continue;
    const qx = p[3 * v], qy = p[3 * v + 1], qz = p[3 * v + 2];
    const x = qx * left[0] + qy * left[1] + qz * left[2];
    const room = lid.elevationAt(qx, qy, qz) - profileAt(margin, x) - GIVE.clearance / lid.distanceAt(qx, qy, qz);
    const turn = Math.min(closing * give[v], room);
    if (turn <= 0) continue;
    rotateAbout(qx, qy, qz, lid.centre, left, turn, turned);
    d[3 * v] += turned[0] - qx;
    d[3 * v + 1] += turned[1] - qy;
    d[3 * v + 2] += turned[2] - qz;
  }
}

/** How far along the ray from `o` in the unit direction `dir` it meets the triangle (a, b, c), or -Infinity. */
function rayHit(o: Vec3, dir: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const hit = rayTriangle(o, dir, a, b, c);
  return hit && hit.u >= 0 && hit.u <= 1 && hit.v >= 0 && hit.u + hit.v <= 1 ? hit.t : -Infinity;
}

/** Turns an eyeball about its centre: `yaw` towards the subject's left, `pitch` up (radians). */
export function eyeball(frame: ExpressionFrame, out: Deltas, side: Side, yaw: number, pitch: number): void {
  const mesh = side === 'left' ? 'eyeLeft' : 'eyeRight';
  const centre = frame.eyeCentres[side];
  // Yaw about up (positive swings the front towards +left), then pitch about left (negative lifts the front).
  const p = fittedPositions(frame, mesh), d = out[mesh];
  const yawed = new Float64Array(3), turned = new Float64Array(3);
  for (let v = 0; v < p.length / 3; v++) {
    rotateAbout(p[3 * v], p[3 * v + 1], p[3 * v + 2], centre, frame.up, yaw, yawed);
    rotateAbout(yawed[0], yawed[1], yawed[2], centre, frame.left, -pitch, turned);
    for (let k = 0; k < 3; k++) d[3 * v + k] += turned[k] - p[3 * v + k];
  }
}

/**
 * A mask for brushes near the eyes (brows, cheeks): the eyelids and sockets stay with the
 * eyeballs, the skin further out moves freely. Per head vertex, made once per frame.
 */
export function awayFromEyes(frame: ExpressionFrame): Float64Array {
  let mask = awayFromEyesMasks.get(frame);
  if (!mask) {
    const p = frame.fitted.head, { left, right } = frame.eyeCentres;
    mask = new Float64Array(p.length / 3);
    for (let v = 0; v < mask.length; v++) {
      if (frame.socket[v]) continue;
      const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
      const nearest = Math.min(hypot3(x - left[0], y - left[1], z - left[2]), hypot3(x - right[0], y - right[1], z - right[2]));
      mask[v] = smoothstep((nearest - frame.eyeRadius - 0.3 * frame.eyeUnit) / (0.8 * frame.eyeUnit));
    }
    awayFromEyesMasks.set(frame, mask);
  }
  return mask;
}
const awayFromEyesMasks = new WeakMap<ExpressionFrame, Float64Array>();

/** A point a fraction of the way between two fitted head vertices. */
export function between(frame: ExpressionFrame, a: number, b: number, t: number): Vec3 {
  return lerp(vertex(frame.fitted.head, a), vertex(frame.fitted.head, b), t);
}

/** The front teeth's middle (this far either side of the centre line, cm) holds the incisors' edges. */
const INCISORS_HALF_WIDTH = 0.5;

/**
 * The incisors' biting edges (the upper row's lowest, the lower row's highest point) and the lower incisors'
 * front, as `out` has moved them, measured from the jaw's pivot along the frame's up and forward.
 */
export function incisorEdges(frame: ExpressionFrame, out: Deltas): { upperEdge: number; lowerEdge: number; lowerFront: number } {
  const teeth = frame.fitted.parts.teeth;
  const lower = new Set(frame.template.lowerTeeth);
  let upperEdge = Infinity, lowerEdge = -Infinity, lowerFront = -Infinity;
  for (let v = 0; v < teeth.length / 3; v++) {
    const q = sub(add(vertex(teeth, v), vertex(out.teeth, v)), frame.jawPivot);
    if (Math.abs(dot(q, frame.left)) > INCISORS_HALF_WIDTH) continue;
    const up = dot(q, frame.up);
    if (lower.has(v)) {
      lowerEdge = Math.max(lowerEdge, up);
      lowerFront = Math.max(lowerFront, dot(q, frame.forward));
    } else upperEdge = Math.min(upperEdge, up);
  }
  return { upperEdge, lowerEdge, lowerFront };
}
