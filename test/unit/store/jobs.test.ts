import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Avatar, Job, Repo } from '../../../src/domain/ports.ts';
import { startRunner } from '../../../src/jobs/runner.ts';
import { secretBox } from '../../../src/store/secret-box.ts';
import { migrate } from '../../../src/store/sql/migrations.ts';
import { sqlRepo } from '../../../src/store/sql/repo.ts';
import { openSqlite } from '../../../src/store/sql/sqlite-executor.ts';

const quiet = { info: () => undefined, error: () => undefined };

function avatar(key: string): Avatar {
  return {
    key, accountId: 'acc', isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: [], platforms: ['maya'], inputType: 'photo',
    createdBy: 'test', percent: 0, status: 'pending', createdAt: 1, updatedAt: 1, charged: 0,
  };
}

describe('job queue on SQLite: leases, retries and hand-back', () => {
  let repo: Repo;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-'));
    const db = openSqlite(path.join(dir, 'service.db'));
    await migrate(db);
    repo = sqlRepo(db, secretBox(crypto.randomBytes(32)));
  });
  after(async () => {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a claimed job is not claimed again while its lease runs, and is once the lease has run out', async () => {
    await repo.avatars.createAvatar({ avatar: avatar('a'.repeat(32)), price: 0 }, 1000);
    const first = await repo.jobs.claimJob('w1', 1000, 500);
    assert.equal(first?.attempts, 1);
    assert.equal(await repo.jobs.claimJob('w2', 1400, 500), undefined);
    const again = await repo.jobs.claimJob('w2', 1600, 500);
    assert.equal(again?.id, first!.id);
    assert.equal(again?.attempts, 2, 'a run whose worker vanished counts');
    assert.equal(await repo.jobs.renewJob(first!.id, 'w1', 1700, 500), false, 'the first worker lost it');
    await repo.jobs.finishJob(first!.id);
    assert.equal(await repo.jobs.queueDepth(), 0);
  });

  it('a job handed back at shutdown is claimable at once and keeps its attempts', async () => {
    await repo.avatars.createAvatar({ avatar: avatar('b'.repeat(32)), price: 0 }, 2000);
    const job = (await repo.jobs.claimJob('w1', 2000, 60_000))!;
    assert.equal(job.attempts, 1);
    await repo.jobs.releaseJob(job.id, 'w2'); // not this worker's: nothing happens
    assert.equal(await repo.jobs.claimJob('w3', 2001, 60_000), undefined);
    await repo.jobs.releaseJob(job.id, 'w1');
    const next = (await repo.jobs.claimJob('w3', 2001, 60_000))!;
    assert.equal(next.id, job.id);
    assert.equal(next.attempts, 1);
    await repo.jobs.finishJob(next.id);
  });

  it('the runner hands a job back when it stops mid-run, and the next runner finishes it on its first attempt', async () => {
    await repo.avatars.createAvatar({ avatar: avatar('c'.repeat(32)), price: 0 }, Date.now());
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = startRunner({
      jobs: repo.jobs, worker: 'r1', leaseMs: 60_000, maxAttempts: 1, idleMs: 50, log: quiet, giveUp: async () => assert.fail('not a failure'),
      handle: (_job, signal) => {
        started();
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
    });
    await running;
    await first.stop(10);
    const seen: Job[] = [];
    const second = startRunner({
      jobs: repo.jobs, worker: 'r2', leaseMs: 60_000, maxAttempts: 1, idleMs: 50, log: quiet, giveUp: async () => assert.fail('not a failure'),
      handle: async (job) => void seen.push(job),
    });
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 10));
    await second.stop();
    assert.equal(seen[0]!.attempts, 1, 'with maxAttempts 1 the job still ran to the end');
    assert.equal(await repo.jobs.queueDepth(), 0);
  });

  it('a job that keeps failing is given up after maxAttempts', async () => {
    await repo.avatars.createAvatar({ avatar: avatar('d'.repeat(32)), price: 0 }, Date.now());
    const failed: number[] = [];
    let runs = 0;
    const runner = startRunner({
      jobs: repo.jobs, worker: 'r3', leaseMs: 60_000, maxAttempts: 2, idleMs: 20, log: quiet,
      giveUp: async (job) => void failed.push(job.attempts),
      handle: async () => {
        runs++;
        throw new Error('broken input');
      },
    });
    const end = Date.now() + 10_000;
    while (failed.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await runner.stop();
    assert.deepEqual(failed, [2]);
    assert.equal(runs, 2);
    assert.equal(await repo.jobs.queueDepth(), 0);
  });
});
