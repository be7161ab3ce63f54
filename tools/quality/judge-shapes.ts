/**
 * Judges observed blendshapes (observe-shapes.ts measures them): what each shape must visibly do, by
 * name, and the verdict of each observation against it.
 */
import type { FaceMeasures, ObservedAvatar, RegionChange, ShapeObservation, SideName } from './observe-shapes.ts';

/**
 * What a shape must visibly do. `landmarks`: the detector sees the motion and `checks` test it;
 * `pixels`: the detector does not see it (a motion along the view, inside the mouth, or too small for
 * its resolution), so the render must change in `region` (and `checks`, if any, test the mesh);
 * `none`: a neutral shape, which must change nothing.
 */
export interface Expectation {
  seen: 'landmarks' | 'pixels' | 'none';
  /** What it must do, in words (the table in docs/EXPRESSIONS.md). */
  says: string;
  /** Where the render must change. */
  region: keyof RegionChange;
  /** Small motions (lips pressed, dimples): a lower bar for the region's pixel change. */
  subtle?: boolean;
  /** The subject's side a Left/Right shape acts on: that half of the face must change more than the other. */
  side?: SideName;
  checks: [label: string, holds: (c: FaceMeasures, o: ShapeObservation, neutral: ObservedAvatar['neutral']) => boolean][];
}

/** Landmark changes below this (eye-centre distances) are detector noise (a render a few pixels different moves its points by up to 0.03). */
export const LANDMARK_NOISE = 0.03;
/** Mean grey-level change of a region that counts as a visible change; `subtle` shapes need half. */
export const PIXEL_CHANGE = 1;
/** The named half of the face must change this many times more than the other half. */
const SIDE_RATIO = 1.5;

type Check = Expectation['checks'][number];
const other = (s: SideName): SideName => (s === 'left' ? 'right' : 'left');
const cap = (s: SideName) => (s === 'left' ? 'Left' : 'Right');
/** Mouth width over height: smaller is rounder. */
const roundness = (m: FaceMeasures) => m.mouthWidth / m.mouthHeight;
const rounder: Check = ['rounds the lips (width/height falls by 10 %)', (_, o, n) => !!o.measures && roundness(o.measures) < 0.9 * roundness(n.measures)];
const narrower = (by: number): Check => [`narrows the mouth by ${by}`, (c) => c.mouthWidth < -by];
const wider = (by: number): Check => [`widens the mouth by ${by}`, (c) => c.mouthWidth > by];
const opens = (by: number): Check => [`opens the lips by ${by}`, (c) => c.mouthOpen > by];
/**
 * The detector's lip gap, less what it reads too much on this face's neutral lips (its gap minus the
 * mesh's there): on some faces it reads lips that meet as parted (p13-a: 0.135 for the mesh's 0.095).
 */
const seenLipGap = (o: ShapeObservation, n: ObservedAvatar['neutral']) => o.measures!.mouthOpen - (n.measures.mouthOpen - n.gaps.lips);
const closed: Check = ['lips closed (gap under 0.04, less the detector\'s over-read of the neutral lips)', (_, o, n) => !!o.measures && seenLipGap(o, n) < 0.04];
/**
 * mouthClose on jawOpen (both readings against jawOpen alone): it must take back at least a quarter of
 * jawOpen's opening, which jawOpen makes about 0.4 eye distances wide on the test photos.
 */
const closesOpenJaw: Check = ['closes jawOpen\'s lips by 0.1 (detector)', (c) => c.mouthOpen < -0.1];
const closesOnMesh: Check = ['closes a quarter of jawOpen\'s lip gap on the mesh', (_, o) => !!o.base && o.gaps.lips < 0.75 * o.base.gaps.lips];
const lipsApartOnMesh: Check = ['moves the lips apart on the mesh', (_, o, n) => o.gaps.lips > n.gaps.lips + 0.01];
/** The detector reads lips that meet as slightly parted on some faces (p13-a: 0.08 with the mesh's lips in contact): the mesh says whether they meet. */
const lipsMeetOnMesh: Check = ['lips meet on the mesh (centre gap under 0.01)', (_, o) => o.gaps.lips < 0.01];

