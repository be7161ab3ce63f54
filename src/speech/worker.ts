import { parentPort } from 'node:worker_threads';
import { EspeakEngine } from './espeak.ts';
import type { FliteEngine } from './flite.ts';
import { synthesizeJob, type ChunkSynthesizer, type SynthesisJob } from './synthesis.ts';

/** Worker thread entry: owns one instance of each engine, created on first use. */
let flite: FliteEngine | undefined;
let espeak: Promise<EspeakEngine> | undefined;

async function synthesizerFor(engine: SynthesisJob['engine']): Promise<ChunkSynthesizer> {
  if (engine === 'flite') {
    // Loaded on first use: importing node:wasi prints an experimental-feature warning.
    const f = (flite ??= new (await import('./flite.ts')).FliteEngine());
    return (voice, chunks) => f.synthesize(voice, chunks);
  }
  const e = await (espeak ??= EspeakEngine.create());
  return (voice, chunks) => e.synthesize(voice, chunks);
}

process.on('exit', () => flite?.close());

parentPort!.on('message', async ({ id, job }: { id: number; job: SynthesisJob }) => {
  try {
    const result = await synthesizeJob(job, await synthesizerFor(job.engine));
    const transfer = [result.audio?.data.buffer, result.marks?.data.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
    parentPort!.postMessage({ id, result }, transfer);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
