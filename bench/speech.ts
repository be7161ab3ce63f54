import { setFlagsFromString } from 'node:v8';
import type { Figure } from './figure.ts';
import { measure as measureRuns } from './timing.ts';
import { FliteEngine } from '../src/speech/flite.ts';
import { createSpeechEngine, DEFAULT_VOICE, MAX_SPOKEN_CHARS, parseModes, resolveVoice, type SpeechEngine } from '../src/speech/index.ts';
import { planPlainText } from '../src/speech/plan.ts';
import { synthesizeJob } from '../src/speech/synthesis.ts';
import { HARVARD_SENTENCES, harvardSentenceWordErrorRate, harvardWordErrorRate, recognitionUnavailable } from '../tools/speech-recognition.ts';

const RUNS = 5;
const PARAGRAPH = HARVARD_SENTENCES.slice(0, 10).join(' ');
const SENTENCE = HARVARD_SENTENCES[0];

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const measure = (fn: () => unknown) => measureRuns(fn, RUNS);

const time = async (fn: () => unknown) => (await measure(fn)).wall;

async function audioMs(engine: SpeechEngine, text: string, voice?: string): Promise<number> {
  return (await engine.synthesize({ text, voice }, parseModes('pcm'))).audio!.durationMs;
}

/**
 * Real-time factor (synthesis time / audio length) of the default voice through the whole library (worker
 * process, alignment of word marks, visemes, marks, encoding) beside flite's own synthesis of the same text,
 * in wall-clock and CPU time; the time of a one-sentence request beside a one-word request; the word error
 * rate of the default voice beside the female flite voice slt, per sentence (the goal's protocol) and as one text.
 */
export default async function (): Promise<Figure[]> {
  const engine = createSpeechEngine({ poolSize: 1 });
  try {
    const figures: Figure[] = [];
    const voice = resolveVoice(DEFAULT_VOICE);
    const paragraphMs = await audioMs(engine, PARAGRAPH);
    const library = await time(() => engine.synthesize({ text: PARAGRAPH }, parseModes('pcm,json')));
    // In this process too, the flite runs need V8's fast API calls off (see src/speech/pool.ts).
    setFlagsFromString('--no-turbo-fast-api-calls');
    const flite = new FliteEngine();
    const fliteRun = flite as unknown as { run(args: string[], text: string, wave: boolean): unknown };
    const raw = await measure(() => fliteRun.run(['-voice', voice.engineVoice], PARAGRAPH, true));
    // The worker's whole job (plan, word alignment, visemes, marks, WAV) in this process, for its CPU time.
    const input = new TextEncoder().encode(PARAGRAPH);
    const job = () =>
      synthesizeJob({ engine: 'flite', engineVoice: voice.engineVoice, plan: planPlainText(PARAGRAPH).plan, input, modes: { audio: 'wav', json: true } }, (v, chunks) =>
        flite.synthesize(v, chunks),
      );
    const inProcess = await measure(job);
    flite.close();
    figures.push(
      { key: 'speech.flite_alone_rtf', value: round(raw.wall / paragraphMs, 4), unit: 'x' },
      { key: 'speech.default_voice_rtf', value: round(library / paragraphMs, 4), unit: 'x', baseline: 'speech.flite_alone_rtf', goal: '<= 0.05' },
      { key: 'speech.flite_alone_rtf_cpu', value: round(raw.cpu / paragraphMs, 4), unit: 'x cpu' },
      { key: 'speech.default_voice_rtf_cpu', value: round(inProcess.cpu / paragraphMs, 4), unit: 'x cpu', baseline: 'speech.flite_alone_rtf_cpu', goal: '<= 0.05' },
      { key: 'speech.default_voice_audio_of_10_sentences', value: Math.round(paragraphMs), unit: 'ms' },
    );
    // The longest plain text a request may have, once (it takes seconds).
    let longest = '';
    for (let i = 0; (longest + HARVARD_SENTENCES[i % HARVARD_SENTENCES.length]).length < MAX_SPOKEN_CHARS; i++) longest += `${HARVARD_SENTENCES[i % HARVARD_SENTENCES.length]} `;
    const t0 = performance.now();
    const long = await engine.synthesize({ text: longest }, parseModes('mp3,json'));
    figures.push({ key: 'speech.default_voice_rtf_3000_chars_mp3_json', value: round((performance.now() - t0) / long.audio!.durationMs, 4), unit: 'x', baseline: 'speech.default_voice_rtf', goal: '<= 0.05' });
    const espeakMs = await audioMs(engine, PARAGRAPH, 'espeak-en-US');
    const espeak = await time(() => engine.synthesize({ text: PARAGRAPH, voice: 'espeak-en-US' }, parseModes('pcm,json')));
    figures.push({ key: 'speech.espeak_en_us_rtf', value: round(espeak / espeakMs, 4), unit: 'x', baseline: 'speech.default_voice_rtf' });

    const word = await time(() => engine.synthesize({ text: 'Hi.' }, parseModes('wav,json')));
    const sentence = await time(() => engine.synthesize({ text: SENTENCE }, parseModes('wav,json')));
    const mp3 = await time(() => engine.synthesize({ text: SENTENCE }, parseModes('mp3,json')));
    figures.push(
      { key: 'speech.one_word_request', value: round(word, 1), unit: 'ms' },
      { key: 'speech.one_sentence_request_wav_json', value: round(sentence, 1), unit: 'ms', baseline: 'speech.one_word_request' },
      { key: 'speech.one_sentence_request_mp3_json', value: round(mp3, 1), unit: 'ms', baseline: 'speech.one_word_request' },
    );

    const unavailable = recognitionUnavailable();
    if (unavailable) {
      figures.push({ key: `speech.wer_skipped (${unavailable})`, value: 0, unit: '' });
    } else {
      const wav = (v: string) => (text: string) => engine.synthesize({ text, voice: v }, parseModes('wav')).then((r) => r.audio!.data);
      const percent = (wer: { wer: number }) => round(wer.wer * 100, 1);
      // The goal's figure: each sentence its own request and utterance, the standard ASR protocol.
      const slt = await harvardSentenceWordErrorRate(wav('slt'));
      const rms = await harvardSentenceWordErrorRate(wav(DEFAULT_VOICE));
      // The 30 sentences as one text and one recording, as a client would send a paragraph.
      const sltText = await harvardWordErrorRate(wav('slt'));
      const rmsText = await harvardWordErrorRate(wav(DEFAULT_VOICE));
      figures.push(
        { key: 'speech.wer_harvard_per_sentence_slt', value: percent(slt), unit: '%' },
        { key: 'speech.wer_harvard_per_sentence_default_voice', value: percent(rms), unit: '%', baseline: 'speech.wer_harvard_per_sentence_slt', goal: '<= 15 %' },
        { key: 'speech.wer_harvard_slt', value: percent(sltText), unit: '%' },
        { key: 'speech.wer_harvard_default_voice', value: percent(rmsText), unit: '%', baseline: 'speech.wer_harvard_slt' },
      );
    }
    return figures;
  } finally {
    await engine.close();
  }
}
