import type { Job, JobKind, JobQueue } from '../../domain/ports.ts';
import type { Executor, Row, Sql } from './executor.ts';

/** The job queue over any SQL backend: a worker claims a job under a lease and renews it while it runs. */
export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: Executor) {}


  async claimJob(worker: string, now: number, leaseMs: number): Promise<Job | undefined> {
    const lock = this.db.dialect === 'pg' ? ' FOR UPDATE SKIP LOCKED' : '';
    return this.db.tx(async (q) => {
      const row = await q.get<Row>(
        `SELECT id FROM jobs WHERE state = 'queued' OR (state = 'running' AND lease_until < ?) ORDER BY id LIMIT 1${lock}`,
        [now],
      );
      if (!row) return undefined;
      const job = await q.get<Row>(
        "UPDATE jobs SET state = 'running', worker = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ? RETURNING *",
        [worker, now + leaseMs, Number(row.id)],
      );
      return job && { id: Number(job.id), kind: String(job.kind) as JobKind, avatarKey: String(job.avatar_key), childKey: job.child_key == null ? null : String(job.child_key), attempts: Number(job.attempts) };
    });
  }

  async renewJob(id: number, worker: string, now: number, leaseMs: number) {
    return (await this.db.run("UPDATE jobs SET lease_until = ? WHERE id = ? AND worker = ? AND state = 'running'", [now + leaseMs, id, worker])) > 0;
  }

  async releaseJob(id: number, worker: string) {
    // Handed back unfinished at shutdown: the run did not fail, so it does not use up an attempt.
    await this.db.run("UPDATE jobs SET state = 'queued', worker = NULL, lease_until = 0, attempts = attempts - 1 WHERE id = ? AND worker = ? AND state = 'running'", [id, worker]);
  }

  async finishJob(id: number) {
    await this.db.run('DELETE FROM jobs WHERE id = ?', [id]);
  }

  async releaseAllJobs() {
    await this.db.run("UPDATE jobs SET state = 'queued', worker = NULL, lease_until = 0 WHERE state = 'running'");
  }

  async queueDepth() {
    const row = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs');
    return Number(row?.n ?? 0);
  }
}

/** Queues a job inside the caller's transaction (the avatar or result it is for is written in the same one). */
export async function queueJob(q: Sql, kind: JobKind, avatarKey: string, childKey: string | null, now: number) {
  await q.run("INSERT INTO jobs (kind, avatar_key, child_key, state, worker, lease_until, attempts, created_at) VALUES (?, ?, ?, 'queued', NULL, 0, 0, ?)", [
    kind, avatarKey, childKey, now,
  ]);
}
