import type { AnimationClip, BoneTrack, MorphTrack, Quat } from '../../model/avatar.ts';
import { BONE } from '../template/types.ts';
import type { ArkitName } from './arkit.ts';

/**
 * The ARKit shapes the basic clips drive. An avatar with `basic` but without `expressions`
 * still gets these, so that it blinks, smiles and talks.
 */
export const BASIC_SHAPES: readonly ArkitName[] = [
  'eyeBlinkLeft', 'eyeBlinkRight', 'eyeSquintLeft', 'eyeSquintRight', 'eyeWideLeft', 'eyeWideRight',
  'jawOpen', 'mouthClose', 'mouthFunnel', 'mouthPucker', 'mouthSmileLeft', 'mouthSmileRight',
  'mouthStretchLeft', 'mouthStretchRight', 'browInnerUp', 'browOuterUpLeft', 'browOuterUpRight',
  'cheekSquintLeft', 'cheekSquintRight',
];

type Key = [time: number, value: number];
/** Euler angles in degrees about the template's axes: x (nod, positive looks down), y (turn to the subject's left), z (tilt). */
type Angles = [number, number, number];

const deg = Math.PI / 180;

/** Quaternion of rotations about x, then y, then z (degrees). */
function quat([x, y, z]: Angles): Quat {
  const [cx, sx] = [Math.cos((x * deg) / 2), Math.sin((x * deg) / 2)];
  const [cy, sy] = [Math.cos((y * deg) / 2), Math.sin((y * deg) / 2)];
  const [cz, sz] = [Math.cos((z * deg) / 2), Math.sin((z * deg) / 2)];
  // q = qz * qy * qx
  return [sx * cy * cz - cx * sy * sz, cx * sy * cz + sx * cy * sz, cx * cy * sz - sx * sy * cz, cx * cy * cz + sx * sy * sz];
}

function boneTrack(bone: number, keys: [number, Angles][]): BoneTrack {
  return { bone, times: Float32Array.from(keys.map(([t]) => t)), rotations: Float32Array.from(keys.flatMap(([, a]) => quat(a))) };
}

/** Samples a smooth periodic motion (sum of sines) into keys over `duration`, ending where it starts. */
function wave(duration: number, step: number, f: (t: number) => Angles): [number, Angles][] {
  const n = Math.round(duration / step);
  return Array.from({ length: n + 1 }, (_, i) => [(duration * i) / n, f((duration * i) / n)]);
}

/** The keys' value at `t` (linear between them, held past the ends). */
function valueAt(keys: Key[], t: number): number {
  const i = keys.findIndex(([k]) => k >= t);
  if (i <= 0) return keys[i === 0 ? 0 : keys.length - 1][1];
  const [[t0, v0], [t1, v1]] = [keys[i - 1], keys[i]];
  return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
}

/**
 * mouthClose keys for lips closed from `from` to `to` (seconds) while the jaw opens by the `jaw` keys: mouthClose is made
 * for jawOpen at the same weight (the lips meet where the two are equal; more pushes them into each other), so over
 * the closure it follows the jaw's weight, coming and going over `ramp` seconds.
 */
function lipsClosed(jaw: Key[], from: number, to: number, ramp = 0.05): Key[] {
  return [[from - ramp, 0], [from, valueAt(jaw, from)], ...jaw.filter(([t]) => t > from && t < to), [to, valueAt(jaw, to)], [to + ramp, 0]];
}

