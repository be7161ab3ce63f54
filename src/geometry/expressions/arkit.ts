import type { Vec3 } from '../../model/avatar.ts';
import type { HeadTemplate } from '../template/types.ts';
import { add, dot, hypot3, scale, sub, vertex } from '../mesh/vec.ts';
import { signedPolygonDistance } from '../spatial/polygon-distance.ts';
import { along, fittedPositions, zeroDeltas, type Deltas, type ExpressionFrame } from './frame.ts';
import { awayFromEyes, between, brush, eyeball, eyelid, incisorEdges, profileAlong, profileAt, rotate, translate, upperAndLower, type Profile, type Side, type Weights } from './primitives.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

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

/** The shapes that move the lids, the blinks apart: the glances, squints, widenings and the cheeks' squints. */
export const LID_SHAPES: readonly ArkitName[] = [
  'eyeLookDownLeft', 'eyeLookInLeft', 'eyeLookOutLeft', 'eyeLookUpLeft', 'eyeSquintLeft', 'eyeWideLeft',
  'eyeLookDownRight', 'eyeLookInRight', 'eyeLookOutRight', 'eyeLookUpRight', 'eyeSquintRight', 'eyeWideRight',
  'cheekSquintLeft', 'cheekSquintRight',
];

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
/**
 * The lips' own motion in jawOpen (mouth units): the upper lip up, the lower lip up against the jaw's turn (each
 * half), both a little back (stretched over the teeth), fading out over `reach`.
 */
const JAW_OPEN_LIPS = { upperUp: 0.35, lowerUp: 0.3, back: 0.05, reach: 2.4 };
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
const EYE_INNER = { right: 133, left: 362 };
const CHIN = 152;

const towards = (s: Side) => (s === 'left' ? 1 : -1);

/** Motions shared by several shapes. */
export const motions = {
  /** The jaw (with lower lip, chin, lower teeth and tongue) turned open about the fitted hinge. */
  jaw(frame: ExpressionFrame, out: Deltas, angle: number, skin: Weights = frame.jaw): void {
    rotate(frame, out, 'head', frame.jawPivot, frame.left, angle, skin);
    rotate(frame, out, 'teeth', frame.jawPivot, frame.left, angle, weightsOf(frame).lowerTeeth);
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
    const skin = new Float64Array(distance.length);
    for (let v = 0; v < skin.length; v++) {
      const away = smoothstep((distance[v] - u) / u);
      if (away === 1) skin[v] = frame.jaw[v];
      else {
        const lips = Math.min(1, Math.max(0, gapAt(rest, dot(vertex(frame.fitted.head, v), frame.left)) / gap));
        skin[v] = frame.jaw[v] * (away + (1 - away) * lips);
      }
    }
    motions.jaw(frame, out, -Math.asin(Math.min(1, (share * gap) / reach)), skin);
  },
  /**
   * The neutral face's own resting gap closed (how the avatar's rest closes a mouth photographed parted:
   * fit-expression's closeMouth): the lips meet (LIPS_PRESSED) half way, without crossing and in front of the teeth.
   */
  restingLipsTogether(frame: ExpressionFrame, out: Deltas): void {
    motions.lipsTogether(frame, out, 1, 0.5, { clear: LIPS_PRESSED });
    motions.keepLipsApart(frame, out, LIPS_PRESSED);
  },
  /** The jaw moved bodily (forward or sideways). */
  jawShift(frame: ExpressionFrame, out: Deltas, displacement: Vec3): void {
    const weights = weightsOf(frame);
    translate(frame, out, 'head', displacement, weights.jawShift);
    translate(frame, out, 'teeth', displacement, weights.lowerTeeth);
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
    // A wide-open mouth closes only part of the way: the lips do not stretch down over the whole face.
    const most = (lips.most ?? MOST_CLOSING) * frame.mouthUnit;
    const { across } = lipZone(frame).reach;
    const close = new Float64Array(across.length);
    for (let i = 0; i < across.length; i++) {
      const x = across[i], g = gapAt(gap, x);
      const sideWeight = side ? Math.min(1, Math.max(0, 0.5 + (towards(side) * (x - centre)) / (2 * frame.mouthUnit))) : 1;
      close[i] = Math.min(most, Math.max(0, g - Math.max(clear, (1 - fraction) * g))) * sideWeight;
    }
    moveLips(frame, out, close, new Float64Array(close.length).fill(upperShare));
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
    const before = meeting(frame, upper, lower, movedLips(frame, out.head));
    // Right at the corners the lips' inner edges meet at different depths: closing them there too folds the skin.
    const xs = contour.map((v) => dot(vertex(frame.fitted.head, v), frame.left));
    const lo = Math.min(...xs), hi = Math.max(...xs);
    const { across } = lipZone(frame).reach;
    const corners = new Float64Array(across.length), close = new Float64Array(across.length), half = new Float64Array(across.length).fill(0.5);
    for (let i = 0; i < across.length; i++) {
      const x = across[i];
      corners[i] = smoothstep(Math.min(x - lo, hi - x) / (cornerBand * frame.mouthUnit));
      close[i] = Math.max(0, profileAt(before.top, x) - profileAt(before.bottom, x) - clear) * corners[i];
    }
    moveLips(frame, out, close, half, byContour);
    if (atRest) {
      // Closed, the edges also meet in depth: an upper edge left behind the lower one (0.5-3.5 mm on the test
      // photos) opens a slit that the preview, from a little above, looks through onto the teeth. Each edge goes half way.
      const moved = movedLips(frame, out.head);
      const ahead = profileAlong(frame, lower, frame.forward, moved), behind = profileAlong(frame, upper, frame.forward, moved);
      for (let i = 0; i < across.length; i++) close[i] = (profileAt(ahead, across[i]) - profileAt(behind, across[i])) * corners[i];
      moveLips(frame, out, close, half, byContour, scale(frame.forward, -1));
    }
    const neutral = meeting(frame, upper, lower, frame.fitted.head), after = meeting(frame, upper, lower, movedLips(frame, out.head));
    const { lowerness } = lipZone(frame);
    for (const v of lipZone(frame).surface) {
      const side = lowerness[v];
      if (side === 0.5) continue;
      const q0 = vertex(frame.fitted.head, v), q = add(q0, vertex(out.head, v));
      const x = dot(q, frame.left);
      const excess = past(frame, q, meetingLine(after, x), side, clear) - Math.max(0, past(frame, q0, meetingLine(neutral, dot(q0, frame.left)), side, clear));
      if (excess <= 0) continue;
      const move = scale(frame.up, (side === 1 ? -1 : 1) * excess);
      for (let k = 0; k < 3; k++) out.head[3 * v + k] += move[k];
    }
  },
  /**
   * Where a shape (its deltas in `out`) brings the lips closer than `clear` (mouth units), or
   * through each other, the lip that moves pushes the other one ahead of it instead; and where it
   * slides a lip down (or up) over the teeth, the lip stays in front of them. A shape made for use on
   * another one (`on`: MADE_ON) is judged added to it and against it, not alone.
   */
  keepLipsApart(frame: ExpressionFrame, out: Deltas, clearance = LIPS_CLEAR, on?: Deltas): void {
    keepLipsOffTeeth(frame, out, on);
    const before = on ? lipGap(frame, movedLips(frame, on.head)) : neutralLipGap(frame);
    const moved = movedLips(frame, out.head, on?.head);
    const after = lipGap(frame, moved);
    const clear = clearance * frame.mouthUnit;
    const contour = frame.template.loops.lipsInner;
    let short = false;
    for (let i = 0; i < contour.length && !short; i++) short = lipDeficit(before, after, clear, dot(vertex(moved, contour[i]), frame.left)) !== 0;
    if (!short) return;
    const { upper, lower } = upperAndLower(frame, contour);
    const upperRise = profileAlong(frame, upper, frame.up, out.head), lowerRise = profileAlong(frame, lower, frame.up, out.head);
    // The lower lip rising pushes the upper one up; the upper one falling pushes the lower one down.
    const { across } = lipZone(frame).reach;
    const close = new Float64Array(across.length), upperShare = new Float64Array(across.length);
    for (let i = 0; i < across.length; i++) {
      const x = across[i];
      close[i] = -lipDeficit(before, after, clear, x);
      upperShare[i] = profileAt(lowerRise, x) >= -profileAt(upperRise, x) ? 1 : 0;
    }
    moveLips(frame, out, close, upperShare);
  },
};

