import type { Viseme } from './visemes.ts';

/** Times in milliseconds from the start of the chunk's own audio. */
export interface TimedPhone {
  viseme: Viseme;
  start: number;
  end: number;
}

export interface Span {
  start: number;
  end: number;
}

/** What an engine returns for one SpeechChunk. */
export interface ChunkAudio {
  samples: Float32Array;
  sampleRate: number;
  phones: TimedPhone[];
  /** Time span of each unit of the chunk; undefined when the engine said nothing for it. */
  units: (Span | undefined)[];
}

/** Time span of each unit from the unit label of each phone (-1 for pauses). */
export function unitSpans(phones: readonly TimedPhone[], labels: readonly number[], unitCount: number): (Span | undefined)[] {
  const spans: (Span | undefined)[] = new Array(unitCount).fill(undefined);
  phones.forEach((phone, k) => {
    const label = labels[k];
    if (label < 0) return;
    const span = spans[label];
    if (span) span.end = phone.end;
    else spans[label] = { start: phone.start, end: phone.end };
  });
  return spans;
}