function sided(make: (s: SideName, o: SideName) => Expectation): Record<SideName, Expectation> {
  return { left: make('left', 'right'), right: make('right', 'left') };
}

/**
 * The detector reads an avatar's eye opening with a prior of its own: the neutral's lids resting a fifth of the way
 * closed, 21 % closer on the mesh, read 10-13 % narrower (p03-a). The mesh says whether the lids moved; the
 * detector, whether the render shows it.
 */
const lids = (s: SideName) => (s === 'left' ? 'lidsLeft' : 'lidsRight');
const lidsMeetOnMesh = (s: SideName): Check => [`${s} lids meet on the mesh`, (_, o) => o.gaps[lids(s)] < 0.01];
const lidsCloserOnMesh = (s: SideName): Check => [`${s} lids a quarter closer on the mesh`, (_, o, n) => o.gaps[lids(s)] < 0.75 * n.gaps[lids(s)]];
const blink = sided((s, o) => ({
  seen: 'landmarks', says: `closes the ${s} eye, the ${o} stays open`, region: `eye${cap(s)}`, side: s,
  checks: [[`${s} eye closes by 0.05`, (c) => c.eyeOpen[s] < -0.05], [`${o} eye stays open`, (c) => c.eyeOpen[o] > -LANDMARK_NOISE], lidsMeetOnMesh(s)],
}));
const squint = sided((s, o) => ({
  seen: 'landmarks', says: `narrows the ${s} eye`, region: `eye${cap(s)}`, side: s,
  checks: [[`${s} eye narrows by 0.02`, (c) => c.eyeOpen[s] < -0.02], [`${o} eye stays open`, (c) => c.eyeOpen[o] > -LANDMARK_NOISE], lidsCloserOnMesh(s)],
}));
const wide = sided((s) => ({
  seen: 'pixels', says: `opens the ${s} eye wider (the detector's lids do not follow; lid gap on the mesh)`, region: `eye${cap(s)}`, side: s,
  checks: [[`${s} lids further apart on the mesh`, (_, o, n) => o.gaps[lids(s)] > n.gaps[lids(s)] + 0.01]],
}));
const irisStill = (s: SideName): Check => [`${s} iris stays`, (c) => Math.abs(c.irisOut[s]) < 0.02 && Math.abs(c.irisUp[s]) < 0.02];
const look = (dir: 'In' | 'Out' | 'Up' | 'Down') => sided((s, o) => ({
  seen: 'landmarks', says: `turns the ${s} iris ${dir.toLowerCase()}`, region: `eye${cap(s)}`, side: s,
  checks: [
    dir === 'In' ? [`${s} iris towards the nose by 0.04`, (c) => c.irisOut[s] < -0.04]
    : dir === 'Out' ? [`${s} iris towards the outer corner by 0.04`, (c) => c.irisOut[s] > 0.04]
    : dir === 'Up' ? [`${s} iris up by 0.01`, (c) => c.irisUp[s] > 0.01]
    : [`${s} iris down by 0.01`, (c) => c.irisUp[s] < -0.01],
    irisStill(o),
  ],
}));
const smile = sided((s, o) => ({
  seen: 'landmarks', says: `raises the ${s} mouth corner more than the ${o}`, region: 'mouth', side: s,
  checks: [[`${s} corner up by 0.03`, (c) => c.cornerHeight[s] > 0.03], [`more than the ${o} corner`, (c) => c.cornerHeight[s] > c.cornerHeight[o] + 0.015]],
}));
const frown = sided((s, o) => ({
  seen: 'landmarks', says: `lowers the ${s} mouth corner more than the ${o}`, region: 'mouth', side: s,
  checks: [[`${s} corner down by 0.03`, (c) => c.cornerHeight[s] < -0.03], [`more than the ${o} corner`, (c) => c.cornerHeight[s] < c.cornerHeight[o] - 0.015]],
}));
const stretch = sided((s, o) => ({
  seen: 'landmarks', says: `pulls the ${s} mouth corner outwards`, region: 'mouth', side: s,
  checks: [[`${s} corner out by 0.02`, (c) => c.cornerOut[s] > 0.02], [`more than the ${o} corner`, (c) => c.cornerOut[s] > c.cornerOut[o] + 0.015]],
}));
const mouthTo = sided((s, o) => ({
  seen: 'landmarks', says: `moves the mouth towards the subject's ${s}`, region: 'mouth',
  checks: [
    [`mouth towards the ${s} by 0.015`, (c) => (s === 'left' ? 1 : -1) * c.mouthX > 0.015],
    [`${o} corner moves in`, (c) => c.cornerOut[o] < -0.02],
  ],
}));
const pixelsOnly = (says: string, region: Expectation['region'], opts: Partial<Expectation> = {}): Expectation => ({ seen: 'pixels', says, region, checks: [], ...opts });
const dimple = sided((s) => pixelsOnly(`pulls the ${s} corner back (along the view)`, 'mouth', { side: s, subtle: true }));
const press = sided((s) => pixelsOnly(`presses the lips together on the ${s}`, 'mouth', { side: s, subtle: true }));
const lowerDown = sided((s) => pixelsOnly(`lowers the lower lip on the ${s}`, 'mouth', { side: s, checks: [lipsApartOnMesh] }));
const upperUp = sided((s) => pixelsOnly(`raises the upper lip on the ${s}`, 'mouth', { side: s, checks: [lipsApartOnMesh] }));
const browDown = sided((s) => pixelsOnly(`lowers the ${s} brow`, `eye${cap(s)}`, { side: s }));
const browOuterUp = sided((s) => pixelsOnly(`raises the ${s} brow's outer end`, `eye${cap(s)}`, { side: s }));
const cheekSquint = sided((s) => pixelsOnly(`raises the ${s} cheek under the eye`, `cheek${cap(s)}`, { side: s }));
const sneer = sided((s) => pixelsOnly(`wrinkles the nose on the ${s}`, s === 'left' ? 'halfLeft' : 'halfRight', { side: s, subtle: true }));
const lookIn = look('In'), lookOut = look('Out'), lookUp = look('Up'), lookDown = look('Down');