/**
 * Where the neutral lips are already closer than `clear` (or, as read over the bulging lip surface, crossed),
 * a shape must not bring them closer still; it is not asked to part them. How much closer it brings them at `x`.
 */
function lipDeficit(before: LipGap, after: LipGap, clear: number, x: number): number {
  return Math.max(0, Math.min(clear, gapAt(before, x)) - gapAt(after, x));
}

/** The lips' inner edges (upper and lower) as heights across the face. */
interface Meeting {
  top: Profile;
  bottom: Profile;
}
function meeting(frame: ExpressionFrame, upper: readonly number[], lower: readonly number[], positions: ArrayLike<number>): Meeting {
  return { top: profileAlong(frame, upper, frame.up, positions), bottom: profileAlong(frame, lower, frame.up, positions) };
}
/** The height where the lips meet at `x`: half way between their edges. */
const meetingLine = (m: Meeting, x: number) => (profileAt(m.top, x) + profileAt(m.bottom, x)) / 2;
/** How far `q` reaches past the lips' meeting `line`: up for the lower lip (`side` 1), down for the upper one, plus `clear`. */
const past = (frame: ExpressionFrame, q: Vec3, line: number, side: number, clear: number) => (side === 1 ? 1 : -1) * (dot(q, frame.up) - line) + clear;

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
 * stay in front of them: each is pushed forward to the teeth's front where it lands (pushForward: on an
 * avatar, with the surface round it). Without this the teeth show through a lip that closes a mouth
 * photographed open.
 */
function keepLipsOffTeeth(frame: ExpressionFrame, out: Deltas, on?: Deltas): void {
  const u = frame.mouthUnit;
  const p = on ? vertexSum(frame.fitted.head, on.head) : frame.fitted.head, d = out.head;
  let moved: TeethFront | undefined;
  const pushed: number[] = [], pushes: number[] = [];
  for (const v of lipsOverTeeth(frame)) {
    if (d[3 * v] === 0 && d[3 * v + 1] === 0 && d[3 * v + 2] === 0) continue;
    // Where it lands on the teeth, it lands in front of them (each teeth vertex standing for the cells around it: they are sparse).
    moved ??= on ? teethFront(frame, vertexSum(vertexSum(fittedPositions(frame, 'teeth'), on.teeth), out.teeth))
      : anyNonZero(out.teeth) ? teethFront(frame, vertexSum(fittedPositions(frame, 'teeth'), out.teeth)) : neutralTeethFront(frame);
    const m = add(vertex(p, v), vertex(d, v));
    const behind = teethFrontAround(moved, m) + TEETH_CLEAR * u - dot(m, frame.forward);
    if (behind > 0) {
      pushed.push(v);
      pushes.push(behind);
    }
  }
  if (pushed.length > 0) pushForward(frame, p, d, pushed, pushes);
}

