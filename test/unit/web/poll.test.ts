import assert from 'node:assert/strict';
import { test } from 'node:test';

type Outcome = 'changed' | 'same' | 'finished';
type Poll = (
  check: () => Promise<Outcome>,
  options: { first?: number; max?: number; now?: boolean; schedule: (fn: () => void, ms: number) => number; cancel: (id: number) => void },
) => () => void;

// The portal's scripts are plain browser modules (no types): loaded by URL.
const { pollWithBackoff } = (await import(new URL('../../../web/js/poll.js', import.meta.url).href)) as { pollWithBackoff: Poll };

/** Runs a poll whose `check` answers from `answers` (an Error answer throws), with the pauses recorded instead of waited. */
async function pauses(answers: (Outcome | Error)[], options: { first?: number; max?: number; now?: boolean } = {}) {
  const asked: number[] = [];
  let calls = 0;
  let pending: (() => void) | undefined;
  pollWithBackoff(async () => {
    calls++;
    const a = answers.shift();
    if (a === undefined) throw new Error('polled after the last answer');
    if (a instanceof Error) throw a;
    return a;
  }, { ...options, schedule: (fn, ms) => (asked.push(ms), (pending = fn), asked.length), cancel: () => (pending = undefined) });
  // Each round settles within a turn of the event loop; then the pause it asked for is skipped.
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setImmediate(r));
    const fn = pending;
    pending = undefined;
    fn?.();
  }
  return { asked, calls };
}

test('polls at once, then waits longer by half while nothing changes, twice as long after a failure, back to the first pause on a change, and stops when finished', async () => {
  const { asked, calls } = await pauses(['changed', 'same', 'same', 'same', new Error('offline'), 'changed', 'finished']);
  assert.deepEqual(asked, [1000, 1500, 2250, 3375, 6750, 1000]);
  assert.equal(calls, 7);
});

test('the pause never exceeds max, and a poll may start after the first pause (the gallery: the list ttl)', async () => {
  const { asked } = await pauses(['same', 'same', 'same', 'same', 'finished'], { first: 3000, max: 5000, now: false });
  assert.deepEqual(asked, [3000, 4500, 5000, 5000, 5000]);
});

test('stop() ends the polling', async () => {
  let calls = 0;
  const timers: (() => void)[] = [];
  const stop = pollWithBackoff(async () => (calls++, 'same'), { schedule: (fn) => timers.push(fn), cancel: () => timers.splice(0) });
  await new Promise((r) => setImmediate(r));
  stop();
  timers.forEach((fn) => fn());
  await new Promise((r) => setImmediate(r));
  assert.equal(calls, 1);
});
