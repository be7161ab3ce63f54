import { EspeakEngine } from './espeak.ts';
import { FliteEngine } from './flite.ts';
import { synthesizeJob, type ChunkSynthesizer, type SynthesisJob } from './synthesis.ts';

/** Worker process entry (see pool.ts): owns one instance of each engine, created on first use. */
let flite: FliteEngine | undefined;
let espeak: Promise<EspeakEngine> | undefined;

async function synthesizerFor(engine: SynthesisJob['engine']): Promise<ChunkSynthesizer> {
  if (engine === 'flite') {
    const f = (flite ??= new FliteEngine());
    return (voice, chunks) => f.synthesize(voice, chunks);
  }
  const e = await (espeak ??= EspeakEngine.create());
  return (voice, chunks) => e.synthesize(voice, chunks);
}

process.on('exit', () => flite?.close());

process.on('disconnect', () => process.exit(0));
process.on('message', async ({ id, job }: { id: number; job: SynthesisJob }) => {
  try {
    process.send!({ id, result: await synthesizeJob(job, await synthesizerFor(job.engine)) });
  } catch (error) {
    process.send!({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