/**
 * On a finished frame a push forward spreads over this many times its own length around its vertex: pushed alone, a lip
 * vertex stood out of its neighbours (up to 0.38 mouth units on mouthLeft) and the lips folded at the mouth's far corner
 * (mouthLeft and mouthRight on every test photo). Spread so, the push's slope is at most 1.5 / TEETH_SPREAD.
 */
const TEETH_SPREAD = 4;

/**
 * Moves the lips (`d`: the deltas over `p`) forward by `pushes` at the vertices `pushed`; on a finished frame the
 * surface round each as well, by less the further from it (smoothstep over TEETH_SPREAD times the push), every vertex by
 * the most it takes from any.
 */
function pushForward(frame: ExpressionFrame, p: ArrayLike<number>, d: Float32Array, pushed: number[], pushes: number[]): void {
  if (!frame.finished) {
    for (let i = 0; i < pushed.length; i++) moveForward(frame, d, pushed[i], pushes[i]);
    return;
  }
  const at = pushed.map((v) => add(vertex(p, v), vertex(d, v)));
  const reach = pushes.map((by) => TEETH_SPREAD * by);
  for (const v of lipZone(frame).reach.vertices) {
    if (frame.mouthBag[v]) continue;
    const qx = p[3 * v] + d[3 * v], qy = p[3 * v + 1] + d[3 * v + 1], qz = p[3 * v + 2] + d[3 * v + 2];
    let most = 0;
    for (let i = 0; i < at.length; i++) {
      const distance = hypot3(qx - at[i][0], qy - at[i][1], qz - at[i][2]);
      if (distance < reach[i]) most = Math.max(most, pushes[i] * (1 - smoothstep(distance / reach[i])));
    }
    if (most > 0) moveForward(frame, d, v, most);
  }
}

function moveForward(frame: ExpressionFrame, d: Float32Array, v: number, by: number): void {
  for (let k = 0; k < 3; k++) d[3 * v + k] += frame.forward[k] * by;
}

const overTeeth = new WeakMap<ExpressionFrame, Uint32Array>();

/**
 * The lip vertices (within 2 mouth units of the inner contour, not the mouth bag) that stand in front of the neutral
 * teeth, in order, once per frame. A lip over no teeth (above them, or across the gap of an open mouth) is free to move there.
 */
function lipsOverTeeth(frame: ExpressionFrame): Uint32Array {
  let lips = overTeeth.get(frame);
  if (lips) return lips;
  const neutral = neutralTeethFront(frame), kept: number[] = [];
  for (const v of lipZone(frame).reach.vertices) {
    const q = vertex(frame.fitted.head, v);
    if (!frame.mouthBag[v] && dot(q, frame.forward) >= teethFrontAt(neutral, q)) kept.push(v);
  }
  overTeeth.set(frame, (lips = Uint32Array.from(kept)));
  return lips;
}

/** Whether any of the numbers is not 0 (a loop: TypedArray#some boxes every element for its callback). */
function anyNonZero(xs: Float32Array): boolean {
  for (let i = 0; i < xs.length; i++) if (xs[i] !== 0) return true;
  return false;
}

const teethFrontCache = new WeakMap<ExpressionFrame, TeethFront>();

/** The neutral teeth's front, made once per frame. */
function neutralTeethFront(frame: ExpressionFrame): TeethFront {
  let front = teethFrontCache.get(frame);
  if (!front) teethFrontCache.set(frame, (front = teethFront(frame, fittedPositions(frame, 'teeth'))));
  return front;
}

/**
 * The teeth's front over the face plane: per cell, the furthest forward of the teeth vertices in it.
 * A literal read by module functions, not a class: V8 drops a class's instance layout when its last instance dies
 * (after every job), and with it the optimized code of everything that read one (as Profile).
 */
interface TeethFront {
  /** Cell key to its slot in `front` (a number stored in a Map is an allocation; a slot is not). */
  slot: Map<number, number>;
  front: Float64Array;
  /** A cell's size (cm) and the face plane's axes. */
  size: number;
  left: Vec3;
  up: Vec3;
}

function teethFront(frame: ExpressionFrame, teeth: ArrayLike<number>): TeethFront {
  const t: TeethFront = {
    slot: new Map<number, number>(),
    front: new Float64Array(teeth.length / 3).fill(-Infinity),
    size: TEETH_CELL * frame.mouthUnit,
    left: frame.left,
    up: frame.up,
  };
  for (let v = 0; v < teeth.length / 3; v++) {
    const q = vertex(teeth, v), c = cellKey(t, q);
    let i = t.slot.get(c);
    if (i === undefined) t.slot.set(c, (i = t.slot.size));
    t.front[i] = Math.max(t.front[i], dot(q, frame.forward));
  }
  return t;
}

/** How far forward the teeth reach at `p`'s cell. */
function teethFrontAt(t: TeethFront, p: Vec3): number {
  const i = t.slot.get(cellKey(t, p));
  return i === undefined ? -Infinity : t.front[i];
}

