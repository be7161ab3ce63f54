import { add, dot, scale, sub, vertex } from '../mesh/vec.ts';
import type { ArkitName } from './arkit.ts';
import { type Deltas, type ExpressionFrame } from './frame.ts';
import { incisorEdges, rotate, translate } from './primitives.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

/**
 * Visemes are mouth poses: weighted sums of the ARKit shapes of the same avatar, plus the
 * tongue's own motions (tip to the ridge behind the teeth, back raised), which ARKit lacks.
 */
export interface VisemeRecipe {
  arkit: Partial<Record<ArkitName, number>>;
  tongueTip?: number;
  tongueBack?: number;
  /** The tongue's tip slides forward into the gap between the front teeth (th), centred in it, not out past them. */
  tongueBetweenTeeth?: boolean;
  /**
   * The lips meet (bilabials): they close down to LIPS_PRESSED rather than to the usual clearance,
   * and the jaw rises to close half of the rest gap (the lower lip and jaw do most of the closing).
   */
  lipsMeet?: boolean;
}

/** The 15 Oculus (Meta) visemes under their usual blendshape names. */
export const OCULUS_VISEMES: Record<string, VisemeRecipe> = {
  viseme_sil: { arkit: {} },
  viseme_PP: { arkit: { mouthPressLeft: 1, mouthPressRight: 1 }, lipsMeet: true },
  viseme_FF: { arkit: { mouthRollLower: 0.8, mouthUpperUpLeft: 0.25, mouthUpperUpRight: 0.25, jawOpen: 0.08 } },
  viseme_TH: { arkit: { jawOpen: 0.35 }, tongueBetweenTeeth: true },
  viseme_DD: { arkit: { jawOpen: 0.22, mouthStretchLeft: 0.1, mouthStretchRight: 0.1 }, tongueTip: 0.9 },
  viseme_kk: { arkit: { jawOpen: 0.28, mouthStretchLeft: 0.1, mouthStretchRight: 0.1 }, tongueBack: 1 },
  viseme_CH: { arkit: { jawOpen: 0.15, mouthFunnel: 0.55, mouthPucker: 0.2 }, tongueTip: 0.5 },
  viseme_SS: { arkit: { jawOpen: 0.08, mouthStretchLeft: 0.3, mouthStretchRight: 0.3, mouthSmileLeft: 0.1, mouthSmileRight: 0.1 }, tongueTip: 0.4 },
  viseme_nn: { arkit: { jawOpen: 0.2 }, tongueTip: 1 },
  viseme_RR: { arkit: { jawOpen: 0.15, mouthPucker: 0.4, mouthFunnel: 0.25 }, tongueBack: 0.4 },
  viseme_aa: { arkit: { jawOpen: 0.7, mouthLowerDownLeft: 0.2, mouthLowerDownRight: 0.2 } },
  viseme_E: { arkit: { jawOpen: 0.35, mouthStretchLeft: 0.4, mouthStretchRight: 0.4, mouthSmileLeft: 0.15, mouthSmileRight: 0.15 } },
  viseme_ih: { arkit: { jawOpen: 0.22, mouthStretchLeft: 0.3, mouthStretchRight: 0.3 } },
  viseme_oh: { arkit: { jawOpen: 0.45, mouthFunnel: 0.6, mouthPucker: 0.2 } },
  viseme_ou: { arkit: { jawOpen: 0.12, mouthPucker: 0.9, mouthFunnel: 0.3 } },
};

/**
 * One blendshape per viseme value of Amazon Polly's speech marks. The values differ only by case
 * (S/s, T/t, E/e, O/o) and `@` is not a safe file name, so each shape has a spelled-out name:
 * no two names collide, not even on a case-insensitive file system (the blendshape zip).
 */
