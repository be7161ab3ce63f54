import type { SpeechMark } from './types.ts';

/** The speech marks file is JSON lines. */
export function parseMarks(text: string): SpeechMark[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SpeechMark);
}