/** How far forward the teeth reach in `p`'s cell and the eight around it (the teeth's vertices are sparse). */
function teethFrontAround(t: TeethFront, p: Vec3): number {
  const k = cellKey(t, p);
  let front = -Infinity;
  for (let di = -1; di <= 1; di++) {
    for (let dj = -1; dj <= 1; dj++) {
      const i = t.slot.get(k + di * 65536 + dj);
      if (i !== undefined) front = Math.max(front, t.front[i]);
    }
  }
  return front;
}

/** Cells are keyed by one number: the face is far fewer than 2^16 cells across. */
function cellKey(t: TeethFront, p: Vec3): number {
  return Math.floor(dot(p, t.left) / t.size) * 65536 + Math.floor(dot(p, t.up) / t.size);
}

/**
 * The head moved by `deltas` (added to `base`'s, if given) where the lip gap is read (the inner lip contour and the
 * lip surface near it); every other vertex of the returned array is stale. One buffer per frame: the shapes
 * read it one at a time, and copying the whole head for each cost more than the rest of the check.
 */
function movedLips(frame: ExpressionFrame, deltas: Float32Array, base?: Float32Array): Float32Array {
  let scratch = lipScratch.get(frame);
  if (!scratch) lipScratch.set(frame, (scratch = new Float32Array(frame.fitted.head.length)));
  const p = frame.fitted.head;
  for (const v of lipZone(frame).read) {
    if (base) for (let k = 3 * v; k < 3 * v + 3; k++) scratch[k] = p[k] + base[k] + deltas[k];
    else for (let k = 3 * v; k < 3 * v + 3; k++) scratch[k] = p[k] + deltas[k];
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
 * A literal read by `gapAt`, as TeethFront.
 */
interface LipGap {
  lo: number;
  width: number;
  gaps: Float64Array;
  top: Profile;
  bottom: Profile;
}

function lipGap(frame: ExpressionFrame, positions: ArrayLike<number>): LipGap {
  const contour = frame.template.loops.lipsInner;
  const xs: number[] = [];
  for (const v of contour) xs.push(dot(vertex(positions, v), frame.left));
  const lo = Math.min(...xs), hi = Math.max(...xs);
  const width = (hi - lo) / GAP_BINS;
  const top = new Float64Array(GAP_BINS).fill(Infinity), bottom = new Float64Array(GAP_BINS).fill(-Infinity);
  for (const v of lipZone(frame).surface) {
    const q = vertex(positions, v);
    const bin = Math.floor((dot(q, frame.left) - lo) / width);
    if (bin < 0 || bin >= GAP_BINS) continue;
    const y = dot(q, frame.up);
    if (frame.jaw[v] < 0.5) top[bin] = Math.min(top[bin], y);
    else bottom[bin] = Math.max(bottom[bin], y);
  }
  const gaps = new Float64Array(GAP_BINS);
  for (let i = 0; i < GAP_BINS; i++) gaps[i] = Number.isFinite(top[i]) && Number.isFinite(bottom[i]) ? top[i] - bottom[i] : Infinity;
  const { upper, lower } = upperAndLower(frame, contour);
  return { lo, width, gaps, top: profileAlong(frame, upper, frame.up, positions), bottom: profileAlong(frame, lower, frame.up, positions) };
}

/** The gap at `x` across the face. */
function gapAt(g: LipGap, x: number): number {
  return Math.min(profileAt(g.top, x) - profileAt(g.bottom, x), g.gaps[Math.min(GAP_BINS - 1, Math.max(0, Math.floor((x - g.lo) / g.width)))]);
}
const GAP_BINS = 16;
const neutralGaps = new WeakMap<ExpressionFrame, LipGap>();
/** The neutral face's lip gap, read once per frame. */
function neutralLipGap(frame: ExpressionFrame): LipGap {
  let gap = neutralGaps.get(frame);
  if (!gap) neutralGaps.set(frame, (gap = lipGap(frame, frame.fitted.head)));
  return gap;
}

/**
 * Moves the lips vertically (or along `direction`), `close[i]` in total towards each other (negative: apart) at the
 * i-th vertex of the lips' reach (LipZone.reach: the callers read its place across the mouth there), the upper lip
 * taking `upperShare[i]` of it; the motion fades away from the lip contour, over the skin around it and into the
 * mouth behind it. Arrays rather than a callback, as for the other motions (primitives.ts, Weights).
 */
function moveLips(frame: ExpressionFrame, out: Deltas, close: Float64Array, upperShare: Float64Array, lowerness = byJaw, direction = frame.up): void {
  const { reach, front } = lipZone(frame);
  const d = out.head;
  for (let i = 0; i < reach.vertices.length; i++) {
    const v = reach.vertices[i];
    const a = close[i] * reach.fade[i] * front[v];
    const j = lowerness(frame, v), share = upperShare[i];
    const s = a * ((1 - j) * -share + j * (1 - share));
    for (let k = 0; k < 3; k++) d[3 * v + k] += direction[k] * s;
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
  /** The lip each vertex belongs to (lipSides): 0 upper, 1 lower, 0.5 a corner. */
  lowerness: Float32Array;
  /** The inner lip rim and the surface: every vertex a lip gap is read from (movedLips). */
  read: Uint32Array;
  reach: LipReach;
}

/**
 * The head vertices a lip motion moves (within 2 mouth units of the inner contour), in order: each one's place
 * across the face and how much of the motion it takes by its distance (whole on the lips, fading out over the skin
 * around them; `front` then fades it into the mouth).
 */
interface LipReach {
  vertices: Uint32Array;
  across: Float64Array;
  fade: Float64Array;
}
const lipZones = new WeakMap<ExpressionFrame, LipZone>();

function lipZone(f: ExpressionFrame): LipZone {
  let zone = lipZones.get(f);
  if (zone) return zone;
  const loop = f.template.loops.lipsInner;
  const contour = loop.map((c) => vertex(f.fitted.head, c));
  const p = f.fitted.head;
  const n = p.length / 3;
  const distance = new Float32Array(n), front = new Float32Array(n);
  const surface: number[] = [];
  const [fx, fy, fz] = f.forward;
  for (let v = 0; v < n; v++) {
    // Unrolled (no vectors made): this runs over every vertex of the head for each frame.
    const qx = p[3 * v], qy = p[3 * v + 1], qz = p[3 * v + 2];
    const c = contour[nearestOf(contour, qx, qy, qz)];
    const behind = (c[0] - qx) * fx + (c[1] - qy) * fy + (c[2] - qz) * fz;
    distance[v] = Math.sqrt((c[0] - qx) ** 2 + (c[1] - qy) ** 2 + (c[2] - qz) ** 2);
    // The mouth bag, right in front of the teeth, gives way sooner than the lips' own inner side.
    front[v] = f.mouthBag[v] ? 1 - smoothstep(behind / (0.2 * f.mouthUnit)) : 1 - smoothstep((behind - 0.1 * f.mouthUnit) / (0.3 * f.mouthUnit));
    if (!f.mouthBag[v] && distance[v] < 0.5 * f.mouthUnit) surface.push(v);
  }
  zone = { distance, front, surface, lowerness: lipSides(f.template), read: Uint32Array.from([...f.lipRim, ...surface]), reach: lipReach(f, distance) };
  lipZones.set(f, zone);
  return zone;
}

const lipSidesOf = new WeakMap<HeadTemplate, Float32Array>();
/**
 * Per head vertex, the lip it belongs to, by its nearest inner contour point on the template at rest, where the lips
 * stand 5 mm apart: 0 the upper lip, 1 the lower, 0.5 a corner. Read on a fitted head instead, the nearest point can
 * be the other lip's: p12-a's upper contour was read 3 mm to the side of its lower one, its upper lip's front was
 * sealed as lower lip (back, as the upper rim came forward), the lip folded, and untangling reopened the mouth by 1 mm.
 */
function lipSides(t: HeadTemplate): Float32Array {
  let sides = lipSidesOf.get(t);
  if (sides) return sides;
  const p = t.head.positions, loop = t.loops.lipsInner, half = loop.length / 2;
  const contour = loop.map((c) => vertex(p, c));
  sides = new Float32Array(p.length / 3);
  for (let v = 0; v < sides.length; v++) {
    const which = nearestOf(contour, p[3 * v], p[3 * v + 1], p[3 * v + 2]);
    // The loop runs from one corner along the upper lip to the other corner and back along the lower lip.
    sides[v] = which === 0 || which === half ? 0.5 : which < half ? 0 : 1;
  }
  lipSidesOf.set(t, sides);
  return sides;
}

/** The index of the point of `contour` nearest (x, y, z) (the first of equals). */
function nearestOf(contour: readonly Vec3[], x: number, y: number, z: number): number {
  let nearest = Infinity, which = 0;
  for (let i = 0; i < contour.length; i++) {
    const c = contour[i];
    const d = (c[0] - x) ** 2 + (c[1] - y) ** 2 + (c[2] - z) ** 2;
    if (d < nearest) (nearest = d), (which = i);
  }
  return which;
}

function lipReach(f: ExpressionFrame, distance: Float32Array): LipReach {
  const radius = 2 * f.mouthUnit;
  const vertices: number[] = [];
  for (let v = 0; v < distance.length; v++) {
    if (distance[v] >= radius) continue;
    vertices.push(v);
  }
  const across = new Float64Array(vertices.length), fade = new Float64Array(vertices.length);
  for (let i = 0; i < vertices.length; i++) {
    const v = vertices[i];
    across[i] = dot(vertex(f.fitted.head, v), f.left);
    fade[i] = 1 - smoothstep((distance[v] / radius - 0.3) / 0.7);
  }
  return { vertices: Uint32Array.from(vertices), across, fade };
}

const lipFront = (f: ExpressionFrame, v: number) => lipZone(f).front[v];

/** Per-vertex weights that several shapes' motions take, made once per frame (arrays: see primitives.ts, Weights). */
interface FrameWeights {
  /** Head: the upper face's share (1 - the jaw weight). */
  upperJaw: Float64Array;
  /** Head: the jaw's share and the upper face's, each faded into the mouth as the lip motions are (LipZone.front). */
  lowerLipFront: Float64Array;
  upperLipFront: Float64Array;
  /** Head: how much of the jaw moved bodily each vertex takes. */
  jawShift: Float64Array;
  /** Teeth: 1 on the lower teeth, 0 on the upper. */
  lowerTeeth: Float64Array;
}
const frameWeights = new WeakMap<ExpressionFrame, FrameWeights>();

function weightsOf(f: ExpressionFrame): FrameWeights {
  let weights = frameWeights.get(f);
  if (weights) return weights;
  const p = f.fitted.head, n = p.length / 3, { front } = lipZone(f);
  const upperJaw = new Float64Array(n), lowerLipFront = new Float64Array(n), upperLipFront = new Float64Array(n), jawShift = new Float64Array(n);
  // At the mouth corners the lips meet: the lower lip slides less there, so they do not shear.
  const a = vertex(p, MOUTH_CORNER.left), b = vertex(p, MOUTH_CORNER.right), reach = f.mouthUnit;
  for (let v = 0; v < n; v++) {
    upperJaw[v] = 1 - f.jaw[v];
    lowerLipFront[v] = f.jaw[v] * front[v];
    upperLipFront[v] = (1 - f.jaw[v]) * front[v];
    const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
    const near = Math.min(hypot3(x - a[0], y - a[1], z - a[2]), hypot3(x - b[0], y - b[1], z - b[2]));
    jawShift[v] = f.jaw[v] * (near >= reach ? 1 : 0.2 + 0.8 * smoothstep(near / reach));
  }
  const lowerTeeth = new Float64Array(fittedPositions(f, 'teeth').length / 3);
  for (const v of f.template.lowerTeeth) lowerTeeth[v] = 1;
  weights = { upperJaw, lowerLipFront, upperLipFront, jawShift, lowerTeeth };
  frameWeights.set(f, weights);
  return weights;
}

/** `on`: the deltas of the shape this one is made for (MADE_ON), if any. */
type Recipe = (frame: ExpressionFrame, out: Deltas, on?: Deltas) => void;

const sided = (make: (side: Side) => Recipe) => ({ Left: make('left'), Right: make('right') });

const blink = sided((s) => (f, o) => eyelid(f, o, s, 'upper', 1));
/**
 * The lids tighten from both sides, as ARKit's squint does: the lower lid up most, the upper one a quarter of the way
 * down. With the upper lid at 0.1 the landmark detector read the right eyes 0.010-0.027 narrower (bar 0.02): their
 * lower lids carry sclera baked in from the photo, which rises with the lid and reads as open eye; raising the lower
 * lid further (0.55-0.6) read them less narrow.
 */
const squint = sided((s) => (f, o) => {
  eyelid(f, o, s, 'lower', 0.45);
  eyelid(f, o, s, 'upper', 0.25);
});
const wide = sided((s) => (f, o) => eyelid(f, o, s, 'upper', -0.35));
/** Looking down or up the upper lid follows the eye, as a lid does: down a fifth of a blink, staying near the iris's top; up it lifts. */
const look = (dir: 'Down' | 'Up' | 'In' | 'Out') =>
  sided((s) => (f, o) => {
    if (dir === 'Down' || dir === 'Up') {
      eyeball(f, o, s, 0, dir === 'Up' ? EYE_UP : -EYE_DOWN);
      eyelid(f, o, s, 'upper', dir === 'Up' ? -0.2 : 0.2);
    } else {
      // In turns towards the nose: for the left eye that is towards the subject's right.
      eyeball(f, o, s, (dir === 'Out' ? 1 : -1) * towards(s) * EYE_YAW, 0);
    }
  });
const corner = (f: ExpressionFrame, s: Side) => vertex(f.fitted.head, MOUTH_CORNER[s]);
/** The corner up, out and back; raised 0.65 mouth units, p13-a's left corner read 0.030-0.036 up (bar 0.03). */
const smile = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, corner(f, s), 2.8 * u, along(f, towards(s) * 0.45 * u, 0.8 * u, -0.25 * u));
  // The cheek bunches up towards the eye.
  brush(f, o, between(f, MOUTH_CORNER[s], LOWER_LID_MIDDLE[s], 0.5), 2.4 * u, along(f, 0, 0.25 * u, 0.12 * u));
});
/**
 * The corner down and out, towards the jaw's edge where the depressor anguli oris pulls it from, the lower lip's side
 * down with it and the upper lip's side following. With the corner alone moved (0.85 mouth units down, 0.1 out) the
 * landmark detector read the still other corner down with it: on p03-a 0.036 against the moved one's 0.046 (bar: 0.015
 * less), and 9 of the 30 frowns of 15 other test photos failed a check; now 3.
 */
