import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createSpeechEngine, DEFAULT_VOICE, MAX_SPOKEN_CHARS, OUTPUT_SAMPLE_RATE, parseModes, SENTENCE_PAUSE_MS, SpeechError } from '../../../src/speech/index.ts';
import { medianF0, parseMarks, readMp3Frames, readOggVorbis, readPcm16, readRiffWav, rms, type Mark } from '../../helpers/audio-check.ts';

const engine = createSpeechEngine({ poolSize: 2 });
after(() => engine.close());

const SENTENCE = 'Glue the sheet to the dark blue background. It is easy to tell the depth of a well.';
const RATE = OUTPUT_SAMPLE_RATE;

async function speak(text: string, mode: string, extra: { type?: 'text' | 'ssml'; voice?: string } = {}) {
  const result = await engine.synthesize({ text, ...extra }, parseModes(mode));
  return { result, marks: result.marks ? parseMarks(result.marks.data) : [] };
}

async function wavAndMarks(text: string, extra: { type?: 'text' | 'ssml'; voice?: string } = {}) {
  const { result, marks } = await speak(text, 'wav,json', extra);
  return { wav: readRiffWav(result.audio!.data), marks };
}

const slice = (text: string, m: Mark) => Buffer.from(text).subarray(m.start, m.end).toString();

test('every audio format decodes at the documented rate with the length of the speech', async () => {
  const { result: wavResult } = await speak(SENTENCE, 'wav');
  const wav = readRiffWav(wavResult.audio!.data);
  assert.deepEqual([wav.sampleRate, wav.channels, wav.bits], [16000, 1, 16]);
  assert.equal(wavResult.audio!.mimeType, 'audio/wav');
  const seconds = wav.samples.length / RATE;
  assert.ok(seconds > 3 && seconds < 8, `${seconds} s of speech`);
  assert.equal(wavResult.audio!.durationMs, Math.round(seconds * 1000));
  assert.ok(rms(wav.samples, 0, wav.samples.length) > 0.02, 'the audio is not silent');

  const pcm = await speak(SENTENCE, 'pcm');
  assert.equal(pcm.result.audio!.extension, 'pcm');
  assert.deepEqual(readPcm16(pcm.result.audio!.data), wav.samples, 'PCM is the WAV data without header');

  const ogg = await speak(SENTENCE, 'ogg');
  const vorbis = readOggVorbis(ogg.result.audio!.data);
  assert.deepEqual([vorbis.sampleRate, vorbis.channels, vorbis.samples], [16000, 1, wav.samples.length]);
  assert.equal(ogg.result.audio!.mimeType, 'audio/ogg');

  const mp3 = await speak(SENTENCE, 'mp3');
  const frames = readMp3Frames(mp3.result.audio!.data);
  assert.deepEqual([frames.sampleRate, frames.channels], [16000, 1]);
  const extra = frames.samples - wav.samples.length;
  assert.ok(extra >= 1105 && extra < 1105 + 2 * 576, `MP3 frames hold ${extra} samples more than the speech`);
  assert.equal(mp3.result.audio!.mimeType, 'audio/mpeg');
});

/** Checks visemes against the energy of the same audio: `sil` spans are quiet, the others mostly loud. */
function assertVisemesOnSpeech(wav: { samples: Int16Array }, marks: Mark[], voice: string) {
  const visemes = marks.filter((m) => m.type === 'viseme');
  const spans = visemes.map((m, i) => {
    const from = Math.round((m.time / 1000) * RATE);
    const to = i + 1 < visemes.length ? Math.round((visemes[i + 1].time / 1000) * RATE) : wav.samples.length;
    return { value: m.value, level: rms(wav.samples, from, to), ms: ((to - from) / RATE) * 1000 };
  });
  const silent = spans.filter((s) => s.value === 'sil' && s.ms >= 20);
  const speech = spans.filter((s) => s.value !== 'sil');
  assert.ok(silent.length >= 2 && speech.length >= 20, `${voice}: ${silent.length} silences, ${speech.length} visemes`);
  for (const s of silent) assert.ok(s.level < 0.005, `${voice}: sil over ${s.ms} ms has level ${s.level}`);
  const loud = speech.filter((s) => s.level > 0.005).length / speech.length;
  assert.ok(loud >= 0.85, `${voice}: only ${(loud * 100).toFixed(0)} % of visemes fall on speech`);
  const inside = visemes.every((m) => m.time >= 0 && m.time <= (wav.samples.length / RATE) * 1000);
  assert.ok(inside, `${voice}: visemes within the audio`);
}

