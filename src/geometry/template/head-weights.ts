import type { Vec3 } from '../../model/avatar.ts';
import { vertex } from '../mesh/vec.ts';
import { NECK_AXIS } from './bust.ts';
import { NECK_CUT_Y } from './head-shape.ts';
import { JAW_PIVOT } from './rig.ts';
import { BONE } from './types.ts';
import { smoothstep } from '../mesh/smoothstep.ts';

export const BONE_COUNT = Object.keys(BONE).length;

/** Angle below the jaw's forward horizontal, seen from the jaw pivot (radians). */
const jawAngle = (p: Vec3) => Math.atan2(JAW_PIVOT[1] - p[1], p[2] - JAW_PIVOT[2]);

/**
 * How far (cm) behind the jaw's angle its weight fades out. The jaw turned open carries the angle about 2 cm back;
 * over 3 cm the skin behind it, taking less of the turn, folded on 6 of the 18 test photos' 2.0 heads at jawOpen and
 * under the jaw bone's 20 degrees on all 18. The expression fit's basis keeps the 3 cm its photos' neutral heads were
 * fitted with (`jawBasisShare`; over 4 cm there as well, the observer failed three more shapes).
 */
export const JAW_FADE = { rig: 4, basis: 3 };
/**
 * Where (the template's height, cm) the jaw's weight starts fading out down the throat, and over how far. With the
 * jaw bone turned open 20 degrees, the skin under p12-a's chin (a full one, fitted lower than the template's) folded
 * into the throat over the rig's 5 cm from -9.5 (226 pairs of crossing triangles); from -11 over 7 cm none of the 18
 * test photos' heads folds there. The basis keeps the fade its photos' neutral heads were fitted with.
 */
export const THROAT_FADE = { rig: { top: -11, over: 7 }, basis: { top: -9.5, over: 5 } };
/** How far (cm) in front of the hinge the jaw's weight is whole: about at the jaw's angle. */
const JAW_WHOLE_AHEAD = 3.5;
/** The jaw's reach towards the back at the template's depth `z` (cm): whole from JAW_WHOLE_AHEAD on, 0 `fade` cm behind it. */
const jawFront = (z: number, fade: number) => smoothstep((z - JAW_PIVOT[2] - JAW_WHOLE_AHEAD + fade) / fade);
/** The jaw's reach down the throat at the template's height `y` (cm). */
const jawThroat = (y: number, fade: { top: number; over: number }) => 1 - smoothstep((fade.top - y) / fade.over);
/** The share of the rig's jaw weight at the template's point `p` that the expression fit's basis takes. */
export function jawBasisShare(p: Vec3): number {
  const rig = jawFront(p[2], JAW_FADE.rig) * jawThroat(p[1], THROAT_FADE.rig);
  return rig > 0 ? (jawFront(p[2], JAW_FADE.basis) * jawThroat(p[1], THROAT_FADE.basis)) / rig : 0;
}

/**
 * How much a head vertex follows the jaw: the parting runs between the inner lips (upper lip 0,
 * lower lip 1, corners a half) and continues from the mouth corners across the cheeks with a
 * widening band, fading out behind the jaw's angle (JAW_FADE) and down the throat (THROAT_FADE).
 */
export function jawWeights(positions: ArrayLike<number>, lipsInner: readonly number[]): (p: Vec3) => number {
  const half = lipsInner.length / 2;
  const chain = (from: number) => Array.from({ length: half + 1 }, (_, i) => vertex(positions, lipsInner[(from + i) % lipsInner.length])).sort((a, b) => a[0] - b[0]);
  const upper = chain(0), lower = chain(half);
  const at = (pts: Vec3[], x: number) => {
    if (x <= pts[0][0]) return jawAngle(pts[0]);
    for (let i = 1; i < pts.length; i++) {
      if (x <= pts[i][0]) {
        const t = (x - pts[i - 1][0]) / (pts[i][0] - pts[i - 1][0] || 1);
        return jawAngle(pts[i - 1]) * (1 - t) + jawAngle(pts[i]) * t;
      }
    }
    return jawAngle(pts[pts.length - 1]);
  };
  const cornerX = Math.max(...upper.map((p) => Math.abs(p[0])));
  return (p) => {
    const x = Math.max(-cornerX, Math.min(cornerX, p[0]));
    const up = at(upper, x), low = at(lower, x);
    const beyond = Math.abs(p[0]) - cornerX;
    // Narrow between the lips, wider towards the corners so that they stretch rather than shear.
    const band = Math.max((low - up) / 2, 0.01 + 0.06 * (x / cornerX) ** 4) + (beyond > 0 ? Math.min(0.15, beyond * 0.04) : 0);
    const part = (up + low) / 2;
    const w = smoothstep((jawAngle(p) - (part - band)) / (2 * band));
    return w * jawFront(p[2], JAW_FADE.rig) * jawThroat(p[1], THROAT_FADE.rig);
  };
}