const frown = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, corner(f, s), 2.6 * u, along(f, towards(s) * 0.3 * u, -u, 0));
  brush(f, o, lipSide(f, s, LOWER_LIP), 2 * u, along(f, 0, -0.25 * u, 0), f.jaw);
  brush(f, o, lipSide(f, s, UPPER_LIP), 2 * u, along(f, 0, -0.1 * u, 0), weightsOf(f).upperJaw);
});
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
 * stays, so a mouth that was closed already still visibly presses. How far (mouth units): at 0.1 p13-a's closed mouth
 * changed by 0.48-0.51 (subtle bar 0.5).
 */
const PRESS_FLATTEN = 0.18;
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
    const w = PRESS_FLATTEN * u * along * band * lipFront(f, v);
    if (w === 0) continue;
    const towardsLine = 2 * smoothstep(f.jaw[v]) - 1;
    for (let k = 0; k < 3; k++) o.head[3 * v + k] += w * (towardsLine * f.up[k] - 0.3 * f.forward[k]);
  }
});
const lipSide = (f: ExpressionFrame, s: Side, lip: typeof UPPER_LIP) => between(f, lip.inner, MOUTH_CORNER[s], 0.5);
const lowerDown = sided((s) => (f, o) => brush(f, o, lipSide(f, s, LOWER_LIP), 2.3 * f.mouthUnit, along(f, 0, -0.45 * f.mouthUnit, 0), f.jaw));
const upperUp = sided((s) => (f, o) => brush(f, o, lipSide(f, s, UPPER_LIP), 2.3 * f.mouthUnit, along(f, 0, 0.4 * f.mouthUnit, 0), weightsOf(f).upperJaw));
const browDown = sided((s) => (f, o) => {
  const e = f.eyeUnit;
  brush(f, o, between(f, BROW_INNER[s], BROW_OUTER[s], 0.35), 2.2 * e, along(f, -towards(s) * 0.15 * e, -0.35 * e, 0.05 * e), awayFromEyes(f));
});
// The outer part of the brow, not just its end: how visible an end is depends on the photo's brow.
const browOuterUp = sided((s) => (f, o) => brush(f, o, between(f, BROW_INNER[s], BROW_OUTER[s], 0.85), 2.4 * f.eyeUnit, along(f, 0, 0.5 * f.eyeUnit, 0), awayFromEyes(f)));
/**
 * The cheek's apple bunches up and forward under the eye and pushes the lower lid up, as in a true smile. The apple
 * lifted 5 mm from a third of the way down to the mouth corner, nearly straight up (0.5 mm forward), with the lower lid
 * 0.15 of the way up, was smooth skin sliding over itself: over the 18 test avatars 17 of the 36 cheek squints changed
 * the cheek's pixels by under 1 grey level (the observer's bar), and a user saw nothing move.
 */
