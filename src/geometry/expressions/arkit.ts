import type { Vec3 } from '../../model/avatar.ts';
import { add, dot, hypot3, scale, sub, vertex } from '../mesh/vec.ts';
import { along, fittedPositions, zeroDeltas, type Deltas, type ExpressionFrame } from './frame.ts';
import { awayFromEyes, between, brush, ContourProfile, eyeball, eyelid, incisorEdges, rotate, smoothstep, translate, upperAndLower, type Side } from './primitives.ts';

/** The 52 ARKit blendshapes, in Apple's order; Left and Right are the subject's own sides (+X is left). */
export const ARKIT_NAMES = [
  'eyeBlinkLeft', 'eyeLookDownLeft', 'eyeLookInLeft', 'eyeLookOutLeft', 'eyeLookUpLeft', 'eyeSquintLeft', 'eyeWideLeft',
  'eyeBlinkRight', 'eyeLookDownRight', 'eyeLookInRight', 'eyeLookOutRight', 'eyeLookUpRight', 'eyeSquintRight', 'eyeWideRight',
  'jawForward', 'jawLeft', 'jawRight', 'jawOpen',
  'mouthClose', 'mouthFunnel', 'mouthPucker', 'mouthLeft', 'mouthRight', 'mouthSmileLeft', 'mouthSmileRight',
  'mouthFrownLeft', 'mouthFrownRight', 'mouthDimpleLeft', 'mouthDimpleRight', 'mouthStretchLeft', 'mouthStretchRight',
  'mouthRollLower', 'mouthRollUpper', 'mouthShrugLower', 'mouthShrugUpper', 'mouthPressLeft', 'mouthPressRight',
  'mouthLowerDownLeft', 'mouthLowerDownRight', 'mouthUpperUpLeft', 'mouthUpperUpRight',
  'browDownLeft', 'browDownRight', 'browInnerUp', 'browOuterUpLeft', 'browOuterUpRight',
  'cheekPuff', 'cheekSquintLeft', 'cheekSquintRight', 'noseSneerLeft', 'noseSneerRight', 'tongueOut',
] as const;
export type ArkitName = (typeof ARKIT_NAMES)[number];

const deg = Math.PI / 180;
/** Full jaw opening of jawOpen; the rig keeps a clean mesh up to 20 degrees. */
export const JAW_OPEN = 20 * deg;
/**
 * Eye turns at weight 1, within the eye's comfortable range (about 45 degrees sideways, 30 up and 50 down
 * at its limits): the eye turns further down than up, and 22 degrees down left the iris moving less than
 * the landmark detector's noise on lids that cover its top.
 */
const EYE_YAW = 22 * deg, EYE_UP = 22 * deg, EYE_DOWN = 30 * deg;
/** The jaw's drop for tongueOut: at 12 degrees the 2.0 tongue grazed the lower incisors' edges on its way out. */
const TONGUE_OUT_JAW = 14 * deg;
/** Clearance (cm) between the stuck-out tongue's underside and the lower incisors' edges it rests on. */
const TONGUE_OVER_TEETH = 0.05;
/** Sideways jaw travel in mouth units: more shears the lip corners into the mouth bag. */
const JAW_SIDEWAYS = 0.2;

/** Canonical landmarks the shapes are anchored to (subject's right, left). */
const MOUTH_CORNER = { right: 61, left: 291 };
const UPPER_LIP = { outer: 0, inner: 13 };
const LOWER_LIP = { outer: 17, inner: 14 };
const NOSE_WING = { right: 129, left: 358 };
const CHEEK = { right: 205, left: 425 };
const BROW_INNER = { right: 55, left: 285 };
const BROW_OUTER = { right: 70, left: 300 };
const LOWER_LID_MIDDLE = { right: 145, left: 374 };
const CHIN = 152;

const towards = (s: Side) => (s === 'left' ? 1 : -1);

