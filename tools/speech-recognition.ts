/** Offline speech recognition with Debian's pocketsphinx (for the system test and the bench; not a unit test). */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';

/** IEEE/Harvard sentences, lists 1 to 3. */
export const HARVARD_SENTENCES = [
  'The birch canoe slid on the smooth planks.', 'Glue the sheet to the dark blue background.', "It's easy to tell the depth of a well.",
  'These days a chicken leg is a rare dish.', 'Rice is often served in round bowls.', 'The juice of lemons makes fine punch.',
  'The box was thrown beside the parked truck.', 'The hogs were fed chopped corn and garbage.', 'Four hours of steady work faced us.',
  'A large size in stockings is hard to sell.', 'The boy was there when the sun rose.', 'A rod is used to catch pink salmon.',
  'The source of the huge river is the clear spring.', 'Kick the ball straight and follow through.', 'Help the woman get back to her feet.',
  'A pot of tea helps to pass the evening.', 'Smoky fires lack flame and heat.', "The soft cushion broke the man's fall.",
  'The salt breeze came across from the sea.', 'The girl at the booth sold fifty bonds.', 'The small pup gnawed a hole in the sock.',
  'The fish twisted and turned on the bent hook.', 'Press the pants and sew a button on the vest.', 'The swan dive was far short of perfect.',
  'The beauty of the view stunned the young boy.', 'Two blue fish swam in the tank.', 'Her purse was full of useless trash.',
  'The colt reared and threw the tall rider.', 'It snowed, rained, and hailed the same morning.', 'Read verse out loud for pleasure.',
];

/** Why recognition cannot run here, or undefined when pocketsphinx, its English model and sox are installed. */
export function recognitionUnavailable(): string | undefined {
  for (const tool of ['pocketsphinx_continuous', 'pocketsphinx_batch', 'sox']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed (apt-get install pocketsphinx pocketsphinx-en-us sox libsox-fmt-mp3)`;
  }
  if (spawnSync('test', ['-f', `${MODEL}/en-us.lm.bin`]).status !== 0) return 'pocketsphinx-en-us is not installed';
  return undefined;
}

export function normalizeWords(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z' ]+/g, ' ').split(/\s+/).filter(Boolean);
}

/** JSGF grammar accepting exactly one of `sentences`. */
export function sentenceGrammar(sentences: string[]): string {
  return `#JSGF V1.0;\ngrammar sentences;\npublic <sentence> = ${sentences.map((s) => normalizeWords(s).join(' ')).join(' | ')};\n`;
}

/** Transcribes audio (any format sox reads, converted to 16 kHz mono first) with the open language model or a JSGF grammar. */
export async function recognize(audio: Uint8Array, extension: string, grammar?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'speech-asr-'));
  try {
    const input = join(dir, `in.${extension}`);
    const wav = join(dir, 'in16k.wav');
    writeFileSync(input, audio);
    await run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', wav]);
    const language = grammar ? ['-jsgf', join(dir, 'g.jsgf')] : ['-lm', `${MODEL}/en-us.lm.bin`];
    if (grammar) writeFileSync(join(dir, 'g.jsgf'), grammar);
    const { stdout } = await run('pocketsphinx_continuous', ['-infile', wav, '-hmm', `${MODEL}/en-us`, '-dict', `${MODEL}/cmudict-en-us.dict`, ...language, '-logfn', '/dev/null']);
    return stdout.trim().split('\n').join(' ').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Transcribes each audio as one utterance with pocketsphinx_batch and the open language model, the way ASR test
 * sets are decoded: the cepstral mean is that of the whole utterance (`-cmn batch`, which the en-us model's
 * feat.params asks for), where pocketsphinx_continuous starts every file from a fixed initial mean and adapts it
 * along the stream.
 */
export async function recognizeUtterances(audios: { data: Uint8Array; extension: string }[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'speech-asr-'));
  try {
    const ids = audios.map((_, i) => `u${String(i).padStart(4, '0')}`);
    await mapLimited(audios.map((audio, i) => ({ audio, id: ids[i] })), 2, async ({ audio, id }) => {
      const input = join(dir, `${id}.in.${audio.extension}`);
      writeFileSync(input, audio.data);
      await run('sox', [input, '-t', 'raw', '-e', 'signed', '-b', '16', '-c', '1', '-r', '16000', join(dir, `${id}.raw`)]);
    });
    writeFileSync(join(dir, 'ctl'), `${ids.join('\n')}\n`);
    const hyp = join(dir, 'hyp');
    await run('pocketsphinx_batch', [
      ...['-ctl', join(dir, 'ctl'), '-cepdir', dir, '-cepext', '.raw', '-adcin', 'yes', '-hyp', hyp],
      ...['-hmm', `${MODEL}/en-us`, '-dict', `${MODEL}/cmudict-en-us.dict`, '-lm', `${MODEL}/en-us.lm.bin`, '-logfn', '/dev/null'],
    ]);
    // One line per utterance: "words (id score)".
    const byId = new Map(
      readFileSync(hyp, 'utf8')
        .split('\n')
        .map((line) => /^(.*?)\s*\((\S+) -?\d+\)$/.exec(line.trim()))
        .filter((m) => m !== null)
        .map((m) => [m[2], m[1]]),
    );
    return ids.map((id) => {
      const text = byId.get(id);
      if (text === undefined) throw new Error(`pocketsphinx_batch gave no hypothesis for ${id}`);
      return text;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Word-level edit distance between reference and hypothesis. */
export function wordErrors(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[hypothesis.length];
}

/** Runs `task` over items with at most `parallel` at a time, keeping order. */
export async function mapLimited<T, R>(items: T[], parallel: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]);
      }
    }),
  );
  return results;
}

export interface WordErrorRate {
  wer: number;
  errors: number;
  words: number;
}

/** Open-vocabulary word error rate of WAV audio of the Harvard sentences spoken as one text (pauses between sentences as a voice makes them). */
export async function harvardWordErrorRate(speakWav: (text: string) => Promise<Uint8Array>): Promise<WordErrorRate> {
  const text = HARVARD_SENTENCES.join(' ');
  const reference = normalizeWords(text);
  const errors = wordErrors(reference, normalizeWords(await recognize(await speakWav(text), 'wav')));
  return { wer: errors / reference.length, errors, words: reference.length };
}

/**
 * Open-vocabulary word error rate of the Harvard sentences the standard way: one synthesis request per sentence,
 * each decoded as its own utterance (`recognizeUtterances`), edits summed over all words.
 */
export async function harvardSentenceWordErrorRate(speakWav: (text: string) => Promise<Uint8Array>): Promise<WordErrorRate> {
  const audios = await mapLimited(HARVARD_SENTENCES, 2, async (s) => ({ data: await speakWav(s), extension: 'wav' }));
  const heard = await recognizeUtterances(audios);
  let [errors, words] = [0, 0];
  HARVARD_SENTENCES.forEach((s, i) => {
    const reference = normalizeWords(s);
    errors += wordErrors(reference, normalizeWords(heard[i]));
    words += reference.length;
  });
  return { wer: errors / words, errors, words };
}
