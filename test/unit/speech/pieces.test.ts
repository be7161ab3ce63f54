import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignLabels } from '../../../src/speech/align.ts';
import { CLAUSE_PAUSE_MS, fliteText, parsePsdur, splitRun, widenPauses } from '../../../src/speech/flite.ts';
import { resample } from '../../../src/speech/resample.ts';
import { arpabetViseme, ipaViseme, VISEMES } from '../../../src/speech/visemes.ts';

test('align: labels follow the reference through substitutions, insertions and deletions', () => {
  // "the apple" said as dh iy ae p ax l, reference dh ax | ae p ax l
  assert.deepEqual(alignLabels(['dh', 'iy', 'ae', 'p', 'ax', 'l'], ['dh', 'ax', 'ae', 'p', 'ax', 'l'], [0, 0, 1, 1, 1, 1]), [0, 0, 1, 1, 1, 1]);
  assert.deepEqual(alignLabels(['a', 'x', 'b', 'c'], ['a', 'b', 'c'], [0, 1, 2]), [0, 0, 1, 2]);
  assert.deepEqual(alignLabels(['a', 'c'], ['a', 'b', 'c'], [0, 1, 2]), [0, 2]);
  assert.deepEqual(alignLabels(['z', 'a'], ['a'], [5]), [5, 5]);
});

test('flite: -psdur end times become spans; times restarting per phrase are continued', () => {
  const phones = parsePsdur('pau:0.220 hh:0.295 ax:0.342\npau:0.100 d:0.250 ');
  assert.deepEqual(
    phones.map((p) => [p.phone, Math.round(p.start), Math.round(p.end)]),
    [['pau', 0, 220], ['hh', 220, 295], ['ax', 295, 342], ['pau', 342, 442], ['d', 442, 592]],
  );
  assert.equal(fliteText('café & “naïve” 😀'), 'cafe and "naive"');
});

test('resample: keeps a tone’s frequency and the duration', () => {
  const from = 22050;
  const tone = Float32Array.from({ length: from }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / from) * 0.5);
  const out = resample(tone, from, 16000);
  assert.equal(out.length, 16000);
  let crossings = 0;
  for (let i = 1; i < out.length; i++) if (out[i - 1] < 0 && out[i] >= 0) crossings++;
  assert.ok(Math.abs(crossings - 440) <= 1, `${crossings} upward zero crossings`);
  const peak = out.slice(1000, 15000).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  assert.ok(Math.abs(peak - 0.5) < 0.02, `amplitude ${peak}`);
  // Above the new Nyquist frequency a tone is removed, not folded back.
  const high = Float32Array.from({ length: from }, (_, i) => Math.sin((2 * Math.PI * 10000 * i) / from));
  const folded = resample(high, from, 16000).slice(1000, 15000).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  assert.ok(folded < 0.05, `aliasing ${folded}`);
});

test('visemes: every flite phone and common IPA phonemes map to Polly visemes', () => {
  const flitePhones = 'aa ae ah ao aw ax axr ay b ch d dh eh el en er ey f g hh ih iy jh k l m n ng ow oy p r s sh t th uh uw v w y z zh pau'.split(' ');
  for (const p of flitePhones) assert.ok(VISEMES.includes(arpabetViseme(p)), p);
  assert.deepEqual(['p', 'f', 'th', 's', 'sh', 'k', 'r', 'iy', 'uw', 'ax', 'ae', 'ey', 'eh', 'ow', 'ao', 'pau'].map(arpabetViseme),
    ['p', 'f', 'T', 's', 'S', 'k', 'r', 'i', 'u', '@', 'a', 'e', 'E', 'o', 'O', 'sil']);
  assert.deepEqual(['b', 'v', 'ð', 'ʃ', 'ŋ', 'ɹ', 'ˈiː', 'ʊ', 'ə', 'æ', 'eɪ', 'ɛ', 'oʊ', 'ɔ̃', 'ʁ', ''].map(ipaViseme),
    ['p', 'f', 'T', 'S', 'k', 'r', 'i', 'u', '@', 'a', 'e', 'E', 'o', 'O', 'r', 'sil']);
});

test('flite runs of several sentences are cut in the middle of the pauses between them', () => {
  const phone = (viseme: 'sil' | 't' | 'a', start: number, end: number) => ({ viseme, start, end });
  const phones = [phone('sil', 0, 100), phone('t', 100, 200), phone('a', 200, 300), phone('sil', 300, 500), phone('t', 500, 600), phone('sil', 600, 700)];
  const audio = { samples: new Float32Array(700 * 16), sampleRate: 16000, phones, units: [] };
  const [first, second] = splitRun(audio, [-1, 0, 1, -1, 2, -1], [2, 1])!;
  assert.equal(first.samples.length, 400 * 16);
  assert.equal(second.samples.length, 300 * 16);
  assert.deepEqual(first.units, [{ start: 100, end: 200 }, { start: 200, end: 300 }]);
  assert.deepEqual(second.units, [{ start: 100, end: 200 }]);
  assert.deepEqual(second.phones.map((p) => [p.viseme, p.start, p.end]), [['sil', 0, 100], ['t', 100, 200], ['sil', 200, 300]]);
  // Without a pause between the sentences there is nowhere to cut.
  assert.equal(splitRun({ ...audio, phones: phones.map((p) => ({ ...p, viseme: p.viseme === 'sil' ? ('a' as const) : p.viseme })) }, [0, 0, 1, 1, 2, 2], [2, 1]), undefined);
});

test('flite pauses between spoken phones are widened to the clause pause in their middle; edge and long pauses are kept', () => {
  const phone = (viseme: 'sil' | 't' | 'a', start: number, end: number) => ({ viseme, start, end });
  const phones = [phone('sil', 0, 100), phone('t', 100, 200), phone('sil', 200, 300), phone('a', 300, 400), phone('sil', 400, 800), phone('t', 800, 900), phone('sil', 900, 1000)];
  const samples = Float32Array.from({ length: 1000 * 16 }, (_, i) => (i % 16) + 1);
  const widened = widenPauses(samples, 16000, phones);
  const extra = CLAUSE_PAUSE_MS - 100;
  assert.deepEqual(widened.phones.map((p) => [p.viseme, p.start, p.end]), [
    ['sil', 0, 100], ['t', 100, 200], ['sil', 200, 300 + extra], ['a', 300 + extra, 400 + extra],
    ['sil', 400 + extra, 800 + extra], ['t', 800 + extra, 900 + extra], ['sil', 900 + extra, 1000 + extra],
  ]);
  assert.equal(widened.samples.length, samples.length + extra * 16);
  // The silence goes in at the middle of the pause (250 ms); the audio before and after it is unchanged.
  assert.deepEqual(widened.samples.subarray(0, 250 * 16), samples.subarray(0, 250 * 16));
  assert.ok(widened.samples.subarray(250 * 16, (250 + extra) * 16).every((x) => x === 0));
  assert.deepEqual(widened.samples.subarray((250 + extra) * 16), samples.subarray(250 * 16));
});

