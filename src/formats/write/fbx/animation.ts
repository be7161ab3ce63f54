import type { AnimationClip } from '../../../model/avatar.ts';
import { quatToEulerXYZDegrees } from '../../../geometry/mesh/transform.ts';
import { ktime } from './header.ts';
import { int32, node, prop70, properties70, type FbxNode } from './node.ts';
import type { FbxScene } from './scene.ts';

/** KeyAttrFlags: linear interpolation (eInterpolationLinear). */
const LINEAR = 0x4;

function addCurve(scene: FbxScene, curveNode: bigint, channel: string, times: Float32Array, values: Float32Array): void {
  const curve = scene.add('AnimationCurve', '', '', [
    node('Default', [values[0] ?? 0]),
    node('KeyVer', [int32(4008)]),
    node('KeyTime', [BigInt64Array.from(times, ktime)]),
    node('KeyValueFloat', [values]),
    node('KeyAttrFlags', [Int32Array.of(LINEAR)]),
    node('KeyAttrDataFloat', [new Float32Array(4)]),
    node('KeyAttrRefCount', [Int32Array.of(times.length)]),
  ], 'AnimCurve');
  scene.connectProperty(curve, curveNode, `d|${channel}`);
}

function addCurveNode(scene: FbxScene, layer: bigint, name: string, channels: [string, Float32Array][], times: Float32Array): bigint {
  const id = scene.add('AnimationCurveNode', name, '', [
    properties70(channels.map(([c, v]) => prop70(`d|${c}`, 'Number', '', 'A', v[0] ?? 0))),
  ], 'AnimCurveNode');
  scene.connect(id, layer);
  for (const [c, v] of channels) addCurve(scene, id, c, times, v);
  return id;
}

/** Euler curves in degrees, unwrapped so that consecutive keys never jump by a full turn. */
export function eulerCurves(rotations: Float32Array): [Float32Array, Float32Array, Float32Array] {
  const n = rotations.length / 4;
  const out: [Float32Array, Float32Array, Float32Array] = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let k = 0; k < n; k++) {
    const e = quatToEulerXYZDegrees(rotations, k * 4);
    for (let a = 0; a < 3; a++) {
      let v = e[a];
      if (k > 0) v += 360 * Math.round((out[a][k - 1] - v) / 360);
      out[a][k] = v;
    }
  }
  return out;
}

/**
 * One AnimationStack with one layer per clip: bone rotations as Lcl Rotation Euler curves and
 * morph weights as DeformPercent (0..100) curves on every channel of that morph.
 */
export function addClip(scene: FbxScene, clip: AnimationClip, boneIds: bigint[], channels: Map<string, bigint>[]): void {
  const stop = ktime(clip.duration);
  const stack = scene.add('AnimationStack', clip.name, '', [
    properties70([
      prop70('LocalStart', 'KTime', 'Time', '', 0n),
      prop70('LocalStop', 'KTime', 'Time', '', stop),
      prop70('ReferenceStart', 'KTime', 'Time', '', 0n),
      prop70('ReferenceStop', 'KTime', 'Time', '', stop),
    ]),
  ], 'AnimStack');
  const layer = scene.add('AnimationLayer', 'BaseLayer', '', [], 'AnimLayer');
  scene.connect(layer, stack);
  for (const track of clip.boneTracks) {
    const [x, y, z] = eulerCurves(track.rotations);
    const id = addCurveNode(scene, layer, 'R', [['X', x], ['Y', y], ['Z', z]], track.times);
    scene.connectProperty(id, boneIds[track.bone], 'Lcl Rotation');
  }
  for (const track of clip.morphTracks) {
    const percent = track.weights.map((w) => w * 100);
    for (const meshChannels of channels) {
      const channel = meshChannels.get(track.morph);
      if (channel === undefined) continue;
      const id = addCurveNode(scene, layer, 'DeformPercent', [['DeformPercent', percent]], track.times);
      scene.connectProperty(id, channel, 'DeformPercent');
    }
  }
}

/** The Takes section naming each clip with its time range. */
export function takes(clips: AnimationClip[]): FbxNode {
  return node('Takes', [], [
    node('Current', [clips[0]?.name ?? '']),
    ...clips.map((c) => node('Take', [c.name], [
      node('FileName', [`${c.name}.tak`]),
      node('LocalTime', [0n, ktime(c.duration)]),
      node('ReferenceTime', [0n, ktime(c.duration)]),
    ])),
  ]);
}