/**
 * How much longer (cm) the neck's and the head's fades are where a joint turned towards them presses the skin
 * together than the 4.5 cm at the neck's sides, and from how far behind (the nape) or ahead of (the throat) the neck's
 * axis over how far they lengthen. Over 4.5 cm, the neck tilted back 20 degrees folded the nape on the 2.0 template
 * (122 pairs of crossing triangles) and on all 18 test photos' 2.0 heads (105-160; p03-a from 15 degrees), and the
 * head nodded 30 degrees folded the throat under the chin on both templates' (2.0: 231-277, 1.6: 100-137). Over 7.5
 * both are clear to 30 degrees.
 */
export const PRESSED_FADE = { extra: 3, nape: { from: 1, over: 3 }, throat: { from: 3, over: 3 } };
/** The neck's fade into the chest and the head's into the neck (cm) at a point `ahead` cm ahead of the neck's axis. */
const neckFade = (ahead: number) => 4.5 + PRESSED_FADE.extra * smoothstep((-ahead - PRESSED_FADE.nape.from) / PRESSED_FADE.nape.over);
const headFade = (ahead: number) => 4.5 + PRESSED_FADE.extra * smoothstep((ahead - PRESSED_FADE.throat.from) / PRESSED_FADE.throat.over);

/**
 * Dense weight row (one entry per bone) of a head vertex, by height: the head (with the jaw's
 * share) above the neck, the neck blending into the chest at the neck's base and the chest into
 * the spine low in the bust, so that turning any of them bends the neck or the shoulders smoothly.
 */
export function headRow(p: Vec3, jaw: number): number[] {
  const ahead = p[2] - NECK_AXIS[1];
  // The jaw keeps its share of the head's weight over the sides' fade: the throat's longer fade goes to the head bone
  // alone, so that the jaw's weights, which the avatars' shapes are made with, stay (within packing's rounding).
  const jawCarrier = smoothstep((p[1] + 13.5) / 4.5);
  const head = smoothstep((p[1] + 9 + headFade(ahead)) / headFade(ahead));
  // Below the cut the neck's share also fades out along the shoulders, away from the neck's axis, so
  // that turning the head leaves the shoulders with the chest.
  const out = Math.hypot(p[0] - NECK_AXIS[0], p[2] - NECK_AXIS[1]);
  const neck = smoothstep((p[1] + 15.5 + neckFade(ahead)) / neckFade(ahead)) * (p[1] < NECK_CUT_Y ? 1 - smoothstep((out - 6.5) / 4) : 1);
  const chest = smoothstep((p[1] + 32) / 6);
  const row = new Array<number>(BONE_COUNT).fill(0);
  row[BONE.head] = head - jawCarrier * jaw;
  row[BONE.jaw] = jawCarrier * jaw;
  row[BONE.neck] = (1 - head) * neck;
  row[BONE.chest] = (1 - head) * (1 - neck) * chest;
  row[BONE.spine] = (1 - head) * (1 - neck) * (1 - chest);
  return row;
}

export function singleBoneRow(bone: number): number[] {
  const row = new Array<number>(BONE_COUNT).fill(0);
  row[bone] = 1;
  return row;
}

/** Four strongest influences per vertex, renormalised. */
export function packSkin(rows: readonly number[][]): { joints: Uint16Array; weights: Float32Array } {
  const joints = new Uint16Array(rows.length * 4);
  const weights = new Float32Array(rows.length * 4);
  rows.forEach((row, v) => {
    const top = row.map((w, j) => [w, j]).filter(([w]) => w > 1e-4).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 4);
    const sum = top.reduce((s, [w]) => s + w, 0);
    top.forEach(([w, j], k) => {
      joints[v * 4 + k] = j;
      weights[v * 4 + k] = w / sum;
    });
  });
  return { joints, weights };
}
