import { availableParallelism } from 'node:os';
import { SpeechError, SpeechErrorCode } from './errors.ts';
import type { SpeechModes } from './modes.ts';
import { WorkerPool } from './pool.ts';
import { planRequest, validateRequest } from './request.ts';
import type { SynthesisJob, SynthesisResult } from './synthesis.ts';
import { resolveVoice, VOICES, type VoiceInfo } from './voices.ts';

export interface SpeechEngineOptions {
  /** Worker threads synthesizing in parallel; default: the number of CPUs, at most 4. */
  poolSize?: number;
  /** A request running longer counts as a crash of its worker (killed, request retried once); default 60 s. */
  timeoutMs?: number;
}

export interface SpeechEngine {
  /** Validates the request body ({text, type, voice} as parsed from JSON) and synthesizes it; throws SpeechError for client errors. */
  synthesize(body: unknown, modes: SpeechModes): Promise<SynthesisResult>;
  voices(): VoiceInfo[];
  close(): Promise<void>;
}

export function createSpeechEngine(options: SpeechEngineOptions = {}): SpeechEngine {
  const pool = new WorkerPool<SynthesisJob, SynthesisResult>(
    new URL('./worker.ts', import.meta.url),
    options.poolSize ?? Math.min(4, availableParallelism()),
    options.timeoutMs,
  );
  return {
    async synthesize(body, modes) {
      const request = validateRequest(body);
      if (!modes.audio && !modes.json) throw new SpeechError(SpeechErrorCode.invalidOption, 'no output mode asked for');
      const voice = resolveVoice(request.voice);
      const plan = planRequest(request);
      return pool.run({ engine: voice.engine, engineVoice: voice.engineVoice, plan, input: new TextEncoder().encode(request.text), modes });
    },
    voices: () => [...VOICES],
    close: () => pool.close(),
  };
}