const ARKIT_EXPECTATIONS: Record<string, Expectation> = {
  eyeBlinkLeft: blink.left, eyeBlinkRight: blink.right,
  eyeSquintLeft: squint.left, eyeSquintRight: squint.right,
  eyeWideLeft: wide.left, eyeWideRight: wide.right,
  eyeLookInLeft: lookIn.left, eyeLookInRight: lookIn.right,
  eyeLookOutLeft: lookOut.left, eyeLookOutRight: lookOut.right,
  eyeLookUpLeft: lookUp.left, eyeLookUpRight: lookUp.right,
  eyeLookDownLeft: lookDown.left, eyeLookDownRight: lookDown.right,
  jawForward: pixelsOnly('pushes the jaw forward (along the view)', 'mouth'),
  jawLeft: pixelsOnly('shifts the jaw to the left (0.2 mouth units: under the detector\'s noise)', 'mouth'),
  jawRight: pixelsOnly('shifts the jaw to the right (0.2 mouth units: under the detector\'s noise)', 'mouth'),
  jawOpen: { seen: 'landmarks', says: 'opens the mouth', region: 'mouth', checks: [opens(0.2)] },
  mouthClose: { seen: 'landmarks', says: 'closes the lips of an open jaw (observed on jawOpen)', region: 'mouth', checks: [closesOpenJaw, closesOnMesh] },
  mouthFunnel: { seen: 'landmarks', says: 'funnels the lips: rounder, narrower', region: 'mouth', checks: [rounder, narrower(0.02)] },
  mouthPucker: { seen: 'landmarks', says: 'puckers the lips: narrower', region: 'mouth', checks: [narrower(0.04)] },
  mouthLeft: mouthTo.left, mouthRight: mouthTo.right,
  mouthSmileLeft: smile.left, mouthSmileRight: smile.right,
  mouthFrownLeft: frown.left, mouthFrownRight: frown.right,
  mouthDimpleLeft: dimple.left, mouthDimpleRight: dimple.right,
  mouthStretchLeft: stretch.left, mouthStretchRight: stretch.right,
  mouthRollLower: pixelsOnly('rolls the lower lip in', 'mouth'),
  mouthRollUpper: pixelsOnly('rolls the upper lip in', 'mouth'),
  mouthShrugLower: pixelsOnly('pushes the lower lip up', 'mouth'),
  mouthShrugUpper: pixelsOnly('raises the upper lip', 'mouth'),
  mouthPressLeft: press.left, mouthPressRight: press.right,
  mouthLowerDownLeft: lowerDown.left, mouthLowerDownRight: lowerDown.right,
  mouthUpperUpLeft: upperUp.left, mouthUpperUpRight: upperUp.right,
  browDownLeft: browDown.left, browDownRight: browDown.right,
  browInnerUp: pixelsOnly('raises the inner brows (both eyes\' regions change)', 'eyeLeft', { checks: [['the right brow too', (_, o) => o.pixels.eyeRight >= PIXEL_CHANGE]] }),
  browOuterUpLeft: browOuterUp.left, browOuterUpRight: browOuterUp.right,
  cheekPuff: pixelsOnly('puffs both cheeks out (along the view)', 'cheekLeft', { checks: [['the right cheek too', (_, o) => o.pixels.cheekRight >= PIXEL_CHANGE]] }),
  cheekSquintLeft: cheekSquint.left, cheekSquintRight: cheekSquint.right,
  noseSneerLeft: sneer.left, noseSneerRight: sneer.right,
  tongueOut: { seen: 'landmarks', says: 'opens the jaw and shows the tongue (the tongue itself: pixels)', region: 'mouth', checks: [opens(0.1)] },
};