/** Clips driving the bones and those shapes of `available` it knows; shapes the avatar lacks are left out. */
export function buildBasicAnimations(available: readonly string[]): AnimationClip[] {
  const has = new Set(available);
  const morphs = (tracks: [string, Key[]][]): MorphTrack[] =>
    tracks.filter(([name]) => has.has(name)).map(([morph, keys]) => ({ morph, times: Float32Array.from(keys.map(([t]) => t)), weights: Float32Array.from(keys.map(([, w]) => w)) }));
  const blink = (at: number): Key[] => [[at, 0], [at + 0.07, 1], [at + 0.12, 1], [at + 0.25, 0]];
  const both = (names: [string, string], keys: Key[]): [string, Key[]][] => names.map((n) => [n, keys] as [string, Key[]]);
  const blinks = (times: number[], end: number): Key[] => [[0, 0], ...times.flatMap(blink), [end, 0]];

  const IDLE = 8;
  const idle: AnimationClip = {
    name: 'idle',
    duration: IDLE,
    loop: true,
    boneTracks: [
      // Slow head drift, a breath every four seconds in the neck, the eyes glancing about.
      boneTrack(BONE.head, wave(IDLE, 0.25, (t) => [1.2 * Math.sin((2 * Math.PI * t) / IDLE), 2 * Math.sin((2 * Math.PI * 2 * t) / IDLE + 1), 0.8 * Math.sin((2 * Math.PI * t) / IDLE + 2)])),
      boneTrack(BONE.neck, wave(IDLE, 0.25, (t) => [-0.6 * Math.sin((2 * Math.PI * 2 * t) / IDLE), 0, 0])),
      ...[BONE.eyeLeft, BONE.eyeRight].map((eye) =>
        boneTrack(eye, [[0, [0, 0, 0]], [1.8, [0, 0, 0]], [1.9, [-2, 5, 0]], [3.6, [-2, 5, 0]], [3.7, [1, -4, 0]], [5.5, [1, -4, 0]], [5.6, [0, 0, 0]], [IDLE, [0, 0, 0]]]),
      ),
    ],
    morphTracks: morphs(both(['eyeBlinkLeft', 'eyeBlinkRight'], blinks([1.2, 4.4, 6.9], IDLE))),
  };

  const smile: AnimationClip = {
    name: 'smile',
    duration: 2.5,
    loop: false,
    boneTracks: [boneTrack(BONE.head, [[0, [0, 0, 0]], [0.6, [-2, 0, 3]], [1.8, [-2, 0, 3]], [2.5, [0, 0, 0]]])],
    morphTracks: morphs([
      ...both(['mouthSmileLeft', 'mouthSmileRight'], [[0, 0], [0.5, 1], [1.8, 1], [2.5, 0]]),
      ...both(['cheekSquintLeft', 'cheekSquintRight'], [[0, 0], [0.5, 0.5], [1.8, 0.5], [2.5, 0]]),
      ...both(['eyeSquintLeft', 'eyeSquintRight'], [[0, 0], [0.5, 0.3], [1.8, 0.3], [2.5, 0]]),
    ]),
  };

  const surprise: AnimationClip = {
    name: 'surprise',
    duration: 2,
    loop: false,
    boneTracks: [boneTrack(BONE.head, [[0, [0, 0, 0]], [0.25, [-4, 0, 0]], [1.4, [-3, 0, 0]], [2, [0, 0, 0]]])],
    morphTracks: morphs([
      ['browInnerUp', [[0, 0], [0.2, 1], [1.4, 1], [2, 0]]],
      ...both(['browOuterUpLeft', 'browOuterUpRight'], [[0, 0], [0.2, 1], [1.4, 1], [2, 0]]),
      ...both(['eyeWideLeft', 'eyeWideRight'], [[0, 0], [0.2, 0.9], [1.4, 0.9], [2, 0]]),
      ['jawOpen', [[0, 0], [0.25, 0.45], [1.4, 0.4], [2, 0]]],
      ['mouthFunnel', [[0, 0], [0.25, 0.3], [1.4, 0.3], [2, 0]]],
    ]),
  };

  // A talking loop: syllables of open-close, with rounded and spread vowels and a closure.
  const TALK = 2.4;
  const syllables: [number, number][] = [[0.15, 0.45], [0.4, 0.2], [0.6, 0.55], [0.9, 0.3], [1.15, 0.5], [1.5, 0.25], [1.75, 0.6], [2.05, 0.3]];
  const jaw: Key[] = [[0, 0], ...syllables.flatMap(([t, open]): Key[] => [[t, open], [t + 0.12, open * 0.3]]), [TALK, 0]];
  const talk: AnimationClip = {
    name: 'talk',
    duration: TALK,
    loop: true,
    boneTracks: [
      boneTrack(BONE.head, wave(TALK, 0.2, (t) => [1.5 * Math.sin((2 * Math.PI * 2 * t) / TALK), 1.5 * Math.sin((2 * Math.PI * t) / TALK), 0])),
      // Without a jawOpen shape the jaw bone opens the mouth.
      ...(has.has('jawOpen') ? [] : [boneTrack(BONE.jaw, jaw.map(([t, w]): [number, Angles] => [t, [w * 14, 0, 0]]))]),
    ],
    morphTracks: morphs([
      ['jawOpen', jaw],
      ['mouthFunnel', [[0, 0], [0.55, 0], [0.65, 0.6], [0.85, 0], [1.7, 0], [1.8, 0.5], [2, 0], [TALK, 0]]],
      ['mouthPucker', [[0, 0], [1.05, 0], [1.15, 0.6], [1.35, 0], [TALK, 0]]],
      ...both(['mouthStretchLeft', 'mouthStretchRight'], [[0, 0], [0.3, 0], [0.4, 0.5], [0.55, 0], [1.4, 0], [1.5, 0.4], [1.65, 0], [TALK, 0]]),
      ['mouthClose', [[0, 0], ...lipsClosed(jaw, 0.98, 1.06), ...lipsClosed(jaw, 2.2, 2.3), [TALK, 0]]],
    ]),
  };
  return [idle, smile, surprise, talk];
}
