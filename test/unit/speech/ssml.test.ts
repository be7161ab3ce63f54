import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SpeechError } from '../../../src/speech/errors.ts';
import type { SpeechChunk } from '../../../src/speech/plan.ts';
import { planSsml } from '../../../src/speech/ssml.ts';

const slice = (text: string, start: number, end: number) => Buffer.from(text).subarray(start, end).toString();

test('ssml: breaks, prosody, emphasis, say-as, sub, mark, p and s, vendor tags', () => {
  const ssml =
    '<speak><p><s>Héllo <mark name="m1"/>wörld</s><s>Again</s></p>' +
    '<break time="1.5s"/><break strength="strong"/>' +
    '<prosody rate="slow" pitch="+10%" volume="-6dB">slow <emphasis level="strong">bold</emphasis></prosody> ' +
    '<say-as interpret-as="characters">abc</say-as> <sub alias="World Wide Web">WWW</sub> ' +
    '<amazon:effect name="whispered">psst</amazon:effect> <say-as interpret-as="digits">42</say-as></speak>';
  const { plan } = planSsml(ssml);
  assert.deepEqual(plan.sentences.map((s) => slice(ssml, s.start, s.end)).slice(0, 2), ['Héllo <mark name="m1"/>wörld', 'Again']);
  const kinds = plan.items.map((i) => (i.kind === 'break' ? `break ${i.ms}` : `speech ${i.units.map((u) => u.spoken).join('|')}`));
  assert.deepEqual(kinds, [
    'speech Héllo|wörld',
    'speech Again',
    'break 2200',
    'speech slow',
    'speech bold',
    'speech A B C|World Wide Web|psst|4 2',
  ]);
  const chunks = plan.items.filter((i): i is SpeechChunk => i.kind === 'speech');
  assert.deepEqual(chunks[0].marks.map((m) => [m.name, m.beforeUnit, slice(ssml, m.start, m.end)]), [['m1', 1, '<mark name="m1"/>']]);
  assert.equal(chunks[2].prosody.rate, 0.8);
  assert.ok(Math.abs(chunks[2].prosody.pitch - 1.1) < 1e-9);
  assert.ok(Math.abs(chunks[2].prosody.volume - 10 ** (-6 / 20)) < 1e-9);
  assert.ok(chunks[3].prosody.rate < chunks[2].prosody.rate, 'emphasis slows down inside prosody');
  const last = chunks[4].units;
  assert.deepEqual(last.map((u) => slice(ssml, u.start, u.end)), ['abc', 'WWW', 'psst', '42']);
});

test('ssml: malformed documents and invalid values give 40110', () => {
  const bad = [
    '<speak>unclosed',
    '<speak><p>mismatch</s></speak>',
    'plain text',
    '<voice>not speak</voice>',
    '<speak>a <break time="soon"/></speak>',
    '<speak><break strength="huge"/>a</speak>',
    '<speak><prosody rate="warp">a</prosody></speak>',
    '<speak><prosody volume="11">a</prosody></speak>',
    '<speak><sub>no alias</sub></speak>',
    '<speak><mark/>a</speak>',
    '<speak><emphasis level="max">a</emphasis></speak>',
    '<speak><say-as>a</say-as></speak>',
    '<speak>fish & chips</speak>',
  ];
  for (const ssml of bad) {
    assert.throws(() => planSsml(ssml), (e: unknown) => e instanceof SpeechError && e.code === 40110, ssml);
  }
});