for (const voice of [DEFAULT_VOICE, 'slt', 'espeak-en-US', 'Hans']) {
  test(`visemes fall on speech and sil on silences (${voice})`, async () => {
    const text = voice === 'Hans' ? 'Der Hund läuft schnell über die grüne Wiese. Dann schläft er.' : SENTENCE;
    const { wav, marks } = await wavAndMarks(text, { voice });
    assertVisemesOnSpeech(wav, marks, voice);
  });
}

for (const voice of ['slt', 'espeak-de']) {
  test(`word marks are in order and their byte offsets slice the input to the word (${voice})`, async () => {
    const text = 'Grüße aus Köln — the naïve café sells 3 crêpes, “très” bien! 😀 Done.';
    const { wav, marks } = await wavAndMarks(text, { voice });
    const words = marks.filter((m) => m.type === 'word');
    assert.deepEqual(words.map((m) => m.value), ['Grüße', 'aus', 'Köln', 'the', 'naïve', 'café', 'sells', '3', 'crêpes', 'très', 'bien', 'Done']);
    for (const w of words) assert.equal(slice(text, w), w.value);
    for (let i = 1; i < words.length; i++) {
      assert.ok(words[i].time >= words[i - 1].time, `${words[i].value} after ${words[i - 1].value}`);
      assert.ok(words[i].start! > words[i - 1].start!);
    }
    assert.ok(words[words.length - 1].time > words[0].time + 1000, 'words spread over the audio');
    // Each word starts where the voice is audible within 150 ms.
    for (const w of words) {
      const at = Math.round((w.time / 1000) * RATE);
      assert.ok(rms(wav.samples, at, at + 0.15 * RATE) > 0.01, `"${w.value}" at ${w.time} ms is silent`);
    }
    const sentences = marks.filter((m) => m.type === 'sentence');
    assert.deepEqual(sentences.map((m) => slice(text, m)), ['Grüße aus Köln — the naïve café sells 3 crêpes, “très” bien!', '😀 Done.']);
    assert.ok(sentences[1].time > sentences[0].time);
  });
}

test('SSML breaks lengthen the audio by their time', async () => {
  const plain = await speak('<speak>One two.</speak>', 'pcm', { type: 'ssml' });
  const paused = await speak('<speak>One <break time="1500ms"/> two.</speak>', 'pcm', { type: 'ssml' });
  const strong = await speak('<speak>One <break strength="x-strong"/> two.</speak>', 'pcm', { type: 'ssml' });
  const gain = paused.result.audio!.durationMs - plain.result.audio!.durationMs;
  assert.ok(gain >= 1300 && gain <= 2200, `a 1.5 s break added ${gain} ms`);
  assert.ok(strong.result.audio!.durationMs - plain.result.audio!.durationMs >= 1000);
});

