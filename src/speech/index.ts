/** Public API of the speech library (text or SSML to audio and Polly-style speech marks). */
export { createSpeechEngine, type SpeechEngine, type SpeechEngineOptions } from './engine.ts';
export { SpeechError, SpeechErrorCode } from './errors.ts';
export { parseModes, type AudioFormat, type SpeechModes } from './modes.ts';
export type { SpeechRequest } from './request.ts';
export { MAX_SPOKEN_CHARS, MAX_SSML_CHARS } from './request.ts';
export type { SynthesisResult } from './synthesis.ts';
export type { EncodedAudio } from './encode.ts';
export type { SpeechMark } from './marks.ts';
export { MARKS_MIME_TYPE } from './marks.ts';
export { OUTPUT_SAMPLE_RATE, SENTENCE_PAUSE_MS } from './render.ts';
export { CLOUD_VOICES, DEFAULT_VOICE, VOICES, resolveVoice, voiceCatalog, type ListedVoice, type VoiceInfo } from './voices.ts';
export { WorkerCrashError } from './pool.ts';