const cheekSquint = sided((s) => (f, o) => {
  brush(f, o, between(f, LOWER_LID_MIDDLE[s], MOUTH_CORNER[s], 0.5), 2.2 * f.eyeUnit, along(f, 0, 0.5 * f.eyeUnit, 0.3 * f.eyeUnit), awayFromEyes(f));
  eyelid(f, o, s, 'lower', 0.3);
});
/**
 * The nostril's wing lifts, the upper lip's side with it, and the skin on the side of the nose bunches up towards the
 * inner eye corner, as ARKit's sneer does: the wing alone (0.45 mouth units, the lip 0.2) changed p13-a's half face by
 * 0.49 (bar 0.5), and a larger or wider lift of the wing alone moved smooth skin that changes no more pixels.
 */
const sneer = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, vertex(f.fitted.head, NOSE_WING[s]), 1.7 * u, along(f, towards(s) * 0.05 * u, 0.6 * u, 0));
  brush(f, o, lipSide(f, s, UPPER_LIP), 1.5 * u, along(f, 0, 0.3 * u, 0), weightsOf(f).upperJaw);
  brush(f, o, between(f, NOSE_WING[s], EYE_INNER[s], 0.4), 1.5 * u, along(f, 0, 0.35 * u, 0), awayFromEyes(f));
});
/**
 * The whole mouth sideways: the brush on the lips' middle reaches the corners at about 40 % of its motion,
 * so each corner gets a brush of its own and the mouth moves nearly as one (0.8-0.9 mouth units). Moved 0.6-0.75,
 * the far corner of p06-a's mouth read 0.017 inwards (bar 0.02) beside the smile creases baked in next to it.
 */