/** Motions shared by several shapes. */
export const motions = {
  /** The jaw (with lower lip, chin, lower teeth and tongue) turned open about the fitted hinge. */
  jaw(frame: ExpressionFrame, out: Deltas, angle: number, skin = (v: number) => frame.jaw[v]): void {
    const lower = new Set(frame.template.lowerTeeth);
    rotate(frame, out, 'head', frame.jawPivot, frame.left, angle, skin);
    rotate(frame, out, 'teeth', frame.jawPivot, frame.left, angle, (v) => (lower.has(v) ? 1 : 0));
    rotate(frame, out, 'tongue', frame.jawPivot, frame.left, angle);
  },
  /**
   * The jaw raised by the angle that lifts the lower lip's centre `share` of this face's rest gap
   * between the lips. Across the mouth the lips go with it in proportion to the rest gap there (at
   * the corners, where they already meet, they stay). A face photographed with its mouth open has its
   * jaw down too: lips closed under a lowered jaw, the lower lip stretched up rather than lifted,
   * still read as a parted mouth (to the landmark detector too).
   */
  jawUp(frame: ExpressionFrame, out: Deltas, share: number): void {
    const lower = vertex(frame.fitted.head, LOWER_LIP.inner);
    const gap = dot(sub(vertex(frame.fitted.head, UPPER_LIP.inner), lower), frame.up);
    // The lower lip turns with the jaw by its jaw weight, at its distance ahead of the hinge.
    const reach = dot(sub(lower, frame.jawPivot), frame.forward) * frame.jaw[LOWER_LIP.inner];
    if (gap <= 0 || reach <= 0) return;
    const { distance } = lipZone(frame), u = frame.mouthUnit, rest = neutralLipGap(frame);
    const lips = (v: number) => Math.min(1, Math.max(0, rest.at(dot(vertex(frame.fitted.head, v), frame.left)) / gap));
    motions.jaw(frame, out, -Math.asin(Math.min(1, (share * gap) / reach)), (v) => {
      const away = smoothstep((distance[v] - u) / u);
      return frame.jaw[v] * (away === 1 ? 1 : away + (1 - away) * lips(v));
    });
  },
  /** The jaw moved bodily (forward or sideways). */
  jawShift(frame: ExpressionFrame, out: Deltas, displacement: Vec3): void {
    const lower = new Set(frame.template.lowerTeeth);
    // At the mouth corners the lips meet: the lower lip slides less there, so they do not shear.
    const p = frame.fitted.head;
    const [a, b] = [MOUTH_CORNER.left, MOUTH_CORNER.right].map((v) => vertex(p, v));
    const reach = frame.mouthUnit;
    translate(frame, out, 'head', displacement, (v) => {
      const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
      const near = Math.min(hypot3(x - a[0], y - a[1], z - a[2]), hypot3(x - b[0], y - b[1], z - b[2]));
      return frame.jaw[v] * (near >= reach ? 1 : 0.2 + 0.8 * smoothstep(near / reach));
    });
    translate(frame, out, 'teeth', displacement, (v) => (lower.has(v) ? 1 : 0));
    translate(frame, out, 'tongue', displacement);
  },
  /**
   * Lips towards each other by `fraction` of this mouth's own gap at each point along it (1 closes
   * it down to the clearance `lips.clear`), the upper lip carrying `upperShare` of the motion;
   * `lips.side` weights the closing towards one side (the two sides' weights sum to 1).
   */
  lipsTogether(frame: ExpressionFrame, out: Deltas, fraction: number, upperShare: number, lips: { side?: Side; clear?: number; most?: number } = {}): void {
    const gap = neutralLipGap(frame);
    const clear = (lips.clear ?? LIPS_CLEAR) * frame.mouthUnit;
    const { side } = lips;
    const centre = dot(between(frame, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), frame.left);
    const sideWeight = (x: number) => (side ? Math.min(1, Math.max(0, 0.5 + (towards(side) * (x - centre)) / (2 * frame.mouthUnit))) : 1);
    // A wide-open mouth closes only part of the way: the lips do not stretch down over the whole face.
    const most = (lips.most ?? MOST_CLOSING) * frame.mouthUnit;
    moveLips(frame, out, (x) => ({ close: Math.min(most, Math.max(0, gap.at(x) - Math.max(clear, (1 - fraction) * gap.at(x)))) * sideWeight(x), upperShare }));
  },
  /**
   * Lips that meet (bilabials) meet all along: what the shape's motions (in `out`) leave of the gap
   * along the inner contour closes, half by each lip, down to LIPS_PRESSED; where the lip surfaces
   * near the contour then reach past the line where the lips meet, they flatten against it, as
   * pressed lips do (as far as the neutral face's own lips already reach past it, at the corners, they may).
   * The closing fades out over the last `cornerBand` mouth units at each corner. `atRest` seals the neutral
   * face's mouth, which is untangled afterwards: along every vertex of the contour (in 2.0 the refined ones
   * between the landmarks stood 0.3-0.6 mm apart) and in depth too. A shape, which nothing untangles, seals
   * at the landmarks alone (sealed at every vertex, viseme_PP folded the 2.0 template's lips).
   */
  sealLips(frame: ExpressionFrame, out: Deltas, cornerBand = 0.8, atRest = false): void {
    const clear = LIPS_PRESSED * frame.mouthUnit;
    const contour = atRest ? frame.lipRim : frame.template.loops.lipsInner;
    const { upper, lower } = upperAndLower(frame, contour);
    const height = (q: Vec3) => dot(q, frame.up);
    const meeting = (positions: ArrayLike<number>) => {
      const top = new ContourProfile(frame, upper, height, positions), bottom = new ContourProfile(frame, lower, height, positions);
      return { gap: (x: number) => top.at(x) - bottom.at(x), line: (x: number) => (top.at(x) + bottom.at(x)) / 2 };
    };
    const before = meeting(movedLips(frame, out.head));
    // Right at the corners the lips' inner edges meet at different depths: closing them there too folds the skin.
    const xs = contour.map((v) => dot(vertex(frame.fitted.head, v), frame.left));
    const lo = Math.min(...xs), hi = Math.max(...xs);
    const corners = (x: number) => smoothstep(Math.min(x - lo, hi - x) / (cornerBand * frame.mouthUnit));
    moveLips(frame, out, (x) => ({ close: Math.max(0, before.gap(x) - clear) * corners(x), upperShare: 0.5 }), byContour);
    if (atRest) {
      // Closed, the edges also meet in depth: an upper edge left behind the lower one (0.5-3.5 mm on the test
      // photos) opens a slit that the preview, from a little above, looks through onto the teeth. Each edge goes half way.
      const depth = (q: Vec3) => dot(q, frame.forward);
      const moved = movedLips(frame, out.head);
      const ahead = new ContourProfile(frame, lower, depth, moved), behind = new ContourProfile(frame, upper, depth, moved);
      moveLips(frame, out, (x) => ({ close: (ahead.at(x) - behind.at(x)) * corners(x), upperShare: 0.5 }), byContour, scale(frame.forward, -1));
    }
    const neutral = meeting(frame.fitted.head), after = meeting(movedLips(frame, out.head));
    const { lowerness } = lipZone(frame);
    // How far a vertex reaches past the line: up for the lower lip, down for the upper one.
    const past = (q: Vec3, line: number, side: number) => (side === 1 ? 1 : -1) * (height(q) - line) + clear;
    for (const v of lipZone(frame).surface) {
      const side = lowerness[v];
      if (side === 0.5) continue;
      const q0 = vertex(frame.fitted.head, v), q = add(q0, vertex(out.head, v));
      const x = dot(q, frame.left);
      const excess = past(q, after.line(x), side) - Math.max(0, past(q0, neutral.line(dot(q0, frame.left)), side));
      if (excess <= 0) continue;
      const move = scale(frame.up, (side === 1 ? -1 : 1) * excess);
      for (let k = 0; k < 3; k++) out.head[3 * v + k] += move[k];
    }
  },
  /**
   * Where a shape (its deltas in `out`) brings the lips closer than `clear` (mouth units), or
   * through each other, the lip that moves pushes the other one ahead of it instead; and where it
   * slides a lip down (or up) over the teeth, the lip stays in front of them.
   */
  keepLipsApart(frame: ExpressionFrame, out: Deltas, clearance = LIPS_CLEAR): void {
    keepLipsOffTeeth(frame, out);
    const moved = movedLips(frame, out.head);
    const before = neutralLipGap(frame), after = new LipGap(frame, moved);
    const clear = clearance * frame.mouthUnit;
    // Where the neutral lips are already closer (or, as read over the bulging lip surface, crossed),
    // the shape must not bring them closer still; it is not asked to part them.
    const deficit = (x: number) => Math.max(0, Math.min(clear, before.at(x)) - after.at(x));
    const { upper, lower } = upperAndLower(frame, frame.template.loops.lipsInner);
    const rise = (chain: number[]) => new ContourProfile(frame, chain, (p) => dot(p, frame.up), out.head);
    const upperRise = rise(upper), lowerRise = rise(lower);
    const xs = frame.template.loops.lipsInner.map((v) => dot(vertex(moved, v), frame.left));
    if (xs.every((x) => deficit(x) === 0)) return;
    // The lower lip rising pushes the upper one up; the upper one falling pushes the lower one down.
    moveLips(frame, out, (x) => ({ close: -deficit(x), upperShare: lowerRise.at(x) >= -upperRise.at(x) ? 1 : 0 }));
  },
};

