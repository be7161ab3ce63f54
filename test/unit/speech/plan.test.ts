import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planPlainText, type SpeechChunk } from '../../../src/speech/plan.ts';

const slice = (text: string, start: number, end: number) => Buffer.from(text).subarray(start, end).toString();

test('plain text: sentences split after . ! ? but not after abbreviations or initials', () => {
  const text = 'Dr. Smith met J. R. Jones at 3 p.m. today! Did he? Yes.';
  const { plan } = planPlainText(text);
  assert.deepEqual(
    plan.sentences.map((s) => slice(text, s.start, s.end)),
    ['Dr. Smith met J. R. Jones at 3 p.m. today!', 'Did he?', 'Yes.'],
  );
});

test('plain text: word ranges are UTF-8 byte offsets without surrounding punctuation', () => {
  const text = '«Grüße», 世界! — naïve 😀 (café).';
  const { plan, spokenLength } = planPlainText(text);
  const units = plan.items.flatMap((i) => (i.kind === 'speech' ? i.units : []));
  assert.deepEqual(
    units.map((u) => [slice(text, u.start, u.end), u.word]),
    [['Grüße', true], ['世界', true], ['—', false], ['naïve', true], ['😀', false], ['café', true]],
  );
  assert.equal(spokenLength, units.reduce((n, u) => n + u.spoken.length, 0));
  assert.ok(plan.items.every((i) => i.kind === 'speech' && (i as SpeechChunk).sentence >= 0));
});

test('plain text: lone surrogates count as the 3-byte replacement character TextEncoder writes', () => {
  const text = 'a\ud800 b \udc00c d';
  const bytes = new TextEncoder().encode(text);
  const { plan } = planPlainText(text);
  const units = plan.items.flatMap((i) => (i.kind === 'speech' ? i.units : []));
  assert.deepEqual(units.map((u) => [u.start, u.end]), [[0, 1], [5, 6], [10, 11], [12, 13]]);
  assert.equal(new TextDecoder().decode(bytes.subarray(7, 11)), '\ufffdc', 'the lone surrogate takes bytes 7 to 10');
  assert.equal(bytes.length, 13);
});
