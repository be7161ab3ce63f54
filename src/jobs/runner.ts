import type { Job, Repo } from '../domain/ports.ts';

export interface RunnerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerOptions {
  repo: Repo;
  worker: string;
  leaseMs: number;
  /** Attempts before a job that keeps failing is given up. */
  maxAttempts: number;
  idleMs: number;
  handle: (job: Job) => Promise<void>;
  /** Called once a job has failed `maxAttempts` times with an unexpected error. */
  giveUp: (job: Job, error: unknown) => Promise<void>;
  log: RunnerLog;
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

  const loop = async () => {
    while (!stopping) {
      let job: Job | undefined;
      try {
        job = await o.repo.claimJob(o.worker, Date.now(), o.leaseMs);
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
      const renew = setInterval(() => {
        o.repo.renewJob(job.id, o.worker, Date.now(), o.leaseMs).catch((e) => o.log.error({ err: e, job: job.id }, 'lease renewal failed'));
      }, Math.max(200, o.leaseMs / 3));
      const started = Date.now();
      try {
        await o.handle(job);
        await o.repo.finishJob(job.id);
        o.log.info({ job: job.id, kind: job.kind, avatar: job.avatarKey, ms: Date.now() - started }, 'job finished');
      } catch (e) {
        if (job.attempts >= o.maxAttempts) {
          o.log.error({ err: e, job: job.id, attempts: job.attempts }, 'job failed for good');
          await o.giveUp(job, e).catch((err) => o.log.error({ err }, 'recording the failure failed'));
          await o.repo.finishJob(job.id).catch(() => undefined);
        } else {
          const backoff = 1000 * 2 ** (job.attempts - 1);
          o.log.error({ err: e, job: job.id, attempts: job.attempts, retryInMs: backoff }, 'job failed, will retry');
          await o.repo.renewJob(job.id, o.worker, Date.now(), backoff).catch(() => undefined);
        }
      } finally {
        clearInterval(renew);
      }
    }
  };

  const done = loop();
  return {
    /** Look for work now rather than at the next idle tick. */
    poke: () => wake?.(),
    async stop() {
      stopping = true;
      wake?.();
      await done;
    },
  };
}