export const POLLY_VISEMES: Record<string, { name: string; recipe: VisemeRecipe }> = {
  sil: { name: 'polly_sil', recipe: OCULUS_VISEMES.viseme_sil },
  p: { name: 'polly_p', recipe: OCULUS_VISEMES.viseme_PP },
  t: { name: 'polly_t', recipe: OCULUS_VISEMES.viseme_DD },
  S: { name: 'polly_sh', recipe: OCULUS_VISEMES.viseme_CH },
  T: { name: 'polly_th', recipe: OCULUS_VISEMES.viseme_TH },
  f: { name: 'polly_f', recipe: OCULUS_VISEMES.viseme_FF },
  k: { name: 'polly_k', recipe: OCULUS_VISEMES.viseme_kk },
  i: { name: 'polly_i', recipe: { arkit: { jawOpen: 0.15, mouthStretchLeft: 0.5, mouthStretchRight: 0.5, mouthSmileLeft: 0.2, mouthSmileRight: 0.2 } } },
  r: { name: 'polly_r', recipe: OCULUS_VISEMES.viseme_RR },
  s: { name: 'polly_s', recipe: OCULUS_VISEMES.viseme_SS },
  u: { name: 'polly_u', recipe: OCULUS_VISEMES.viseme_ou },
  '@': { name: 'polly_schwa', recipe: { arkit: { jawOpen: 0.35 } } },
  a: { name: 'polly_a', recipe: { arkit: { jawOpen: 0.75, mouthLowerDownLeft: 0.2, mouthLowerDownRight: 0.2 } } },
  e: { name: 'polly_e', recipe: { arkit: { jawOpen: 0.35, mouthStretchLeft: 0.35, mouthStretchRight: 0.35 } } },
  E: { name: 'polly_eh', recipe: { arkit: { jawOpen: 0.45, mouthStretchLeft: 0.25, mouthStretchRight: 0.25 } } },
  o: { name: 'polly_o', recipe: OCULUS_VISEMES.viseme_oh },
  O: { name: 'polly_oh', recipe: { arkit: { jawOpen: 0.6, mouthFunnel: 0.4 } } },
};

const TONGUE_TIP_LIFT = (35 * Math.PI) / 180;

/** The tongue's own motions, added into `out`. */
export function tongueMotions(frame: ExpressionFrame, out: Deltas, recipe: VisemeRecipe): void {
  const p = frame.fitted.parts.tongue;
  // Each vertex's depth along the tongue, and the weights of the motions below: arrays, not callbacks (primitives.ts, Weights).
  const depth = new Float64Array(p.length / 3), weight = new Float64Array(depth.length);
  let front = -Infinity, back = Infinity;
  for (let v = 0; v < depth.length; v++) {
    depth[v] = dot(sub(vertex(p, v), frame.tonguePivot), frame.forward);
    front = Math.max(front, depth[v]);
    back = Math.min(back, depth[v]);
  }
  const middle = (front + back) / 2;
  if (recipe.tongueTip) {
    // The front half curls up about the tongue's middle towards the ridge behind the upper teeth.
    const pivot = add(vertex(p, 0), scale(frame.forward, middle - depth[0]));
    for (let v = 0; v < depth.length; v++) weight[v] = smoothstep((depth[v] - middle) / (front - middle));
    rotate(frame, out, 'tongue', pivot, frame.left, -TONGUE_TIP_LIFT * recipe.tongueTip, weight);
  }
  if (recipe.tongueBetweenTeeth) tipBetweenTeeth(frame, out);
  if (recipe.tongueBack) {
    const lift = 0.35 * frame.mouthUnit * recipe.tongueBack;
    for (let v = 0; v < depth.length; v++) weight[v] = 1 - smoothstep((depth[v] - back) / (middle - back));
    translate(frame, out, 'tongue', scale(frame.up, lift), weight);
  }
}

/** A tongue vertex where `out` has moved it. */
const movedTongue = (frame: ExpressionFrame, out: Deltas, v: number) => add(vertex(frame.fitted.parts.tongue, v), vertex(out.tongue, v));

/** How far (cm) the tip reaches past the front of the lower incisors: into the gap, not beyond the lips. */
const TIP_PAST_INCISORS = 0.1;

/**
 * Moves the whole tongue (as the jaw has already placed it in `out`) so that its tip sits halfway
 * between the upper and the lower incisors' edges, reaching just past the lower incisors' front.
 */
function tipBetweenTeeth(frame: ExpressionFrame, out: Deltas): void {
  const centre = frame.jawPivot;
  const { upperEdge, lowerEdge, lowerFront } = incisorEdges(frame, out);
  const tongue = frame.fitted.parts.tongue;
  let tip = 0;
  for (let v = 1; v < tongue.length / 3; v++) if (dot(movedTongue(frame, out, v), frame.forward) > dot(movedTongue(frame, out, tip), frame.forward)) tip = v;
  const t = sub(movedTongue(frame, out, tip), centre);
  const lift = (upperEdge + lowerEdge) / 2 - dot(t, frame.up);
  const ahead = lowerFront + TIP_PAST_INCISORS - dot(t, frame.forward);
  translate(frame, out, 'tongue', add(scale(frame.up, lift), scale(frame.forward, ahead)));
}
