import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../config.ts';
import { openStore } from '../runtime/open-store.ts';
import type { Pipeline } from '../pipeline/types.ts';
import { failJob, handleJob } from './handlers.ts';
import { startRunner } from './runner.ts';

/** A job worker in its own thread, so that pipeline work never blocks the HTTP event loop. */
const { config, keys, worker } = workerData as { config: Config; keys: { master: string; links: string; lists: string }; worker: string };
const log = pino({ name: worker });
const store = await openStore(config, {
  master: Buffer.from(keys.master, 'base64'),
  links: Buffer.from(keys.links, 'base64'),
  lists: Buffer.from(keys.lists, 'base64'),
});
const { createPipeline } = (await import(config.pipelineModule)) as { createPipeline: () => Pipeline | Promise<Pipeline> };
const pipeline = await createPipeline();
const context = { repo: store.repo, files: store.files, pipeline, worker };

const runner = startRunner({
  repo: store.repo,
  worker,
  leaseMs: config.jobLease * 1000,
  maxAttempts: 3,
  idleMs: 250,
  handle: (job) => handleJob(job, context),
  giveUp: (job) => failJob(job, context),
  log,
});

parentPort?.on('message', async (m: string) => {
  if (m === 'poke') runner.poke();
  if (m === 'stop') {
    await runner.stop();
    await store.repo.close();
    parentPort?.postMessage('stopped');
  }
});
parentPort?.postMessage('ready');