/** Lips closer than this (in mouth units) count as closed: shapes stop there rather than press through. */
const LIPS_CLEAR = 0.06;
/** Pressed lips (mouthPress*, bilabial visemes) meet: no teeth show between them, and they still do not cross. */
export const LIPS_PRESSED = 0.005;
/** A lip moved over the teeth stays this far (mouth units) in front of them. */
const TEETH_CLEAR = 0.04;
/** Cell of the grid that holds the teeth's front (mouth units). */
const TEETH_CELL = 0.2;

/**
 * Lip vertices that a shape moves (down or up over the teeth) and that were in front of the teeth
 * stay in front of them: each is pushed forward to the teeth's front where it lands. Without this
 * the teeth show through a lip that closes a mouth photographed open.
 */
function keepLipsOffTeeth(frame: ExpressionFrame, out: Deltas): void {
  const u = frame.mouthUnit;
  const { distance } = lipZone(frame);
  const p = frame.fitted.head, d = out.head;
  let neutral: TeethFronts | undefined, moved: TeethFront | undefined;
  for (let v = 0; v < p.length / 3; v++) {
    if (distance[v] >= 2 * u || frame.mouthBag[v] || (d[3 * v] === 0 && d[3 * v + 1] === 0 && d[3 * v + 2] === 0)) continue;
    // A lip over no teeth (above them, or across the gap of an open mouth) is free to move there;
    // where it lands on them, it lands in front of them (each teeth vertex standing for the cells
    // around it: they are sparse).
    neutral ??= teethFronts(frame);
    moved ??= anyNonZero(out.teeth) ? new TeethFront(frame, vertexSum(fittedPositions(frame, 'teeth'), out.teeth), 1) : neutral.spread;
    const q = vertex(p, v);
    if (dot(q, frame.forward) < neutral.exact.at(q)) continue;
    const m = add(q, vertex(d, v));
    const behind = moved.at(m) + TEETH_CLEAR * u - dot(m, frame.forward);
    if (behind > 0) for (let k = 0; k < 3; k++) d[3 * v + k] += frame.forward[k] * behind;
  }
}