const mouthSide = (s: Side): Recipe => (f, o) => {
  const shift = (by: number) => along(f, towards(s) * by * f.mouthUnit, 0, 0);
  brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 4.5 * f.mouthUnit, shift(0.9));
  for (const side of ['left', 'right'] as const) brush(f, o, corner(f, side), 2 * f.mouthUnit, shift(0.5));
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
  mouthClose: holdLips,
  mouthFunnel: (f, o) => {
    const u = f.mouthUnit;
    brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.6 * u, along(f, 0, 0.25 * u, 0.35 * u), weightsOf(f).upperJaw);
    brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.6 * u, along(f, 0, -0.3 * u, 0.35 * u), f.jaw);
    // The corners and the skin beside them (a smiling face's creases too) come in: the mouth narrows. At 0.6 mouth units
    // p06-a's mouth read 0.028 narrower (bar 0.02), and 0.019 once its skin's colour came out evener (white balance on two
    // axes); at 0.65 0.03 (identity over the test photos 0.4385 -> 0.4391); at 0.75 0.051, but the expression fit, whose
    // basis this shape is, then moved p13-a's neutral face: its identity distance 0.394 -> 0.414.
    for (const s of ['left', 'right'] as const) brush(f, o, corner(f, s), 2.4 * u, along(f, -towards(s) * 0.65 * u, 0, 0.1 * u));
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
  mouthRollLower: (f, o) => brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, 0.1 * f.mouthUnit, -0.15 * f.mouthUnit), weightsOf(f).lowerLipFront),
  mouthRollUpper: (f, o) => brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, -0.1 * f.mouthUnit, -0.15 * f.mouthUnit), weightsOf(f).upperLipFront),
  mouthShrugLower: (f, o) => brush(f, o, between(f, LOWER_LIP.outer, CHIN, 0.4), 3.2 * f.mouthUnit, along(f, 0, 0.3 * f.mouthUnit, 0.15 * f.mouthUnit), weightsOf(f).lowerLipFront),
  mouthShrugUpper: (f, o) => brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.6 * f.mouthUnit, along(f, 0, 0.22 * f.mouthUnit, 0.15 * f.mouthUnit), weightsOf(f).upperJaw),
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
    const slide = 3.7 * f.mouthUnit;
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

/**
 * A jaw opening wide stretches the lips over the teeth: the upper lip retracts, showing most of the upper incisors'
 * crowns (turned with the jaw alone, they showed a 2-3 mm strip), and the lower lip rides up over the lower ones'.
 */
