import type { ChunkAudio } from './chunk-audio.ts';
import type { SpeechMark } from './marks.ts';
import type { Plan, SpeechChunk } from './plan.ts';
import { resample } from './resample.ts';

/** Every voice's audio is delivered at this rate. */
export const OUTPUT_SAMPLE_RATE = 16_000;

/**
 * Least silence between the speech of two consecutive sentences (unless the SSML puts a break there, which
 * then sets the pause). flite pauses only 60 to 150 ms at a full stop, so sentences run into each other;
 * read speech pauses about half a second to a second (measured effect in docs/SPEECH.md).
 */
export const SENTENCE_PAUSE_MS = 750;

const TYPE_ORDER: Record<SpeechMark['type'], number> = { sentence: 0, ssml: 1, word: 2, viseme: 3 };

/** The chunks an engine has to synthesize, in plan order. */
export function spokenChunks(plan: Plan): SpeechChunk[] {
  return plan.items.filter((item): item is SpeechChunk => item.kind === 'speech' && item.units.length > 0);
}

/**
 * Joins the engine's audio of each spoken chunk (in `spokenChunks` order) with the plan's breaks into one
 * 16-bit mono track at OUTPUT_SAMPLE_RATE, and times the plan's sentences, words, marks and visemes on it.
 */
export function render(plan: Plan, audio: readonly ChunkAudio[], input: Uint8Array): { pcm: Int16Array; marks: SpeechMark[] } {
  const decoder = new TextDecoder();
  const slice = (start: number, end: number) => decoder.decode(input.subarray(start, end));
  const pieces: Float32Array[] = [];
  const marks: SpeechMark[] = [];
  let samples = 0;
  let next = 0;
  const startedSentences = new Set<number>();
  const now = () => (samples / OUTPUT_SAMPLE_RATE) * 1000;
  let lastViseme: string | undefined;
  const viseme = (time: number, value: Extract<SpeechMark, { type: 'viseme' }>['value']) => {
    if (lastViseme !== value) marks.push({ time: Math.round(time), type: 'viseme', value });
    lastViseme = value;
  };

  // The audio of the previous spoken chunk and its sentence, while no break has come since.
  let previous: { chunk: ChunkAudio; sentence: number } | undefined;
  for (const item of plan.items) {
    const chunk = item.kind === 'speech' && item.units.length > 0 ? audio[next++] : undefined;
    if (chunk && previous && item.kind === 'speech' && item.sentence >= 0 && previous.sentence >= 0 && item.sentence !== previous.sentence) {
      const count = Math.round(((SENTENCE_PAUSE_MS - trailingSilenceMs(previous.chunk) - leadingSilenceMs(chunk)) / 1000) * OUTPUT_SAMPLE_RATE);
      if (count > 0) {
        viseme(now(), 'sil');
        pieces.push(new Float32Array(count));
        samples += count;
      }
    }
    const t0 = now();
    if (item.kind === 'break') {
      previous = undefined;
      const count = Math.round((item.ms / 1000) * OUTPUT_SAMPLE_RATE);
      pieces.push(new Float32Array(count));
      samples += count;
      if (count > 0) viseme(t0, 'sil');
      continue;
    }
    // Units the engine said nothing for take the time where the previous one ended.
    const unitTimes: { start: number; end: number }[] = [];
    let cursor = 0;
    for (const span of chunk?.units ?? []) {
      const t = span ?? { start: cursor, end: cursor };
      unitTimes.push(t);
      cursor = t.end;
    }
    if (item.sentence >= 0 && !startedSentences.has(item.sentence)) {
      startedSentences.add(item.sentence);
      const { start, end } = plan.sentences[item.sentence];
      marks.push({ time: Math.round(t0 + (unitTimes[0]?.start ?? 0)), type: 'sentence', start, end, value: slice(start, end) });
    }
    for (const mark of item.marks) {
      const at = mark.beforeUnit < unitTimes.length ? unitTimes[mark.beforeUnit].start : (unitTimes.at(-1)?.end ?? 0);
      marks.push({ time: Math.round(t0 + at), type: 'ssml', start: mark.start, end: mark.end, value: mark.name });
    }
    item.units.forEach((unit, i) => {
      if (unit.word) marks.push({ time: Math.round(t0 + unitTimes[i].start), type: 'word', start: unit.start, end: unit.end, value: slice(unit.start, unit.end) });
    });
    if (!chunk) continue;
    previous = { chunk, sentence: item.sentence };
    for (const phone of chunk.phones) viseme(t0 + phone.start, phone.viseme);
    const scaled = resample(chunk.samples, chunk.sampleRate, OUTPUT_SAMPLE_RATE);
    if (item.prosody.volume !== 1) for (let i = 0; i < scaled.length; i++) scaled[i] *= item.prosody.volume;
    pieces.push(scaled);
    samples += scaled.length;
  }

  const pcm = new Int16Array(samples);
  let at = 0;
  for (const piece of pieces) {
    for (let i = 0; i < piece.length; i++) pcm[at++] = Math.max(-32768, Math.min(32767, Math.round(piece[i] * 32768)));
  }
  const ordered = marks
    .map((mark, index) => ({ mark, index }))
    .sort((a, b) => a.mark.time - b.mark.time || TYPE_ORDER[a.mark.type] - TYPE_ORDER[b.mark.type] || a.index - b.index)
    .map(({ mark }) => mark);
  return { pcm, marks: ordered };
}

/** Silence at the start of a chunk's audio, before its first spoken phone (all of it when nothing is spoken). */
function leadingSilenceMs(chunk: ChunkAudio): number {
  return chunk.phones.find((p) => p.viseme !== 'sil')?.start ?? chunkMs(chunk);
}

/** Silence at the end of a chunk's audio, after its last spoken phone. */
function trailingSilenceMs(chunk: ChunkAudio): number {
  const spoken = chunk.phones.filter((p) => p.viseme !== 'sil');
  return spoken.length > 0 ? Math.max(0, chunkMs(chunk) - spoken[spoken.length - 1].end) : chunkMs(chunk);
}

const chunkMs = (chunk: ChunkAudio) => (chunk.samples.length / chunk.sampleRate) * 1000;
