import { unitSpans, type ChunkAudio, type TimedPhone } from './chunk-audio.ts';
import type { SpeechChunk } from './plan.ts';
import { ipaViseme } from './visemes.ts';

interface EspeakEvent {
  type: string;
  text_position: number;
  audio_position: number;
  id?: string | number;
}

interface EspeakWorker {
  set_voice(name: string): number;
  set_rate(wpm: number): number;
  set_pitch(pitch: number): number;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean): void;
  list_voices(): { identifier: string; name: string; languages: { name: string }[] }[];
}

const DEFAULT_WPM = 175;
/** eSpeak-NG ends an utterance almost without silence; after a sentence's final punctuation this much is added. */
const SENTENCE_PAUSE_MS = 300;
const DEFAULT_PITCH = 50;

/** eSpeak-NG compiled with Emscripten; synchronous, so it runs in a worker. */
export class EspeakEngine {
  private constructor(private readonly worker: EspeakWorker) {}

  static async create(): Promise<EspeakEngine> {
    // The package ships no type declarations; a variable specifier keeps the compiler from looking for them.
    const specifier = '@echogarden/espeak-ng-emscripten';
    const { default: init } = (await import(specifier)) as {
      default: () => Promise<{ eSpeakNGWorker: new () => EspeakWorker }>;
    };
    const module = await init();
    return new EspeakEngine(new module.eSpeakNGWorker());
  }

  listVoices(): { identifier: string; name: string; language: string }[] {
    return this.worker.list_voices().map((v) => ({ identifier: v.identifier, name: v.name.trim(), language: v.languages[0].name }));
  }

  synthesize(voice: string, chunks: SpeechChunk[]): ChunkAudio[] {
    if (this.worker.set_voice(voice) !== 0) throw new Error(`eSpeak-NG has no voice ${voice}`);
    return chunks.map((chunk) => this.synthesizeChunk(chunk));
  }

  private synthesizeChunk(chunk: SpeechChunk): ChunkAudio {
    this.worker.set_rate(Math.round(Math.min(450, Math.max(80, DEFAULT_WPM * chunk.prosody.rate))));
    this.worker.set_pitch(Math.round(Math.min(100, Math.max(0, DEFAULT_PITCH * chunk.prosody.pitch))));
    // eSpeak-NG reads its input as SSML and counts text positions in code points (1-based).
    const unitStarts: number[] = [];
    let length = 0;
    const text = chunk.units
      .map((u) => {
        const spoken = u.spoken.replace(/[<>&]/g, ' ');
        unitStarts.push(length);
        length += [...spoken].length + 1;
        return spoken;
      })
      .join(' ');
    const pieces: Int16Array[] = [];
    const events: EspeakEvent[] = [];
    this.worker.synthesize(text, (samples, chunkEvents) => {
      if (samples.length > 0) pieces.push(samples);
      events.push(...chunkEvents);
      return false;
    });
    const sampleRate = this.worker.get_samplerate();
    const spoken = pieces.reduce((n, p) => n + p.length, 0);
    const pause = /[.!?]["'”’)\]]*$/.test(chunk.units.at(-1)?.spoken ?? '') ? Math.round((SENTENCE_PAUSE_MS / 1000) * sampleRate) : 0;
    const samples = new Float32Array(spoken + pause);
    let at = 0;
    for (const piece of pieces) for (let i = 0; i < piece.length; i++) samples[at++] = piece[i] / 32768;
    const endMs = (samples.length / sampleRate) * 1000;

    const phones: TimedPhone[] = [];
    const labels: number[] = [];
    let unit = -1;
    const timed = events.filter((e) => e.type === 'word' || e.type === 'phoneme' || e.type === 'end');
    // A phoneme lasts until the next phoneme or clause end.
    const nextBoundary: number[] = new Array(timed.length);
    for (let k = timed.length - 1, boundary = endMs; k >= 0; k--) {
      nextBoundary[k] = boundary;
      if (timed[k].type !== 'word') boundary = timed[k].audio_position;
    }
    timed.forEach((event, k) => {
      if (event.type === 'word') {
        const position = event.text_position - 1;
        let u = unitStarts.length - 1;
        while (u > 0 && unitStarts[u] > position) u--;
        unit = Math.max(unit, u);
        return;
      }
      if (event.type !== 'phoneme') return;
      const end = Math.min(endMs, nextBoundary[k]);
      const viseme = ipaViseme(String(event.id ?? ''));
      phones.push({ viseme, start: event.audio_position, end });
      labels.push(viseme === 'sil' ? -1 : unit);
    });
    return { samples, sampleRate, phones: fillSilences(phones, endMs), units: unitSpans(phones, labels, chunk.units.length) };
  }
}

/** eSpeak-NG leaves the audio before the first and after the last phoneme unlabelled: mark it silent. */
function fillSilences(phones: TimedPhone[], endMs: number): TimedPhone[] {
  const result = [...phones];
  if (result.length === 0 || result[0].start > 0) result.unshift({ viseme: 'sil', start: 0, end: result[0]?.start ?? endMs });
  const last = result.at(-1)!;
  if (last.end < endMs) result.push({ viseme: 'sil', start: last.end, end: endMs });
  return result;
}
