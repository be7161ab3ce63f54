import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WorkerCrashError, WorkerPool } from '../../../src/speech/pool.ts';
import { spokenChunks } from '../../../src/speech/render.ts';
import { planPlainText } from '../../../src/speech/plan.ts';
import { planSsml } from '../../../src/speech/ssml.ts';
import type { SynthesisJob, SynthesisResult } from '../../../src/speech/synthesis.ts';
import { HARVARD_SENTENCES } from '../../../tools/speech-recognition.ts';

const dir = mkdtempSync(join(tmpdir(), 'speech-pool-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const flaky = new URL('../../helpers/flaky-speech-worker.ts', import.meta.url);

for (const failure of ['exit', 'abort', 'error', 'hang'] as const) {
  test(`a worker that fails (${failure}) is replaced and the job retried once`, async () => {
    const pool = new WorkerPool<{ failure: string; marker: string }, { pid: number }>(flaky, 1, 5000);
    try {
      const first = await pool.run({ failure, marker: join(dir, failure) });
      assert.equal(pool.started, 2, 'a second worker replaced the failed one');
      const again = await pool.run({ failure, marker: join(dir, failure) });
      assert.equal(again.pid, first.pid, 'the replacement keeps serving');
    } finally {
      await pool.close();
    }
  });
}

test('a job that fails twice is rejected and the pool keeps working', async () => {
  const pool = new WorkerPool<{ failure: string; marker: string }, { pid: number }>(flaky, 1);
  try {
    await assert.rejects(pool.run({ failure: 'always', marker: join(dir, 'always') }), WorkerCrashError);
    assert.equal(pool.started, 2);
    await pool.run({ failure: 'exit', marker: join(dir, 'always') });
  } finally {
    await pool.close();
  }
});

test('a real engine failure restarts the speech worker, retries, and later requests still succeed', async () => {
  const pool = new WorkerPool<SynthesisJob, SynthesisResult>(new URL('../../../src/speech/worker.ts', import.meta.url), 1);
  const text = 'Hello there.';
  const job = (engineVoice: string): SynthesisJob => ({
    engine: 'espeak',
    engineVoice,
    plan: planPlainText(text).plan,
    input: new TextEncoder().encode(text),
    modes: { audio: 'pcm', json: false },
  });
  try {
    assert.equal(spokenChunks(job('x').plan).length, 1);
    await assert.rejects(pool.run(job('no-such-voice')), /failed twice.*no voice/s);
    assert.equal(pool.started, 2, 'the failing worker was replaced before the retry');
    const ok = await pool.run(job('gmw/en-US'));
    assert.ok(ok.audio && ok.audio.data.length > 16000, 'a fresh worker synthesizes');
    assert.equal(pool.started, 3);
  } finally {
    await pool.close();
  }
});

test('many flite runs in one worker do not crash it (Node 20 WASI garbage-collection abort)', async () => {
  const pool = new WorkerPool<SynthesisJob, SynthesisResult>(new URL('../../../src/speech/worker.ts', import.meta.url), 1);
  // Alternating rates keep flite from saying sentences together: one run per sentence.
  const text = HARVARD_SENTENCES.map((s, i) => `<prosody rate="${i % 2 ? 85 : 100}%">${s.replace(/'/g, '&apos;')}</prosody>`).join(' ');
  const ssml = `<speak>${text}</speak>`;
  try {
    const { plan } = planSsml(ssml);
    assert.equal(spokenChunks(plan).length, HARVARD_SENTENCES.length);
    const result = await pool.run({ engine: 'flite', engineVoice: 'rms', plan, input: new TextEncoder().encode(ssml), modes: { audio: 'pcm', json: false } });
    assert.ok(result.audio!.durationMs > 60_000, `${result.audio!.durationMs} ms`);
    assert.equal(pool.started, 1, 'no worker crashed');
  } finally {
    await pool.close();
  }
});
