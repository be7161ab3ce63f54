import { SpeechError, SpeechErrorCode } from './errors.ts';
import { concatMapped, type MappedText } from './mapped-text.ts';
import { PlanBuilder, type Plan, type Prosody } from './plan.ts';
import { parseXml, XmlSyntaxError, type XmlElement, type XmlNode } from './xml.ts';

const malformed = (message: string) => new SpeechError(SpeechErrorCode.malformedParameters, `malformed SSML: ${message}`);

export const MAX_BREAK_MS = 10_000;
const BREAK_STRENGTH_MS: Record<string, number> = { none: 0, 'x-weak': 100, weak: 250, medium: 400, strong: 700, 'x-strong': 1200 };
const RATE_WORDS: Record<string, number> = { 'x-slow': 0.6, slow: 0.8, medium: 1, default: 1, fast: 1.25, 'x-fast': 1.6 };
const PITCH_WORDS: Record<string, number> = { 'x-low': 0.8, low: 0.9, medium: 1, default: 1, high: 1.1, 'x-high': 1.2 };
const VOLUME_DB: Record<string, number> = { silent: -Infinity, 'x-soft': -12, soft: -6, medium: 0, default: 0, loud: 6, 'x-loud': 10 };
const EMPHASIS: Record<string, Prosody> = {
  strong: { rate: 0.8, pitch: 1.1, volume: 1.4 },
  moderate: { rate: 0.9, pitch: 1.05, volume: 1.2 },
  none: { rate: 1, pitch: 1, volume: 1 },
  reduced: { rate: 1.1, pitch: 0.95, volume: 0.8 },
};

function parseBreakMs(el: XmlElement): number {
  const time = el.attributes.time;
  if (time !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/.exec(time);
    if (!m) throw malformed(`break time "${time}" is not like 500ms or 2s`);
    return Math.min(MAX_BREAK_MS, Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1)));
  }
  const strength = el.attributes.strength ?? 'medium';
  const ms = BREAK_STRENGTH_MS[strength];
  if (ms === undefined) throw malformed(`break strength "${strength}"`);
  return ms;
}

/** A word (e.g. "slow"), a percentage ("150%") or a relative change ("+10%"); returns the multiplier. */
function parseScale(value: string | undefined, words: Record<string, number>, min: number, max: number, what: string): number {
  if (value === undefined) return 1;
  const named = words[value];
  if (named !== undefined) return named;
  const m = /^\s*([+-]?)(\d+(?:\.\d+)?)%\s*$/.exec(value);
  if (!m) throw malformed(`prosody ${what} "${value}"`);
  const n = Number(m[2]);
  const scale = m[1] === '+' ? 1 + n / 100 : m[1] === '-' ? 1 - n / 100 : n / 100;
  return Math.min(max, Math.max(min, scale));
}

function parseVolume(value: string | undefined): number {
  if (value === undefined) return 1;
  const named = VOLUME_DB[value];
  const m = /^\s*([+-]?\d+(?:\.\d+)?)dB\s*$/.exec(value);
  if (named === undefined && !m) throw malformed(`prosody volume "${value}"`);
  const db = named ?? Number(m![1]);
  return db === -Infinity ? 0 : 10 ** (Math.min(db, 12) / 20);
}

function combine(a: Prosody, b: Prosody): Prosody {
  return { rate: a.rate * b.rate, pitch: a.pitch * b.pitch, volume: a.volume * b.volume };
}

function textOf(nodes: XmlNode[]): MappedText {
  return concatMapped(nodes.map((n) => (n.kind === 'text' ? n : textOf(n.children))));
}

/** Byte range of the non-space content of `mapped`, or of the element itself when it has none. */
function contentRange(mapped: MappedText, el: XmlElement): { start: number; end: number } {
  const first = mapped.text.search(/\S/);
  if (first < 0) return { start: el.start, end: el.end };
  const last = mapped.text.length - 1 - [...mapped.text].reverse().join('').search(/\S/);
  return { start: mapped.starts[first], end: mapped.ends[last] };
}

/** How `say-as` content is spoken: spelled letter by letter, digit by digit, or as written. */
function sayAsSpoken(text: string, interpretAs: string): string {
  const compact = text.replace(/\s+/g, '');
  switch (interpretAs) {
    case 'characters':
    case 'spell-out':
      return [...compact].map((c) => c.toUpperCase()).join(' ');
    case 'digits':
    case 'telephone':
      return [...compact].filter((c) => /\p{N}/u.test(c)).join(' ');
    default:
      return text.trim();
  }
}

class SsmlPlanner {
  readonly builder = new PlanBuilder();

  walk(nodes: XmlNode[], prosody: Prosody): void {
    for (const node of nodes) {
      if (node.kind === 'text') this.builder.addText(node, prosody);
      else this.element(node, prosody);
    }
  }

  private element(el: XmlElement, prosody: Prosody): void {
    // Vendor extensions (amazon:effect, mstts:express-as, ...) are transparent.
    const name = el.name.includes(':') ? '' : el.name;
    switch (name) {
      case 'p':
      case 's':
        this.builder.endSentence();
        this.walk(el.children, prosody);
        this.builder.endSentence();
        return;
      case 'break':
        this.builder.addBreak(parseBreakMs(el));
        return;
      case 'prosody': {
        const change = {
          rate: parseScale(el.attributes.rate, RATE_WORDS, 0.2, 4, 'rate'),
          pitch: parseScale(el.attributes.pitch, PITCH_WORDS, 0.5, 2, 'pitch'),
          volume: parseVolume(el.attributes.volume),
        };
        this.walk(el.children, combine(prosody, change));
        return;
      }
      case 'emphasis': {
        const level = EMPHASIS[el.attributes.level ?? 'moderate'];
        if (!level) throw malformed(`emphasis level "${el.attributes.level}"`);
        this.walk(el.children, combine(prosody, level));
        return;
      }
      case 'say-as': {
        const interpretAs = el.attributes['interpret-as'];
        if (!interpretAs) throw malformed('say-as without interpret-as');
        const content = textOf(el.children);
        const spoken = sayAsSpoken(content.text, interpretAs);
        if (spoken && ['characters', 'spell-out', 'digits', 'telephone'].includes(interpretAs)) {
          this.builder.addUnit({ spoken, ...contentRange(content, el), word: true }, prosody);
        } else this.builder.addText(content, prosody);
        return;
      }
      case 'sub': {
        const alias = el.attributes.alias;
        if (alias === undefined) throw malformed('sub without alias');
        if (alias.trim()) this.builder.addUnit({ spoken: alias.trim(), ...contentRange(textOf(el.children), el), word: true }, prosody);
        return;
      }
      case 'mark': {
        const markName = el.attributes.name;
        if (markName === undefined) throw malformed('mark without name');
        this.builder.addMark(markName, el.start, el.end);
        return;
      }
      default:
        this.walk(el.children, prosody);
    }
  }
}

/** Plans an SSML document rooted at <speak>. */
export function planSsml(source: string): { plan: Plan; spokenLength: number } {
  let root: XmlElement;
  try {
    root = parseXml(source);
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw malformed(e.message);
    throw e;
  }
  if (root.name !== 'speak') throw malformed(`root element is <${root.name}>, expected <speak>`);
  const planner = new SsmlPlanner();
  planner.walk(root.children, { rate: 1, pitch: 1, volume: 1 });
  return { spokenLength: planner.builder.spokenLength, plan: planner.builder.finish() };
}
