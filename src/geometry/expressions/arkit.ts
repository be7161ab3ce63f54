import type { Vec3 } from '../../model/avatar.ts';
import { add, dot, scale, sub, vertex } from '../mesh/vec.ts';
import { along, fittedPositions, zeroDeltas, type Deltas, type ExpressionFrame } from './frame.ts';
import { awayFromEyes, between, brush, contourProfile, eyeball, eyelid, rotate, smoothstep, translate, upperAndLower, type Side } from './primitives.ts';

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
const EYE_YAW = 22 * deg, EYE_PITCH = 18 * deg;
const TONGUE_OUT_JAW = 12 * deg;
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
  jaw(frame: ExpressionFrame, out: Deltas, angle: number): void {
    const lower = new Set(frame.template.lowerTeeth);
    rotate(frame, out, 'head', frame.jawPivot, frame.left, angle, (v) => frame.jaw[v]);
    rotate(frame, out, 'teeth', frame.jawPivot, frame.left, angle, (v) => (lower.has(v) ? 1 : 0));
    rotate(frame, out, 'tongue', frame.jawPivot, frame.left, angle);
  },
  /** The jaw moved bodily (forward or sideways). */
  jawShift(frame: ExpressionFrame, out: Deltas, displacement: Vec3): void {
    const lower = new Set(frame.template.lowerTeeth);
    // At the mouth corners the lips meet: the lower lip slides less there, so they do not shear.
    const corners = [MOUTH_CORNER.left, MOUTH_CORNER.right].map((v) => vertex(frame.fitted.head, v));
    const reach = frame.mouthUnit;
    translate(frame, out, 'head', displacement, (v) => {
      const p = vertex(frame.fitted.head, v);
      const near = Math.min(...corners.map((c) => Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2])));
      return frame.jaw[v] * (near >= reach ? 1 : 0.2 + 0.8 * smoothstep(near / reach));
    });
    translate(frame, out, 'teeth', displacement, (v) => (lower.has(v) ? 1 : 0));
    translate(frame, out, 'tongue', displacement);
  },
  /**
   * Lips towards each other by `fraction` of this mouth's own gap at each point along it (1 closes
   * the gap), the upper lip carrying `upperShare` of the motion.
   */
  lipsTogether(frame: ExpressionFrame, out: Deltas, fraction: number, upperShare: number, side?: Side): void {
    const { upper, lower } = upperAndLower(frame, frame.template.loops.lipsInner);
    const height = (p: Vec3) => dot(p, frame.up);
    const top = contourProfile(frame, upper, height), bottom = contourProfile(frame, lower, height);
    const centre = between(frame, UPPER_LIP.inner, LOWER_LIP.inner, 0.5);
    const radius = 3.2 * frame.mouthUnit;
    const p = frame.fitted.head;
    for (let v = 0; v < p.length / 3; v++) {
      const dx = p[3 * v] - centre[0], dy = p[3 * v + 1] - centre[1], dz = p[3 * v + 2] - centre[2];
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      // The lips move; the mouth bag behind them stays clear of the teeth.
      if (d >= radius || frame.mouthBag[v]) continue;
      const q = vertex(p, v);
      const x = dot(q, frame.left);
      const sideWeight = side ? Math.min(1, Math.max(0, 0.5 + (towards(side) * (x - dot(centre, frame.left))) / (2 * frame.mouthUnit))) : 1;
      const gap = Math.max(0, top(x) - bottom(x)) * fraction * sideWeight * (1 - (d / radius) ** 2) ** 2;
      const j = frame.jaw[v];
      const move = scale(frame.up, gap * ((1 - j) * -upperShare + j * (1 - upperShare)));
      for (let k = 0; k < 3; k++) out.head[3 * v + k] += move[k];
    }
  },
};

type Recipe = (frame: ExpressionFrame, out: Deltas) => void;

/**
 * Lips rolling back take the front of the mouth bag with them, but not its depth, where the
 * teeth are: 1 on the face, fading over the bag from just behind the lips.
 */