function jawOpenLips(f: ExpressionFrame, o: Deltas): void {
  const u = f.mouthUnit, back = -JAW_OPEN_LIPS.back * u;
  brush(f, o, vertex(f.fitted.head, UPPER_LIP.inner), JAW_OPEN_LIPS.reach * u, along(f, 0, JAW_OPEN_LIPS.upperUp * u, back), weightsOf(f).upperJaw);
  // The lower lip's two halves, each about its middle: about the lip's centre alone the sides (over the canines and
  // premolars, seen from the front once the jaw turns) stayed down.
  for (const s of ['left', 'right'] as const) brush(f, o, lipSide(f, s, LOWER_LIP), JAW_OPEN_LIPS.reach * u, along(f, 0, JAW_OPEN_LIPS.lowerUp * u, back), f.jaw);
}

/**
 * ARKit's mouthClose, made for jawOpen (`on`, MADE_ON) at weight 1: the lips stay where the closed jaw holds them while
 * the jaw opens, the skin between them and the chin stretching (all within 0.6 mouth units of the inner contour, the
 * mouth bag behind it too, held whole, fading out at 2: LipReach's fade), then the neutral's own rest gap closes, the
 * lips meeting. Its deltas take jawOpen's back there: alone, on a closed mouth, they push the lips into each other, as
 * in Apple's own reference. Moved up and down towards each other instead (the upper lip 0.3 of the gap), the lips
 * folded into the mouth bag behind them (25 triangle pairs on the 2.0 template's closed mouth); with the bag following
 * them and the closing fading out at the corners, the corners stayed 6 mm open, and on the template's parted lips 17
 * pairs still folded and the upper lip's lining cut the incisors.
 */
function holdLips(f: ExpressionFrame, o: Deltas, on?: Deltas): void {
  if (on) {
    const { vertices } = lipZone(f).reach, held = heldLips(f);
    const d = o.head, opened = on.head;
    for (let i = 0; i < vertices.length; i++) {
      const v = vertices[i];
      for (let k = 3 * v; k < 3 * v + 3; k++) d[k] -= held[i] * opened[k];
    }
  }
  motions.lipsTogether(f, o, 1, 0.5, { clear: LIPS_PRESSED });
}

/** Beyond the outer lip contour, the width (mouth units) over which mouthClose's hold fades from the lips' red. */
const RED_FEATHER = 0.2;

/**
 * How much of jawOpen's motion mouthClose takes back from each vertex of the lips' reach (LipReach order): as LipReach
 * fades it, and whole on the lips' red (their skin inside the outer lip contour seen from the front), fading over RED_FEATHER
 * beyond it. A full lower lip reaches further from the inner contour than the 0.6 mouth units held whole: p13-a's red
 * stretched to 1.86 times its height towards the chin.
 */
function heldLips(f: ExpressionFrame): Float64Array {
  let held = heldLipsCache.get(f);
  if (held) return held;
  const { vertices, fade } = lipZone(f).reach;
  const p = f.fitted.head, { left, up } = f;
  const across = (v: number): [number, number] => [dot(vertex(p, v), left), dot(vertex(p, v), up)];
  const outer = f.template.loops.lipsOuter.map(across);
  held = Float64Array.from(fade);
  for (let i = 0; i < vertices.length; i++) {
    // The mouth bag behind the lips also lies inside the contour seen from the front: it keeps LipReach's fade.
    if (f.mouthBag[vertices[i]]) continue;
    const [x, y] = across(vertices[i]);
    const red = 1 - smoothstep(-signedPolygonDistance(outer, x, y) / (RED_FEATHER * f.mouthUnit));
    held[i] = Math.max(held[i], red);
  }
  heldLipsCache.set(f, held);
  return held;
}
const heldLipsCache = new WeakMap<ExpressionFrame, Float64Array>();

/** Shapes whose lips meet (down to LIPS_PRESSED): no teeth show between them. */
const LIPS_MEET: ReadonlySet<ArkitName> = new Set(['mouthClose', 'mouthPressLeft', 'mouthPressRight']);

/**
 * Shapes made for use on top of another at weight 1, as ARKit's rigs use them: mouthClose closes jawOpen's lips. Each is
 * made on that shape's pose, and the rule that no shape lets the lips cross judges it there (alone it may cross them).
 */
export const MADE_ON: Readonly<Partial<Record<ArkitName, ArkitName>>> = { mouthClose: 'jawOpen' };

/**
 * The deltas of one ARKit shape on this frame's geometry. `jawLips` false leaves jawOpen the jaw's turn alone: the
 * expression fit reads the lips' own motion with mouthUpperUp and mouthLowerDown (with jawOpen's lip motion in its
 * basis, p05-a's and p13-a's neutral mouth gap rose from 0.019 and 0.033 to 0.025 and 0.040). `made`: shapes already
 * made on this frame (default options), so that a shape made on another (MADE_ON) does not make that one again. `out`:
 * zero deltas to make it in.
 */
export function arkitShape(frame: ExpressionFrame, name: ArkitName, { jawLips = true, made, out = zeroDeltas(frame) }: { jawLips?: boolean; made?: ReadonlyMap<ArkitName, Deltas>; out?: Deltas } = {}): Deltas {
  const base = MADE_ON[name], on = base && (made?.get(base) ?? arkitShape(frame, base));
  RECIPES[name](frame, out, on);
  if (name === 'jawOpen' && jawLips) jawOpenLips(frame, out);
  motions.keepLipsApart(frame, out, LIPS_MEET.has(name) ? LIPS_PRESSED : undefined, on);
  return out;
}

