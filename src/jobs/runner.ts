import type { Job, JobQueue } from '../domain/ports.ts';
import type { JobEvent, JobOutcome } from '../ops/job-events.ts';

export interface RunnerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerOptions {
  jobs: Pick<JobQueue, 'claimJob' | 'finishJob' | 'releaseJob' | 'renewJob'>;
  worker: string;
  leaseMs: number;
  /** Attempts before a job that keeps failing is given up. */
  maxAttempts: number;
  idleMs: number;
  /** Runs the job; `signal` aborts when this worker must stop it (its avatar was deleted, its lease was lost, or shutdown). */
  handle: (job: Job, signal: AbortSignal) => Promise<void>;
  /** Called once a job has failed `maxAttempts` times with an unexpected error. */
  giveUp: (job: Job, error: unknown) => Promise<void>;
  log: RunnerLog;
  /** Told how each job run ended, for metrics. */
  observe?: (e: JobEvent) => void;
}

/** Why a running job was stopped from outside: it is gone (deleted with its avatar, or taken over), or this worker is stopping. */
export class JobStopped extends Error {
  constructor(readonly outcome: 'cancelled' | 'released') {
    super(outcome === 'cancelled' ? 'the job was cancelled' : 'the worker is stopping');
  }
}

/**
 * Claims jobs one at a time and runs them under a lease that is renewed while the job runs. A job
 * whose worker dies is taken up again when its lease runs out; an unexpected failure is retried with
 * backoff (by pushing the lease out) until `maxAttempts`. Returns when `stop()` is called, after the
 * current job.
 */
export function startRunner(o: RunnerOptions) {
  let stopping = false;
  let wake: (() => void) | undefined;
  let current: AbortController | undefined;

  const loop = async () => {
    while (!stopping) {
      let job: Job | undefined;
      try {
        job = await o.jobs.claimJob(o.worker, Date.now(), o.leaseMs);
      } catch (e) {
        o.log.error({ err: e }, 'claiming a job failed');
      }
      if (!job) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, o.idleMs);
        });
        continue;
      }
      const control = new AbortController();
      current = control;
      // A renewal that finds no running job of this worker means the job was deleted with its avatar
      // (or, after a stall, taken over): stop working on it.
      const renew = setInterval(() => {
        o.jobs
          .renewJob(job.id, o.worker, Date.now(), o.leaseMs)
          .then((held) => held || control.abort(new JobStopped('cancelled')))
          .catch((e) => o.log.error({ err: e, job: job.id }, 'lease renewal failed'));
      }, Math.max(200, o.leaseMs / 3));
      const started = Date.now();
      const ended = (outcome: JobOutcome) => o.observe?.({ type: 'job', kind: job.kind, outcome, seconds: (Date.now() - started) / 1000 });
      try {
        await o.handle(job, control.signal);
        await o.jobs.finishJob(job.id);
        ended('done');
        o.log.info({ job: job.id, kind: job.kind, avatar: job.avatarKey, ms: Date.now() - started }, 'job finished');
      } catch (e) {
        const stopped = control.signal.aborted ? (control.signal.reason as JobStopped) : e instanceof JobStopped ? e : undefined;
        if (stopped?.outcome === 'cancelled') {
          ended('cancelled');
          o.log.info({ job: job.id, avatar: job.avatarKey }, 'job cancelled: its avatar was deleted or another worker holds it');
        } else if (stopped?.outcome === 'released') {
          ended('released');
          o.log.info({ job: job.id }, 'job handed back to the queue at shutdown');
          await o.jobs.releaseJob(job.id, o.worker).catch((err) => o.log.error({ err, job: job.id }, 'handing the job back failed: it returns when its lease runs out'));
        } else if (job.attempts >= o.maxAttempts) {
          ended('failed');
          o.log.error({ err: e, job: job.id, attempts: job.attempts }, 'job failed for good');
          await o.giveUp(job, e).catch((err) => o.log.error({ err }, 'recording the failure failed'));
          await o.jobs.finishJob(job.id).catch(() => undefined);
        } else {
          ended('retry');
          const backoff = 1000 * 2 ** (job.attempts - 1);
          o.log.error({ err: e, job: job.id, attempts: job.attempts, retryInMs: backoff }, 'job failed, will retry');
          await o.jobs.renewJob(job.id, o.worker, Date.now(), backoff).catch(() => undefined);
        }
      } finally {
        clearInterval(renew);
        current = undefined;
      }
    }
  };

  const done = loop();
  return {
    /** Look for work now rather than at the next idle tick. */
    poke: () => wake?.(),
    /** Finishes the current job, or after `graceMs` stops it and hands it back to the queue. */
    async stop(graceMs = Infinity) {
      stopping = true;
      wake?.();
      const grace = Number.isFinite(graceMs) ? setTimeout(() => current?.abort(new JobStopped('released')), graceMs) : undefined;
      await done;
      clearTimeout(grace);
    },
  };
}

