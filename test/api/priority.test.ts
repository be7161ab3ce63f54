import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { jpeg, startTestService } from '../../tools/harness/service.ts';

/** Nice value of each thread of this process, from /proc (field 19 of a task's stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

describe('scheduling priority', { skip: process.platform !== 'linux' && 'nice values per thread are Linux' }, () => {
  it('runs the job worker threads at WORKER_NICE and leaves the API thread as it was', async () => {
    const before = threadNices();
    const s = await startTestService({ workers: 2, workerNice: 7 });
    try {
      // The worker threads lower their priority first thing; give them the moment it takes to start.
      let started: number[] = [];
      for (let i = 0; i < 100 && started.length < 2; i++) {
        started = [...threadNices()].filter(([tid, nice]) => !before.has(tid) && nice === 7).map(([tid]) => tid);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(started.length, 2, 'one thread at nice 7 per worker');
      assert.equal(threadNices().get(process.pid), before.get(process.pid), 'the main thread, which answers HTTP, keeps its priority');
      const done = await s.client.waitFor((await s.client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 48))).body.key);
      assert.equal(done.status, 'done', 'avatars are still made');
    } finally {
      await s.stop();
    }
  });

  it('reads WORKER_NICE: 10 by default, a whole number from 0 to 19', () => {
    assert.equal(loadConfig({}).workerNice, 10);
    assert.equal(loadConfig({ WORKER_NICE: '0' }).workerNice, 0);
    for (const bad of ['20', '2.5', '-1', 'low']) assert.throws(() => loadConfig({ WORKER_NICE: bad }), /WORKER_NICE/, bad);
  });
});
