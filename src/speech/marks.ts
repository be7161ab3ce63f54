import type { Viseme } from './visemes.ts';

/** One Polly-style speech mark; start/end are UTF-8 byte offsets into the request's text, time is ms into the audio. */
export type SpeechMark =
  | { time: number; type: 'sentence' | 'word' | 'ssml'; start: number; end: number; value: string }
  | { time: number; type: 'viseme'; value: Viseme };

export const MARKS_MIME_TYPE = 'application/x-json-stream';

/** Serializes marks as JSON lines, one mark per line. */
export function marksToJsonLines(marks: readonly SpeechMark[]): Uint8Array {
  return new TextEncoder().encode(marks.map((m) => JSON.stringify(m) + '\n').join(''));
}
