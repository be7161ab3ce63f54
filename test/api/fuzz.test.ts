import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFuzz } from '../fuzz/run-fuzz.ts';

describe('fuzzing (bounded run; `npm run fuzz` for thousands)', () => {
  it('answers hostile input on every channel with documented 4xx codes and no 5xx', async (t) => {
    const report = await runFuzz(40, Number(process.env.FUZZ_SEED ?? 7));
    for (const [channel, n] of Object.entries(report.tried)) t.diagnostic(`${channel}: ${n} inputs`);
    t.diagnostic(`memory growth ${report.rssGrowthMb} MB`);
    assert.equal(Object.keys(report.tried).length, 10);
    assert.deepEqual(report.failures, []);
    assert.deepEqual(report.strayFiles, [], 'nothing written outside the data directory');
    assert.ok(report.rssGrowthMb < 400, `memory grew by ${report.rssGrowthMb} MB`);
  });
});