const NEUTRAL: Expectation = { seen: 'none', says: 'changes nothing', region: 'mouth', checks: [] };
const speech = (says: string, ...checks: Check[]): Expectation => ({ seen: 'landmarks', says, region: 'mouth', checks });
const VISEME_EXPECTATIONS: Record<string, Expectation> = {
  sil: NEUTRAL,
  PP: speech('closes the lips', closed, lipsMeetOnMesh),
  FF: pixelsOnly('tucks the lower lip under the upper teeth', 'mouth', { checks: [['opens the lips less than 0.1', (c) => c.mouthOpen < 0.1]] }),
  TH: speech('opens the jaw for the tongue between the teeth', opens(0.05)),
  DD: speech('opens the jaw a little', opens(0.03)),
  kk: speech('opens the jaw', opens(0.03)),
  CH: speech('funnels the lips, jaw a little open', opens(0.03)),
  SS: speech('spreads the lips, teeth together', wider(0.02)),
  nn: speech('opens the jaw a little', opens(0.03)),
  RR: speech('rounds the lips, jaw a little open', opens(0.03)),
  aa: speech('opens the jaw wide', opens(0.15)),
  E: speech('opens the jaw half way, spreads the lips', opens(0.05), wider(0.03)),
  ih: speech('opens the jaw a little, spreads the lips', opens(0.03), wider(0.03)),
  oh: speech('opens the jaw, rounds the lips', opens(0.1)),
  ou: speech('rounds the lips, narrower', narrower(0.02), rounder),
};
/** Polly's visemes: those with an Oculus twin expect what it does. */
const POLLY_EXPECTATIONS: Record<string, Expectation> = {
  polly_sil: NEUTRAL,
  polly_p: VISEME_EXPECTATIONS.PP,
  polly_t: VISEME_EXPECTATIONS.DD,
  polly_sh: VISEME_EXPECTATIONS.CH,
  polly_th: VISEME_EXPECTATIONS.TH,
  polly_f: VISEME_EXPECTATIONS.FF,
  polly_k: VISEME_EXPECTATIONS.kk,
  polly_i: speech('spreads the lips, jaw almost closed', wider(0.03)),
  polly_r: VISEME_EXPECTATIONS.RR,
  polly_s: VISEME_EXPECTATIONS.SS,
  polly_u: VISEME_EXPECTATIONS.ou,
  polly_schwa: speech('opens the jaw half way', opens(0.05)),
  polly_a: speech('opens the jaw wide', opens(0.15)),
  polly_e: speech('opens the jaw half way, spreads the lips', opens(0.05), wider(0.03)),
  polly_eh: speech('opens the jaw more, spreads the lips a little', opens(0.05), wider(0.02)),
  polly_o: speech('opens the jaw, rounds the lips', opens(0.1)),
  polly_oh: speech('opens the jaw wide', opens(0.15)),
};