/** Whether any of the numbers is not 0 (a loop: TypedArray#some boxes every element for its callback). */
function anyNonZero(xs: Float32Array): boolean {
  for (let i = 0; i < xs.length; i++) if (xs[i] !== 0) return true;
  return false;
}

/** How far forward the neutral teeth reach at a place of the face plane: in its cell (`exact`), or in it and the cells around it (`spread`). */
interface TeethFronts {
  exact: TeethFront;
  spread: TeethFront;
}
const teethFrontCache = new WeakMap<ExpressionFrame, TeethFronts>();

function teethFronts(frame: ExpressionFrame): TeethFronts {
  let fronts = teethFrontCache.get(frame);
  if (!fronts) {
    const teeth = fittedPositions(frame, 'teeth');
    fronts = { exact: new TeethFront(frame, teeth, 0), spread: new TeethFront(frame, teeth, 1) };
    teethFrontCache.set(frame, fronts);
  }
  return fronts;
}

/**
 * The teeth's front over the face plane, each vertex standing for the cells up to `reach` around its own.
 * An object with a method, not a closure: it is made per avatar, and code that inlined a closure was thrown away with it.
 */
class TeethFront {
  /** Cell key to its slot in `front` (a number stored in a Map is an allocation; a slot is not). */
  private readonly slot = new Map<number, number>();
  private readonly front: Float64Array;
  private readonly size: number;

  constructor(
    private readonly frame: ExpressionFrame,
    teeth: ArrayLike<number>,
    reach: number,
  ) {
    this.size = TEETH_CELL * frame.mouthUnit;
    this.front = new Float64Array((teeth.length / 3) * (2 * reach + 1) ** 2).fill(-Infinity);
    for (let v = 0; v < teeth.length / 3; v++) {
      const q = vertex(teeth, v), k = this.key(q), z = dot(q, frame.forward);
      for (let di = -reach; di <= reach; di++) {
        for (let dj = -reach; dj <= reach; dj++) {
          const c = k + di * 65536 + dj;
          let i = this.slot.get(c);
          if (i === undefined) this.slot.set(c, (i = this.slot.size));
          this.front[i] = Math.max(this.front[i], z);
        }
      }
    }
  }

  /** How far forward the teeth reach at `p`'s cell. */
  at(p: Vec3): number {
    const i = this.slot.get(this.key(p));
    return i === undefined ? -Infinity : this.front[i];
  }

  /** Cells are keyed by one number: the face is far fewer than 2^16 cells across. */
  private key(p: Vec3): number {
    return Math.floor(dot(p, this.frame.left) / this.size) * 65536 + Math.floor(dot(p, this.frame.up) / this.size);
  }
}

/**
 * The head moved by `deltas` where the lip gap is read (the inner lip contour and the lip surface
 * near it); every other vertex of the returned array is stale. One buffer per frame: the shapes
 * read it one at a time, and copying the whole head for each cost more than the rest of the check.
 */
function movedLips(frame: ExpressionFrame, deltas: Float32Array): Float32Array {
  let scratch = lipScratch.get(frame);
  if (!scratch) lipScratch.set(frame, (scratch = new Float32Array(frame.fitted.head.length)));
  const p = frame.fitted.head;
  for (const v of [...frame.lipRim, ...lipZone(frame).surface]) {
    for (let k = 3 * v; k < 3 * v + 3; k++) scratch[k] = p[k] + deltas[k];
  }
  return scratch;
}
const lipScratch = new WeakMap<ExpressionFrame, Float32Array>();

const vertexSum = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  const sum = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) sum[i] = a[i] + b[i];
  return sum;
};

/** The most the lips close (in mouth units). */
const MOST_CLOSING = 0.6;

/**
 * The vertical gap between the lips at each place across the mouth (negative where they cross):
 * the lowest point of the upper lip above the highest point of the lower lip, over the lip
 * surface near the inner contour (the lips bulge, so the contour alone can overstate the gap).
 * An object with a method, not a closure, as TeethFront.
 */
class LipGap {
  private readonly lo: number;
  private readonly width: number;
  private readonly gaps: number[];
  private readonly top: ContourProfile;
  private readonly bottom: ContourProfile;

