import { mapVerbatim, utf8Offsets, type MappedText } from './mapped-text.ts';

/** Multipliers relative to the voice's defaults; volume is a linear gain. */
export interface Prosody {
  rate: number;
  pitch: number;
  volume: number;
}

export const NEUTRAL_PROSODY: Prosody = { rate: 1, pitch: 1, volume: 1 };

/** One whitespace-separated token as the engine should say it, with the UTF-8 byte range of its word in the input. */
export interface SpokenUnit {
  spoken: string;
  start: number;
  end: number;
  /** False for tokens without letters or digits (e.g. a lone dash): spoken but not reported as a word. */
  word: boolean;
}

export interface PlanMark {
  name: string;
  start: number;
  end: number;
  /** The mark's time is the start of this unit of its chunk (or the chunk's end when it equals units.length). */
  beforeUnit: number;
}

/** Words one engine call synthesizes: one sentence or part of it, one prosody, no break inside. */
export interface SpeechChunk {
  kind: 'speech';
  /** Index into Plan.sentences; -1 for a chunk that only holds marks. */
  sentence: number;
  units: SpokenUnit[];
  prosody: Prosody;
  marks: PlanMark[];
}

export interface BreakItem {
  kind: 'break';
  ms: number;
}

export type PlanItem = SpeechChunk | BreakItem;

export interface Plan {
  /** UTF-8 byte ranges of the sentences. */
  sentences: { start: number; end: number }[];
  items: PlanItem[];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SENTENCE_END = /[.!?]+["'”’)\]]*$/;
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'prof', 'vs', 'etc', 'no', 'mt', 'ft', 'inc', 'ltd', 'co', 'approx']);

/** True when a token closes a sentence: final . ! or ?, not an abbreviation such as "Dr." or "e.g.", not an initial. */
function endsSentence(token: string): boolean {
  if (!SENTENCE_END.test(token)) return false;
  if (/[!?]/.test(token)) return true;
  const body = token.replace(SENTENCE_END, '');
  return !(ABBREVIATIONS.has(body.toLowerCase()) || body.includes('.') || /^\p{L}$/u.test(body));
}

/** Byte range of the letters/digits part of text[from, to) (the whole slice when it has none). */
function wordRange(mapped: MappedText, from: number, to: number): { start: number; end: number; word: boolean } {
  const token = mapped.text.slice(from, to);
  const lead = token.length - token.replace(/^[^\p{L}\p{N}]+/u, '').length;
  const trail = token.length - token.replace(/[^\p{L}\p{N}]+$/u, '').length;
  const word = WORD_CHAR.test(token);
  const a = word ? from + lead : from;
  const b = word ? to - trail : to;
  return { start: mapped.starts[a], end: mapped.ends[b - 1], word };
}

/** Accumulates units, breaks and marks into chunks and sentences. */
export class PlanBuilder {
  private readonly plan: Plan = { sentences: [], items: [] };
  private chunk: SpeechChunk | undefined;
  private sentenceOpen = false;
  private spokenChars = 0;

  /** Adds text, splitting it into tokens at whitespace and into sentences after sentence-final punctuation. */
  addText(mapped: MappedText, prosody: Prosody): void {
    for (const m of mapped.text.matchAll(/\S+/g)) {
      const from = m.index!;
      const to = from + m[0].length;
      const range = wordRange(mapped, from, to);
      this.addUnit({ spoken: m[0], ...range }, prosody, { start: mapped.starts[from], end: mapped.ends[to - 1] });
      if (endsSentence(m[0])) this.endSentence();
    }
  }

  /** Adds one unit; `token` is the byte range that counts toward the sentence (word plus punctuation). */
  addUnit(unit: SpokenUnit, prosody: Prosody, token: { start: number; end: number } = unit): void {
    if (this.chunk && this.chunk.units.length > 0 && !sameProsody(this.chunk.prosody, prosody)) this.flush();
    if (!this.sentenceOpen) {
      this.flushIfSpeech();
      this.plan.sentences.push({ start: token.start, end: token.end });
      this.sentenceOpen = true;
    }
    const chunk = (this.chunk ??= this.newChunk(prosody));
    if (chunk.units.length === 0) chunk.prosody = prosody;
    chunk.sentence = this.plan.sentences.length - 1;
    chunk.units.push(unit);
    this.plan.sentences[chunk.sentence].end = token.end;
    this.spokenChars += unit.spoken.length;
  }

  addBreak(ms: number): void {
    this.flush();
    const last = this.plan.items.at(-1);
    if (last?.kind === 'break') last.ms += ms;
    else this.plan.items.push({ kind: 'break', ms });
  }

  addMark(name: string, start: number, end: number): void {
    const chunk = (this.chunk ??= this.newChunk(NEUTRAL_PROSODY));
    chunk.marks.push({ name, start, end, beforeUnit: chunk.units.length });
  }

  endSentence(): void {
    this.flushIfSpeech();
    this.sentenceOpen = false;
  }

  /** Number of characters the engines will be asked to say. */
  get spokenLength(): number {
    return this.spokenChars;
  }

  finish(): Plan {
    this.flush();
    return this.plan;
  }

  private newChunk(prosody: Prosody): SpeechChunk {
    return { kind: 'speech', sentence: -1, units: [], prosody, marks: [] };
  }

  /** Ends the current chunk unless it only holds marks (those stay to precede the next words). */
  private flushIfSpeech(): void {
    if (this.chunk && this.chunk.units.length > 0) this.flush();
  }

  private flush(): void {
    if (this.chunk) this.plan.items.push(this.chunk);
    this.chunk = undefined;
  }
}

export function sameProsody(a: Prosody, b: Prosody): boolean {
  return a.rate === b.rate && a.pitch === b.pitch && a.volume === b.volume;
}

/** Plans plain text: sentences split at sentence-final punctuation. */
export function planPlainText(text: string): { plan: Plan; spokenLength: number } {
  const builder = new PlanBuilder();
  builder.addText(mapVerbatim(text, utf8Offsets(text), 0, text.length), NEUTRAL_PROSODY);
  return { spokenLength: builder.spokenLength, plan: builder.finish() };
}
