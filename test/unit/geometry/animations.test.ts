import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnimationClip } from '../../../src/model/avatar.ts';
import { BASIC_SHAPES, buildBasicAnimations } from '../../../src/geometry/expressions/animations.ts';
import { blendshapeNames } from '../../../src/geometry/expressions/blendshapes.ts';
import { BONE } from '../../../src/geometry/template/types.ts';

const all = blendshapeNames(['expressions', 'visemes']);

/** Linear interpolation of a track's value at time t. */
function sample(times: Float32Array, values: Float32Array, stride: number, t: number): number[] {
  let i = 0;
  while (i < times.length - 1 && times[i + 1] < t) i++;
  const j = Math.min(i + 1, times.length - 1);
  const f = j === i ? 0 : Math.min(1, Math.max(0, (t - times[i]) / (times[j] - times[i])));
  return Array.from({ length: stride }, (_, k) => values[i * stride + k] * (1 - f) + values[j * stride + k] * f);
}

function checkClip(clip: AnimationClip, available: Set<string>) {
  const tracks = [...clip.boneTracks.map((b) => b.times), ...clip.morphTracks.map((m) => m.times)];
  for (const times of tracks) {
    for (let i = 1; i < times.length; i++) assert.ok(times[i] >= times[i - 1], `${clip.name}: times ascend`);
    assert.ok(times[0] >= 0 && times[times.length - 1] <= clip.duration + 1e-6, `${clip.name}: keys inside the clip`);
  }
  for (const b of clip.boneTracks) {
    assert.ok(Object.values(BONE).includes(b.bone as never));
    assert.equal(b.rotations.length, b.times.length * 4);
    for (let i = 0; i < b.times.length; i++) {
      const q = b.rotations.slice(4 * i, 4 * i + 4);
      assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-5, 'unit quaternions');
    }
    if (clip.loop) {
      const [start, end] = [sample(b.times, b.rotations, 4, 0), sample(b.times, b.rotations, 4, clip.duration)];
      assert.ok(start.every((x, k) => Math.abs(x - end[k]) < 1e-5), `${clip.name}: bone ${b.bone} loops seamlessly`);
    }
  }
  for (const m of clip.morphTracks) {
    assert.ok(available.has(m.morph), `${clip.name} drives ${m.morph}, which exists`);
    assert.equal(m.weights.length, m.times.length);
    assert.ok(m.weights.every((w) => w >= 0 && w <= 1));
    if (clip.loop) assert.equal(m.weights[0], m.weights[m.weights.length - 1]);
  }
}

test('basic clips: idle (blinks, head, eyes, breathing), smile, surprise and a talking loop', () => {
  const clips = buildBasicAnimations(all);
  assert.deepEqual(clips.map((c) => [c.name, c.loop]), [['idle', true], ['smile', false], ['surprise', false], ['talk', true]]);
  for (const clip of clips) checkClip(clip, new Set(all));
  const [idle, smile, surprise, talk] = clips;
  const blink = idle.morphTracks.find((m) => m.morph === 'eyeBlinkLeft')!;
  assert.ok(blink.weights.filter((w) => w === 1).length >= 4, 'the idle clip blinks more than once');
  assert.ok(idle.morphTracks.some((m) => m.morph === 'eyeBlinkRight'));
  assert.deepEqual(new Set(idle.boneTracks.map((b) => b.bone)), new Set([BONE.head, BONE.neck, BONE.eyeLeft, BONE.eyeRight]));
  assert.ok(Math.max(...smile.morphTracks.find((m) => m.morph === 'mouthSmileLeft')!.weights) === 1);
  assert.ok(surprise.morphTracks.some((m) => m.morph === 'browInnerUp') && surprise.morphTracks.some((m) => m.morph === 'eyeWideLeft'));
  const jaw = talk.morphTracks.find((m) => m.morph === 'jawOpen')!;
  assert.ok(jaw.weights.filter((w) => w > 0.4).length >= 3, 'the talking loop opens the mouth again and again');
  assert.ok(!talk.boneTracks.some((b) => b.bone === BONE.jaw), 'with a jawOpen shape the jaw bone stays');
  // mouthClose is made for jawOpen at the same weight: the lips meet where the two are equal, and cross where it is more.
  const close = talk.morphTracks.find((m) => m.morph === 'mouthClose')!;
  let closed = 0;
  for (let t = 0; t <= talk.duration; t += 0.005) {
    const [c] = sample(close.times, close.weights, 1, t), [j] = sample(jaw.times, jaw.weights, 1, t);
    assert.ok(c <= j + 1e-6, `talk at ${t.toFixed(3)} s: mouthClose ${c.toFixed(3)} over jawOpen ${j.toFixed(3)}`);
    if (c > 0.05 && Math.abs(c - j) < 1e-6) closed += 0.005;
  }
  assert.ok(closed >= 0.1, `the talking loop closes the lips (${closed.toFixed(3)} s)`);
});

test('with only the basic shapes the clips still play; with none the jaw bone talks', () => {
  const basic = blendshapeNames(['basic']);
  assert.deepEqual(basic, blendshapeNames(['expressions']).filter((n) => BASIC_SHAPES.includes(n as never)));
  assert.deepEqual(blendshapeNames(['basic', 'expressions']), blendshapeNames(['expressions']));
  for (const clip of buildBasicAnimations(basic)) checkClip(clip, new Set(basic));
  const bare = buildBasicAnimations([]);
  for (const clip of bare) assert.equal(clip.morphTracks.length, 0);
  const talk = bare.find((c) => c.name === 'talk')!;
  const jaw = talk.boneTracks.find((b) => b.bone === BONE.jaw)!;
  assert.ok(jaw.rotations.some((x, i) => i % 4 === 0 && x > 0.05), 'the jaw bone opens');
});