  constructor(frame: ExpressionFrame, positions: ArrayLike<number>) {
    const contour = frame.template.loops.lipsInner;
    const xs = contour.map((v) => dot(vertex(positions, v), frame.left));
    const lo = Math.min(...xs), hi = Math.max(...xs);
    const width = (hi - lo) / GAP_BINS;
    const top = new Array<number>(GAP_BINS).fill(Infinity), bottom = new Array<number>(GAP_BINS).fill(-Infinity);
    for (const v of lipZone(frame).surface) {
      const q = vertex(positions, v);
      const bin = Math.floor((dot(q, frame.left) - lo) / width);
      if (bin < 0 || bin >= GAP_BINS) continue;
      const y = dot(q, frame.up);
      if (frame.jaw[v] < 0.5) top[bin] = Math.min(top[bin], y);
      else bottom[bin] = Math.max(bottom[bin], y);
    }
    this.lo = lo;
    this.width = width;
    this.gaps = top.map((t, i) => (Number.isFinite(t) && Number.isFinite(bottom[i]) ? t - bottom[i] : Infinity));
    const { upper, lower } = upperAndLower(frame, contour);
    const height = (q: Vec3) => dot(q, frame.up);
    this.top = new ContourProfile(frame, upper, height, positions);
    this.bottom = new ContourProfile(frame, lower, height, positions);
  }

  /** The gap at `x` across the face. */
  at(x: number): number {
    return Math.min(this.top.at(x) - this.bottom.at(x), this.gaps[Math.min(GAP_BINS - 1, Math.max(0, Math.floor((x - this.lo) / this.width)))]);
  }
}
const GAP_BINS = 16;
const neutralGaps = new WeakMap<ExpressionFrame, LipGap>();
/** The neutral face's lip gap, read once per frame. */
function neutralLipGap(frame: ExpressionFrame): LipGap {
  let gap = neutralGaps.get(frame);
  if (!gap) neutralGaps.set(frame, (gap = new LipGap(frame, frame.fitted.head)));
  return gap;
}

/**
 * Moves the lips vertically (or along `direction`), `close` in total towards each other (negative: apart) at each place
 * across the mouth, the upper lip taking `upperShare` of it; the motion fades away from the lip
 * contour, over the skin around it and into the mouth behind it.
 */
function moveLips(frame: ExpressionFrame, out: Deltas, at: (x: number) => { close: number; upperShare: number }, lowerness = byJaw, direction = frame.up): void {
  const { distance } = lipZone(frame);
  const radius = 2 * frame.mouthUnit;
  const p = frame.fitted.head;
  for (let v = 0; v < p.length / 3; v++) {
    if (distance[v] >= radius) continue;
    const { close, upperShare } = at(dot(vertex(p, v), frame.left));
    // Whole on the lips, fading out over the skin around them and into the mouth behind them.
    const a = close * (1 - smoothstep((distance[v] / radius - 0.3) / 0.7)) * lipFront(frame, v);
    const j = lowerness(frame, v);
    const move = scale(direction, a * ((1 - j) * -upperShare + j * (1 - upperShare)));
    for (let k = 0; k < 3; k++) out.head[3 * v + k] += move[k];
  }
}

/** How much a vertex is on the lower lip (0 upper, 1 lower). */
type Lowerness = (frame: ExpressionFrame, v: number) => number;
/**
 * Its jaw weight, sharpened. Towards the corners the jaw weight changes over a wide band (the rig
 * stretches the corners rather than shearing them); as it is, the lips there would barely move and
 * the mouth would stay open at its sides (sharper folds the skin).
 */
const byJaw: Lowerness = (f, v) => smoothstep(f.jaw[v]);
/** Its nearest inner contour point's lip (both at the corners): near the corners it tells the lips apart where the jaw weight cannot. */
const byContour: Lowerness = (f, v) => lipZone(f).lowerness[v];

/**
 * Per fitted head, once: each vertex's distance to the inner lip contour and how much of a lip
 * motion it takes by its depth: all of it on the lips and in front, fading out behind the
 * nearest contour point (inside the mouth, where the other lip's inner side and the teeth are).
 */
interface LipZone {
  distance: Float32Array;
  front: Float32Array;
  /** Lip surface vertices (not the bag) near the contour: where the gap between the lips is read. */
  surface: number[];
  /** 0 nearest the upper lip's inner contour, 1 the lower's, 0.5 a corner. */
  lowerness: Float32Array;
}
const lipZones = new WeakMap<ExpressionFrame, LipZone>();

function lipZone(f: ExpressionFrame): LipZone {
  let zone = lipZones.get(f);
  if (zone) return zone;
  const loop = f.template.loops.lipsInner;
  const contour = loop.map((c) => vertex(f.fitted.head, c));
  const { upper, lower } = upperAndLower(f, loop);
  const upperInside = new Set(upper.slice(1, -1)), lowerInside = new Set(lower.slice(1, -1));
  const contourLowerness = loop.map((c) => (upperInside.has(c) ? 0 : lowerInside.has(c) ? 1 : 0.5));
  const p = f.fitted.head;
  const n = p.length / 3;
  const distance = new Float32Array(n), front = new Float32Array(n), lowerness = new Float32Array(n);
  const surface: number[] = [];
  const [fx, fy, fz] = f.forward;
  for (let v = 0; v < n; v++) {
    // Unrolled (no vectors made): this runs over every vertex of the head for each frame.
    const qx = p[3 * v], qy = p[3 * v + 1], qz = p[3 * v + 2];
    let nearest = Infinity, which = 0;
    for (let i = 0; i < contour.length; i++) {
      const c = contour[i];
      const d = (c[0] - qx) ** 2 + (c[1] - qy) ** 2 + (c[2] - qz) ** 2;
      if (d < nearest) {
        nearest = d;
        which = i;
      }
    }
    const c = contour[which];
    const behind = (c[0] - qx) * fx + (c[1] - qy) * fy + (c[2] - qz) * fz;
    distance[v] = Math.sqrt(nearest);
    lowerness[v] = contourLowerness[which];
    // The mouth bag, right in front of the teeth, gives way sooner than the lips' own inner side.
    front[v] = f.mouthBag[v] ? 1 - smoothstep(behind / (0.2 * f.mouthUnit)) : 1 - smoothstep((behind - 0.1 * f.mouthUnit) / (0.3 * f.mouthUnit));
    if (!f.mouthBag[v] && distance[v] < 0.5 * f.mouthUnit) surface.push(v);
  }
  zone = { distance, front, surface, lowerness };
  lipZones.set(f, zone);
  return zone;
}

