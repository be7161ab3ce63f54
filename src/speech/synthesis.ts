import type { ChunkAudio } from './chunk-audio.ts';
import { encodeAudio, MP3_DELAY_SAMPLES, type EncodedAudio } from './encode.ts';
import { marksToJsonLines, MARKS_MIME_TYPE } from './marks.ts';
import type { SpeechModes } from './modes.ts';
import type { Plan, SpeechChunk } from './plan.ts';
import { OUTPUT_SAMPLE_RATE, render, spokenChunks } from './render.ts';
import type { EngineName } from './voices.ts';

export interface SynthesisJob {
  engine: EngineName;
  engineVoice: string;
  plan: Plan;
  /** The request's text as UTF-8; marks' byte offsets point into it. */
  input: Uint8Array;
  modes: SpeechModes;
}

export interface SynthesisResult {
  audio?: EncodedAudio;
  marks?: { mimeType: typeof MARKS_MIME_TYPE; data: Uint8Array };
}

export type ChunkSynthesizer = (engineVoice: string, chunks: SpeechChunk[]) => ChunkAudio[];

/** Runs one request: engine audio for each chunk, joined and timed, then encoded as asked. */
export async function synthesizeJob(job: SynthesisJob, synthesizer: ChunkSynthesizer): Promise<SynthesisResult> {
  const audio = synthesizer(job.engineVoice, spokenChunks(job.plan));
  const { pcm, marks } = render(job.plan, audio, job.input);
  const result: SynthesisResult = {};
  if (job.modes.audio) result.audio = await encodeAudio(job.modes.audio, pcm, OUTPUT_SAMPLE_RATE);
  if (job.modes.json) {
    const leadMs = job.modes.audio === 'mp3' ? (MP3_DELAY_SAMPLES / OUTPUT_SAMPLE_RATE) * 1000 : 0;
    // The opening silence viseme stays at 0: the decoder's lead is silent too.
    const aligned = marks.map((m) => (m.time === 0 && m.type === 'viseme' ? m : { ...m, time: Math.round(m.time + leadMs) }));
    result.marks = { mimeType: MARKS_MIME_TYPE, data: marksToJsonLines(aligned) };
  }
  return result;
}