/** The expectation of a blendshape by its name; undefined for a name this table does not know. */
export function expectationOf(name: string): Expectation | undefined {
  if (name.startsWith('viseme_')) return VISEME_EXPECTATIONS[name.slice('viseme_'.length)];
  return POLLY_EXPECTATIONS[name] ?? ARKIT_EXPECTATIONS[name];
}

export interface ShapeVerdict {
  name: string;
  expectation?: Expectation;
  /** Each failed check, in words; empty when the shape does what its name says. */
  failures: string[];
}

/** Judges every observed shape against its expectation, the no-crossing rule, and its Left/Right twin's mirror. */
export function judgeShapes(observed: ObservedAvatar): ShapeVerdict[] {
  const { neutral } = observed;
  const byName = new Map(observed.shapes.map((o) => [o.name, o]));
  return observed.shapes.map((o) => {
    const e = expectationOf(o.name);
    const failures: string[] = [];
    if (!e) return { name: o.name, failures: ['no expectation for this shape'] };
    if (!o.detected || !o.change) return { name: o.name, expectation: e, failures: ['no face found on the render'] };
    for (const [gap, label] of [['lips', 'lips'], ['lidsLeft', 'left eyelids'], ['lidsRight', 'right eyelids']] as const) {
      if (o.gaps[gap] < 0) failures.push(`${label} pass through each other (gap ${o.gaps[gap].toFixed(3)})`);
    }
    if (e.seen === 'none') {
      const moved = Object.entries(o.pixels).filter(([, v]) => v >= PIXEL_CHANGE / 2);
      if (moved.length) failures.push(`changes the render (${moved.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')})`);
      return { name: o.name, expectation: e, failures };
    }
    const bar = e.subtle ? PIXEL_CHANGE / 2 : PIXEL_CHANGE;
    if (o.pixels[e.region] < bar) failures.push(`does nothing visible in ${e.region} (${o.pixels[e.region].toFixed(2)} < ${bar})`);
    for (const [label, holds] of e.checks) if (!holds(o.change, o, neutral)) failures.push(`expected: ${label}`);
    if (e.side) {
      const mine = o.pixels[e.side === 'left' ? 'halfLeft' : 'halfRight'], theirs = o.pixels[e.side === 'left' ? 'halfRight' : 'halfLeft'];
      if (!(mine > SIDE_RATIO * theirs)) failures.push(`moves the wrong side (its ${e.side} half ${mine.toFixed(2)}, the ${other(e.side)} ${theirs.toFixed(2)})`);
      const twin = byName.get(o.name.replace(e.side === 'left' ? /Left$/ : /Right$/, e.side === 'left' ? 'Right' : 'Left'));
      if (twin) {
        const twins = twin.pixels[e.side === 'left' ? 'halfRight' : 'halfLeft'];
        if (!(mine < 2 * twins && twins < 2 * mine)) failures.push(`does not mirror ${twin.name} (${mine.toFixed(2)} vs ${twins.toFixed(2)})`);
      }
    }
    return { name: o.name, expectation: e, failures };
  });
}