function lipsOverBag(f: ExpressionFrame, v: number): number {
  if (!f.mouthBag[v]) return 1;
  const lips = between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5);
  const depth = dot(sub(lips, vertex(f.fitted.head, v)), f.forward);
  return 1 - smoothstep((depth - 0.1 * f.mouthUnit) / (0.4 * f.mouthUnit));
}

const sided = (make: (side: Side) => Recipe) => ({ Left: make('left'), Right: make('right') });

const blink = sided((s) => (f, o) => eyelid(f, o, s, 'upper', 1));
const squint = sided((s) => (f, o) => {
  eyelid(f, o, s, 'lower', 0.35);
  eyelid(f, o, s, 'upper', 0.1);
});
const wide = sided((s) => (f, o) => eyelid(f, o, s, 'upper', -0.35));
/** Looking down or up the upper lid follows the eye a little. */
const look = (dir: 'Down' | 'Up' | 'In' | 'Out') =>
  sided((s) => (f, o) => {
    if (dir === 'Down' || dir === 'Up') {
      eyeball(f, o, s, 0, dir === 'Up' ? EYE_PITCH : -EYE_PITCH);
      eyelid(f, o, s, 'upper', dir === 'Up' ? -0.2 : 0.3);
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
const frown = sided((s) => (f, o) => brush(f, o, corner(f, s), 2.6 * f.mouthUnit, along(f, towards(s) * 0.1 * f.mouthUnit, -0.45 * f.mouthUnit, 0)));
const dimple = sided((s) => (f, o) => brush(f, o, corner(f, s), 1.8 * f.mouthUnit, along(f, towards(s) * 0.15 * f.mouthUnit, 0, -0.3 * f.mouthUnit)));
const stretch = sided((s) => (f, o) => brush(f, o, corner(f, s), 3 * f.mouthUnit, along(f, towards(s) * 0.5 * f.mouthUnit, -0.2 * f.mouthUnit, -0.15 * f.mouthUnit)));
const press = sided((s) => (f, o) => motions.lipsTogether(f, o, 0.9, 0.5, s));
const lipSide = (f: ExpressionFrame, s: Side, lip: typeof UPPER_LIP) => between(f, lip.inner, MOUTH_CORNER[s], 0.5);
const lowerDown = sided((s) => (f, o) => brush(f, o, lipSide(f, s, LOWER_LIP), 2.3 * f.mouthUnit, along(f, 0, -0.45 * f.mouthUnit, 0), (v) => f.jaw[v]));
const upperUp = sided((s) => (f, o) => brush(f, o, lipSide(f, s, UPPER_LIP), 2.3 * f.mouthUnit, along(f, 0, 0.4 * f.mouthUnit, 0), (v) => 1 - f.jaw[v]));
const browDown = sided((s) => (f, o) => {
  const e = f.eyeUnit;
  brush(f, o, between(f, BROW_INNER[s], BROW_OUTER[s], 0.35), 2.2 * e, along(f, -towards(s) * 0.15 * e, -0.35 * e, 0.05 * e), awayFromEyes(f));
});
const browOuterUp = sided((s) => (f, o) => brush(f, o, vertex(f.fitted.head, BROW_OUTER[s]), 2 * f.eyeUnit, along(f, 0, 0.4 * f.eyeUnit, 0), awayFromEyes(f)));
const cheekSquint = sided((s) => (f, o) => {
  brush(f, o, between(f, LOWER_LID_MIDDLE[s], MOUTH_CORNER[s], 0.35), 2 * f.eyeUnit, along(f, 0, 0.3 * f.eyeUnit, 0.05 * f.eyeUnit), awayFromEyes(f));
  eyelid(f, o, s, 'lower', 0.15);
});
const sneer = sided((s) => (f, o) => {
  const u = f.mouthUnit;
  brush(f, o, vertex(f.fitted.head, NOSE_WING[s]), 1.5 * u, along(f, towards(s) * 0.05 * u, 0.3 * u, 0));
  brush(f, o, lipSide(f, s, UPPER_LIP), 1.5 * u, along(f, 0, 0.12 * u, 0), (v) => 1 - f.jaw[v]);
});
const mouthSide = (s: Side): Recipe => (f, o) => brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 3.8 * f.mouthUnit, along(f, towards(s) * 0.45 * f.mouthUnit, 0, 0));

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
  mouthClose: (f, o) => motions.lipsTogether(f, o, 0.95, 0.5),
  mouthFunnel: (f, o) => {
    const u = f.mouthUnit;
    brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.6 * u, along(f, 0, 0.25 * u, 0.35 * u), (v) => 1 - f.jaw[v]);
    brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.6 * u, along(f, 0, -0.3 * u, 0.35 * u), (v) => f.jaw[v]);
    for (const s of ['left', 'right'] as const) brush(f, o, corner(f, s), 1.8 * u, along(f, -towards(s) * 0.3 * u, 0, 0.1 * u));
  },
  mouthPucker: (f, o) => {
    const u = f.mouthUnit;
    for (const s of ['left', 'right'] as const) brush(f, o, corner(f, s), 2.4 * u, along(f, -towards(s) * 0.55 * u, 0, 0.25 * u));
    brush(f, o, between(f, UPPER_LIP.inner, LOWER_LIP.inner, 0.5), 2.6 * u, along(f, 0, 0, 0.4 * u));
  },
  mouthLeft: mouthSide('left'), mouthRight: mouthSide('right'),
  mouthSmileLeft: smile.Left, mouthSmileRight: smile.Right,
  mouthFrownLeft: frown.Left, mouthFrownRight: frown.Right,
  mouthDimpleLeft: dimple.Left, mouthDimpleRight: dimple.Right,
  mouthStretchLeft: stretch.Left, mouthStretchRight: stretch.Right,
  mouthRollLower: (f, o) => brush(f, o, vertex(f.fitted.head, LOWER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, 0.1 * f.mouthUnit, -0.15 * f.mouthUnit), (v) => f.jaw[v] * lipsOverBag(f, v)),
  mouthRollUpper: (f, o) => brush(f, o, vertex(f.fitted.head, UPPER_LIP.outer), 2.4 * f.mouthUnit, along(f, 0, -0.1 * f.mouthUnit, -0.15 * f.mouthUnit), (v) => (1 - f.jaw[v]) * lipsOverBag(f, v)),
  mouthShrugLower: (f, o) => brush(f, o, between(f, LOWER_LIP.outer, CHIN, 0.4), 3.2 * f.mouthUnit, along(f, 0, 0.3 * f.mouthUnit, 0.15 * f.mouthUnit), (v) => f.jaw[v]),
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
    // The jaw drops and the tongue slides out, its tip centred in the gap between the lips.
    motions.jaw(f, o, TONGUE_OUT_JAW);
    const moved = (mesh: 'head' | 'tongue', v: number) => add(vertex(fittedPositions(f, mesh), v), vertex(o[mesh], v));
    const tongue = fittedPositions(f, 'tongue');
    let tip = 0;
    for (let v = 1; v < tongue.length / 3; v++) if (dot(vertex(tongue, v), f.forward) > dot(vertex(tongue, tip), f.forward)) tip = v;
    const gapMiddle = scale(add(moved('head', UPPER_LIP.inner), moved('head', LOWER_LIP.inner)), 0.5);
    const lift = dot(gapMiddle, f.up) - dot(moved('tongue', tip), f.up);
    translate(f, o, 'tongue', add(scale(f.up, lift), scale(f.forward, 3.4 * f.mouthUnit)));
  },
};

/** The deltas of one ARKit shape on this frame's geometry. */
export function arkitShape(frame: ExpressionFrame, name: ArkitName): Deltas {
  const out = zeroDeltas(frame);
  RECIPES[name](frame, out);
  return out;
}

