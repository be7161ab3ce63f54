import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../config.ts';
import type { AvatarStore, Job } from '../domain/ports.ts';
import type { JobEvent } from '../ops/job-events.ts';
import type { Pipeline } from '../pipeline/types.ts';
import { failJob, handleJob } from '../jobs/handlers.ts';
import { JobStopped, startRunner } from '../jobs/runner.ts';
import { openStore } from './open-store.ts';
import { lowerOwnPriority } from '../util/thread-priority.ts';

/** A job worker in its own thread, so that pipeline work never blocks the HTTP event loop. */
const { config, keys, worker } = workerData as { config: Config; keys: { master: string; links: string; lists: string }; worker: string };
// First, so that the pipeline and every thread it starts run behind the HTTP API when the cores are busy.
lowerOwnPriority(config.workerNice);
const log = pino({ name: worker, level: config.logLevel });
const store = await openStore(config, {
  master: Buffer.from(keys.master, 'base64'),
  links: Buffer.from(keys.links, 'base64'),
  lists: Buffer.from(keys.lists, 'base64'),
});
const { createPipeline } = (await import(config.pipelineModule)) as { createPipeline: () => Pipeline | Promise<Pipeline> };
const pipeline = await createPipeline();
const report = (e: JobEvent) => parentPort?.postMessage(e);

/** How often, at most, a progress update asks the database whether the avatar still exists. */
const DELETION_CHECK_MS = 250;

/**
 * The pipeline as one job sees it: each progress update times the stage that just ended and stops
 * the run (by throwing out of the pipeline) once the job is stopped or its avatar has been deleted.
 */
function watched(job: Job, signal: AbortSignal, avatars: Pick<AvatarStore, 'getAvatar'>): Pipeline {
  const deleted = new AbortController();
  const stop = AbortSignal.any([signal, deleted.signal]);
  return {
    async run(input, progress) {
      let lap = performance.now();
      let lastCheck = 0;
      const started = lap;
      const result = await pipeline.run(input, (percent, stage) => {
        stop.throwIfAborted();
        const now = performance.now();
        report({ type: 'stage', kind: job.kind, stage, seconds: (now - lap) / 1000 });
        lap = now;
        if (Date.now() - lastCheck >= DELETION_CHECK_MS) {
          lastCheck = Date.now();
          avatars.getAvatar(job.avatarKey).then((a) => a || deleted.abort(new JobStopped('cancelled')), () => undefined);
        }
        progress(percent, stage);
      });
      stop.throwIfAborted();
      report({ type: 'stage', kind: job.kind, stage: 'pipeline', seconds: (performance.now() - started) / 1000 });
      return result;
    },
  };
}

const runner = startRunner({
  jobs: store.repo.jobs,
  worker,
  leaseMs: config.jobLease * 1000,
  maxAttempts: 3,
  idleMs: 250,
  handle: (job, signal) => handleJob(job, { avatars: store.repo.avatars, files: store.files, pipeline: watched(job, signal, store.repo.avatars), worker, minFreeBytes: config.minFreeBytes / 2, log }),
  giveUp: (job) => failJob(job, { avatars: store.repo.avatars }),
  log,
  observe: report,
});

parentPort?.on('message', async (m: string) => {
  if (m === 'poke') runner.poke();
  if (m === 'stop') {
    await runner.stop(config.shutdownGrace * 1000);
    await store.close();
    parentPort?.postMessage('stopped');
  }
});
parentPort?.postMessage('ready');