const lipFront = (f: ExpressionFrame, v: number) => lipZone(f).front[v];

type Recipe = (frame: ExpressionFrame, out: Deltas) => void;

const sided = (make: (side: Side) => Recipe) => ({ Left: make('left'), Right: make('right') });

const blink = sided((s) => (f, o) => eyelid(f, o, s, 'upper', 1));
const squint = sided((s) => (f, o) => {
  eyelid(f, o, s, 'lower', 0.45);
  eyelid(f, o, s, 'upper', 0.1);
});
const wide = sided((s) => (f, o) => eyelid(f, o, s, 'upper', -0.35));
/** Looking down or up the upper lid follows the eye a little (more, and its lashes hide the iris's own motion). */
const look = (dir: 'Down' | 'Up' | 'In' | 'Out') =>
  sided((s) => (f, o) => {
    if (dir === 'Down' || dir === 'Up') {
      eyeball(f, o, s, 0, dir === 'Up' ? EYE_UP : -EYE_DOWN);
      eyelid(f, o, s, 'upper', dir === 'Up' ? -0.2 : 0.08);
    } else {
      // In turns towards the nose: for the left eye that is towards the subject's right.
      eyeball(f, o, s, (dir === 'Out' ? 1 : -1) * towards(s) * EYE_YAW, 0);
    }
  });
const corner = (f: ExpressionFrame, s: Side) => vertex(f.fitted.head, MOUTH_CORNER[s]);
const smile = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, corner(f, s), 2.8 * u, along(f, towards(s) * 0.45 * u, 0.65 * u, -0.25 * u));
  // The cheek bunches up towards the eye.
  brush(f, o, between(f, MOUTH_CORNER[s], LOWER_LID_MIDDLE[s], 0.5), 2.4 * u, along(f, 0, 0.25 * u, 0.12 * u));
});
const frown = sided((s) => (f, o) => brush(f, o, corner(f, s), 2.6 * f.mouthUnit, along(f, towards(s) * 0.1 * f.mouthUnit, -0.85 * f.mouthUnit, 0)));
const dimple = sided((s) => (f, o) => brush(f, o, corner(f, s), 1.8 * f.mouthUnit, along(f, towards(s) * 0.15 * f.mouthUnit, 0, -0.3 * f.mouthUnit)));
/**
 * The corner pulled straight out (and a little back), the lips' middle dragged a little after it:
 * pulled down as well, or over a smaller reach, the corner thins into a tail the eye (and the
 * landmark detector) reads as no wider a mouth.
 */
const stretch = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, corner(f, s), 4 * u, along(f, towards(s) * u, 0, -0.15 * u));
  brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 3 * u, along(f, towards(s) * 0.3 * u, 0, 0));
});
/**
 * Pressed lips meet on their side and flatten against each other: the outer part of each lip (its
 * red and the skin next to it) is pushed towards the lip line and a little back, the line itself
 * stays, so a mouth that was closed already still visibly presses.
 */