/** Longest run of 10 ms frames below the silence level between two times (ms). */
function longestSilenceMs(samples: Int16Array, fromMs: number, toMs: number): number {
  const frame = RATE / 100;
  let [run, longest] = [0, 0];
  for (let at = Math.round((fromMs / 1000) * RATE); at + frame <= Math.round((toMs / 1000) * RATE); at += frame) {
    run = rms(samples, at, at + frame) < 0.003 ? run + 10 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

test('consecutive sentences are parted by the sentence pause; an SSML break between them sets the pause instead', async () => {
  const gap = async (text: string, type: 'text' | 'ssml') => {
    const { wav, marks } = await wavAndMarks(text, { type });
    const word = (value: string) => marks.find((m) => m.type === 'word' && m.value === value)!.time;
    return longestSilenceMs(wav.samples, word('sheet'), word('Rice'));
  };
  const plain = await gap('Glue the sheet. Rice is often served.', 'text');
  assert.ok(plain >= SENTENCE_PAUSE_MS - 40 && plain <= SENTENCE_PAUSE_MS + 150, `${plain} ms between the sentences`);
  const ssml = await gap('<speak><s>Glue the sheet</s><s>Rice is often served.</s></speak>', 'ssml');
  assert.ok(ssml >= SENTENCE_PAUSE_MS - 40, `${ssml} ms between <s> elements`);
  const broken = await gap('<speak>Glue the sheet.<break time="200ms"/> Rice is often served.</speak>', 'ssml');
  assert.ok(broken >= 150 && broken < SENTENCE_PAUSE_MS - 200, `${broken} ms with a 200 ms break`);
});

test('prosody pitch moves the default voice by its factor and keeps its length', async () => {
  const say = async (pitch: string) => {
    const text = `<speak><prosody pitch="${pitch}">${SENTENCE}</prosody></speak>`;
    const { wav, marks } = await wavAndMarks(text, { type: 'ssml', voice: DEFAULT_VOICE });
    assertVisemesOnSpeech(wav, marks, `${DEFAULT_VOICE} ${pitch}`);
    return { f0: medianF0(wav.samples, RATE), ms: (wav.samples.length / RATE) * 1000 };
  };
  const [low, normal, high] = [await say('-20%'), await say('+0%'), await say('+20%')];
  assert.ok(high.f0 / normal.f0 > 1.1 && high.f0 / normal.f0 < 1.3, `+20 %: ${normal.f0} -> ${high.f0} Hz`);
  assert.ok(low.f0 / normal.f0 > 0.7 && low.f0 / normal.f0 < 0.9, `-20 %: ${normal.f0} -> ${low.f0} Hz`);
  for (const other of [low, high]) assert.ok(Math.abs(other.ms - normal.ms) < 0.02 * normal.ms, `${other.ms} vs ${normal.ms} ms`);
});

test('<mark> comes back as an ssml mark at the time of the following word', async () => {
  const ssml = '<speak>The quick brown fox <mark name="jump"/>jumps over <break time="1s"/><mark name="after-break"/>the lazy dog.<mark name="end"/></speak>';
  const { wav, marks } = await wavAndMarks(ssml, { type: 'ssml' });
  const ssmlMarks = marks.filter((m) => m.type === 'ssml');
  assert.deepEqual(ssmlMarks.map((m) => m.value), ['jump', 'after-break', 'end']);
  assert.deepEqual(ssmlMarks.map((m) => slice(ssml, m)), ['<mark name="jump"/>', '<mark name="after-break"/>', '<mark name="end"/>']);
  const word = (value: string) => marks.find((m) => m.type === 'word' && m.value === value)!;
  assert.equal(ssmlMarks[0].time, word('jumps').time);
  assert.equal(ssmlMarks[1].time, word('the').time);
  const over = word('over').time;
  assert.ok(ssmlMarks[1].time - over >= 1000, 'the mark after the break comes after the silence');
  const total = (wav.samples.length / RATE) * 1000;
  assert.ok(ssmlMarks[2].time > word('dog').time && ssmlMarks[2].time <= total, 'the final mark is at the end of the speech');
  // Marks are ordered by time.
  for (let i = 1; i < marks.length; i++) assert.ok(marks[i].time >= marks[i - 1].time);
});

test('MP3 marks are shifted by the decoder delay the MP3 stream has', async () => {
  const wav = await speak(SENTENCE, 'wav,json');
  const mp3 = await speak(SENTENCE, 'json,mp3');
  const firstWord = (marks: Mark[]) => marks.find((m) => m.type === 'word')!.time;
  assert.equal(firstWord(mp3.marks) - firstWord(wav.marks), Math.round(firstWord(wav.marks) + 1105 / 16) - firstWord(wav.marks));
});

test('prosody rate changes the length of the speech', async () => {
  const normal = await speak('<speak>The birch canoe slid on the smooth planks.</speak>', 'pcm', { type: 'ssml' });
  const slow = await speak('<speak><prosody rate="x-slow">The birch canoe slid on the smooth planks.</prosody></speak>', 'pcm', { type: 'ssml' });
  assert.ok(slow.result.audio!.durationMs > normal.result.audio!.durationMs * 1.3);
});

test('request errors carry their codes', async () => {
  const code = async (body: unknown, mode = 'wav') => {
    try {
      await engine.synthesize(body, parseModes(mode));
    } catch (e) {
      assert.ok(e instanceof SpeechError, String(e));
      assert.equal(e.httpStatus, 400);
      return e.code;
    }
    return 0;
  };
  assert.equal(await code({ text: '<speak>bad <b>ssml</speak>', type: 'ssml' }), 40110);
  assert.equal(await code({ text: 'not ssml', type: 'ssml' }), 40110);
  assert.equal(await code({ text: '' }), 10001);
  assert.equal(await code({ text: '   ' }), 10001);
  assert.equal(await code({}), 10001);
  assert.equal(await code({ text: 42 }), 10001);
  assert.equal(await code({ text: 'hi', type: 'html' }), 10001);
  assert.equal(await code({ text: 'hi', voice: 7 }), 10001);
  assert.equal(await code({ text: 'a '.repeat(MAX_SPOKEN_CHARS) }), 10001);
  assert.equal(await code({ text: '<speak><break time="1s"/></speak>', type: 'ssml' }), 10001);
  assert.equal(await code({ text: 'hi', voice: 'Nobody' }), 51300);
  assert.equal(await code({ text: 'hi' }, 'json'), 0);
  assert.equal(await code({ text: '<speak><amazon:effect name="whispered">quiet</amazon:effect> please</speak>', type: 'ssml' }), 0);
});