const press = sided((s) => (f, o) => {
  motions.lipsTogether(f, o, 1, 0.5, { side: s, clear: LIPS_PRESSED, most: Infinity });
  const u = f.mouthUnit, { distance } = lipZone(f);
  const centre = lipSide(f, s, UPPER_LIP), reach = 2 * u;
  const p = f.fitted.head;
  for (let v = 0; v < p.length / 3; v++) {
    if (distance[v] >= 1.6 * u || f.mouthBag[v]) continue;
    const q = vertex(p, v);
    const along = Math.max(0, 1 - (hypot3(q[0] - centre[0], q[1] - centre[1], q[2] - centre[2]) / reach) ** 2) ** 2;
    const band = smoothstep(distance[v] / (0.9 * u)) * (1 - smoothstep((distance[v] - 0.9 * u) / (0.7 * u)));
    const w = 0.1 * u * along * band * lipFront(f, v);
    if (w === 0) continue;
    const towardsLine = 2 * smoothstep(f.jaw[v]) - 1;
    for (let k = 0; k < 3; k++) o.head[3 * v + k] += w * (towardsLine * f.up[k] - 0.3 * f.forward[k]);
  }
});
const lipSide = (f: ExpressionFrame, s: Side, lip: typeof UPPER_LIP) => between(f, lip.inner, MOUTH_CORNER[s], 0.5);
const lowerDown = sided((s) => (f, o) => brush(f, o, lipSide(f, s, LOWER_LIP), 2.3 * f.mouthUnit, along(f, 0, -0.45 * f.mouthUnit, 0), (v) => f.jaw[v]));
const upperUp = sided((s) => (f, o) => brush(f, o, lipSide(f, s, UPPER_LIP), 2.3 * f.mouthUnit, along(f, 0, 0.4 * f.mouthUnit, 0), (v) => 1 - f.jaw[v]));
const browDown = sided((s) => (f, o) => {
  const e = f.eyeUnit;
  brush(f, o, between(f, BROW_INNER[s], BROW_OUTER[s], 0.35), 2.2 * e, along(f, -towards(s) * 0.15 * e, -0.35 * e, 0.05 * e), awayFromEyes(f));
});
// The outer part of the brow, not just its end: how visible an end is depends on the photo's brow.
const browOuterUp = sided((s) => (f, o) => brush(f, o, between(f, BROW_INNER[s], BROW_OUTER[s], 0.85), 2.4 * f.eyeUnit, along(f, 0, 0.5 * f.eyeUnit, 0), awayFromEyes(f)));
const cheekSquint = sided((s) => (f, o) => {
  brush(f, o, between(f, LOWER_LID_MIDDLE[s], MOUTH_CORNER[s], 0.35), 2.2 * f.eyeUnit, along(f, 0, 0.5 * f.eyeUnit, 0.05 * f.eyeUnit), awayFromEyes(f));
  eyelid(f, o, s, 'lower', 0.15);
});
const sneer = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, vertex(f.fitted.head, NOSE_WING[s]), 1.7 * u, along(f, towards(s) * 0.05 * u, 0.45 * u, 0));
  brush(f, o, lipSide(f, s, UPPER_LIP), 1.5 * u, along(f, 0, 0.2 * u, 0), (v) => 1 - f.jaw[v]);
});
/**
 * The whole mouth sideways: the brush on the lips' middle reaches the corners at about 40 % of its motion,
 * so each corner gets a brush of its own and the mouth moves nearly as one (0.6-0.75 mouth units).
 */
const mouthSide = (s: Side): Recipe => (f, o) => {
  const shift = (by: number) => along(f, towards(s) * by * f.mouthUnit, 0, 0);
  brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 4.5 * f.mouthUnit, shift(0.7));
  for (const side of ['left', 'right'] as const) brush(f, o, corner(f, side), 2 * f.mouthUnit, shift(0.4));
};

/** Everything a shape needs beyond the primitives is its recipe here. */
const RECIPES: Record<ArkitName, Recipe> = {
  eyeBlinkLeft: blink.Left, eyeBlinkRight: blink.Right,
  eyeLookDownLeft: look('Down').Left, eyeLookDownRight: look('Down').Right,
  eyeLookInLeft: look('In').Left, eyeLookInRight: look('In').Right,
  eyeLookOutLeft: look('Out').Left, eyeLookOutRight: look('Out').Right,
  eyeLookUpLeft: look('Up').Left, eyeLookUpRight: look('Up').Right,
  eyeSquintLeft: squint.Left, eyeSquintRight: squint.Right,
  eyeWideLeft: wide.Left, eyeWideRight: wide.Right,
  jawOpen: (f, o) => motions.jaw(f, o, JAW_OPEN),
  jawForward: (f, o) => motions.jawShift(f, o, along(f, 0, 0, 0.4 * f.mouthUnit)),
  jawLeft: (f, o) => motions.jawShift(f, o, along(f, JAW_SIDEWAYS * f.mouthUnit, 0, 0)),
  jawRight: (f, o) => motions.jawShift(f, o, along(f, -JAW_SIDEWAYS * f.mouthUnit, 0, 0)),
  // The lips meet across this mouth's own gap; they close, they do not cross.
  mouthClose: (f, o) => motions.lipsTogether(f, o, 1, 0.5, { clear: LIPS_PRESSED }),
  mouthFunnel: (f, o) => {
    const u = f.mouthUnit;
    brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.6 * u, along(f, 0, 0.25 * u, 0.35 * u), (v) => 1 - f.jaw[v]);
    brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.6 * u, along(f, 0, -0.3 * u, 0.35 * u), (v) => f.jaw[v]);
    // The corners and the skin beside them (a smiling face's creases too) come in: the mouth narrows.
    for (const s of ['left', 'right'] as const) brush(f, o, corner(f, s), 2.4 * u, along(f, -towards(s) * 0.45 * u, 0, 0.1 * u));
  },
  mouthPucker: (f, o) => {
    const u = f.mouthUnit;
    for (const s of ['left', 'right'] as const) brush(f, o, corner(f, s), 2.8 * u, along(f, -towards(s) * 0.7 * u, 0, 0.25 * u));
    brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 2.6 * u, along(f, 0, 0, 0.4 * u));
  },
  mouthLeft: mouthSide('left'), mouthRight: mouthSide('right'),
  mouthSmileLeft: smile.Left, mouthSmileRight: smile.Right,
  mouthFrownLeft: frown.Left, mouthFrownRight: frown.Right,
  mouthDimpleLeft: dimple.Left, mouthDimpleRight: dimple.Right,
  mouthStretchLeft: stretch.Left, mouthStretchRight: stretch.Right,
  mouthRollLower: (f, o) => brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, 0.1 * f.mouthUnit, -0.15 * f.mouthUnit), (v) => f.jaw[v] * lipFront(f, v)),
  mouthRollUpper: (f, o) => brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, -0.1 * f.mouthUnit, -0.15 * f.mouthUnit), (v) => (1 - f.jaw[v]) * lipFront(f, v)),
  mouthShrugLower: (f, o) => brush(f, o, between(f, LOWER_LIP.outer, CHIN, 0.4), 3.2 * f.mouthUnit, along(f, 0, 0.3 * f.mouthUnit, 0.15 * f.mouthUnit), (v) => f.jaw[v] * lipFront(f, v)),
  mouthShrugUpper: (f, o) => brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.6 * f.mouthUnit, along(f, 0, 0.22 * f.mouthUnit, 0.15 * f.mouthUnit), (v) => 1 - f.jaw[v]),
  mouthPressLeft: press.Left, mouthPressRight: press.Right,
  mouthLowerDownLeft: lowerDown.Left, mouthLowerDownRight: lowerDown.Right,
  mouthUpperUpLeft: upperUp.Left, mouthUpperUpRight: upperUp.Right,
  browDownLeft: browDown.Left, browDownRight: browDown.Right,
  browInnerUp: (f, o) => {
    for (const s of ['left', 'right'] as const) brush(f, o, vertex(f.fitted.head, BROW_INNER[s]), 2 * f.eyeUnit, along(f, 0, 0.45 * f.eyeUnit, 0), awayFromEyes(f));
  },
  browOuterUpLeft: browOuterUp.Left, browOuterUpRight: browOuterUp.Right,
  cheekPuff: (f, o) => {
    for (const s of ['left', 'right'] as const) {
      const c = vertex(f.fitted.head, CHEEK[s]);
      brush(f, o, c, 2.6 * f.eyeUnit, scale(add(scale(f.left, towards(s) * 0.8), scale(f.forward, 0.4)), 0.55 * f.mouthUnit));
    }
  },
  cheekSquintLeft: cheekSquint.Left, cheekSquintRight: cheekSquint.Right,
  noseSneerLeft: sneer.Left, noseSneerRight: sneer.Right,
  tongueOut: (f, o) => {
    // The jaw drops and the tongue slides out over the lower incisors, resting on their edges: where it passes
    // them (at their front, once slid) its underside sits TONGUE_OVER_TEETH above their edges. Centred in the
    // lips' gap, it met the upper incisors, whose edges lie below the lips' meeting line.
    motions.jaw(f, o, TONGUE_OUT_JAW);
    const slide = 3.4 * f.mouthUnit;
    const tongue = fittedPositions(f, 'tongue');
    const { lowerEdge, lowerFront } = incisorEdges(f, o);
    // The tongue's points that pass over the incisors' front once slid: those within 0.3 mouth units of it or,
    // where none is (on a wide mouth, p01-a's, the slide in mouth units carries all of it past), of the nearest.
    const ahead = new Float64Array(tongue.length / 3), up = new Float64Array(tongue.length / 3);
    let nearest = Infinity;
    for (let v = 0; v < ahead.length; v++) {
      const q = sub(add(vertex(tongue, v), vertex(o.tongue, v)), f.jawPivot);
      ahead[v] = Math.abs(dot(q, f.forward) + slide - lowerFront);
      up[v] = dot(q, f.up);
      nearest = Math.min(nearest, ahead[v]);
    }
    let underside = Infinity;
    const band = 0.3 * f.mouthUnit + (nearest < 0.3 * f.mouthUnit ? 0 : nearest);
    for (let v = 0; v < ahead.length; v++) if (ahead[v] < band) underside = Math.min(underside, up[v]);
    const lift = lowerEdge + TONGUE_OVER_TEETH - underside;
    translate(f, o, 'tongue', add(scale(f.up, lift), scale(f.forward, slide)));
  },
};

/** Shapes whose lips meet (down to LIPS_PRESSED): no teeth show between them. */
const LIPS_MEET: ReadonlySet<ArkitName> = new Set(['mouthClose', 'mouthPressLeft', 'mouthPressRight']);

/** The deltas of one ARKit shape on this frame's geometry. */
export function arkitShape(frame: ExpressionFrame, name: ArkitName): Deltas {
  const out = zeroDeltas(frame);
  RECIPES[name](frame, out);
  motions.keepLipsApart(frame, out, LIPS_MEET.has(name) ? LIPS_PRESSED : undefined);
  return out;
}

