import autocannon from 'autocannon';
import fs from 'node:fs';
import { authorizationHeader } from '../src/protocol/digest.ts';
import { exited, readCredentials, startServerProcess } from '../test/helpers/process.ts';
import { tempDir, TestClient } from '../test/helpers/service.ts';
import type { Figure } from './figure.ts';

/** The longest the polls run while the avatars are made (they stop sooner when the last one is made). */
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CLIENTS = 200;
const AVATARS = 20;

interface Polls {
  /** How long the polls ran. */
  seconds: number;
  requests: number;
  errors: number;
  /** Latencies of every poll (autocannon's histogram), ms. */
  p50: number;
  p99: number;
  /** The status polls alone, ms. */
  statusP50: number;
  statusP99: number;
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
const ms = (x: number) => Math.round(x * 10) / 10;

/** Nonces are single-use: one counter for every phase of the run. */
let nonces = 0;

/**
 * CLIENTS connections poll for `seconds`, or until `until` settles, each one in turn the status of one
 * of `keys` and the first page of the list, every poll as soon as the previous one is answered.
 */
async function poll(url: string, creds: { key: string; secret: string }, keys: string[], seconds: number, until?: Promise<unknown>): Promise<Polls> {
  let n = 0;
  const sign = (path: string) => ({ authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `load-${process.pid}-${nonces++}`) });
  // autocannon calls a request's onResponse and then emits the client's 'response' with the latency, in one go.
  let answered: 'status' | 'list' = 'status';
  const status: number[] = [];
  const started = performance.now();
  // Without a callback autocannon answers a promise that is also the run's tracker, with stop().
  const polls = autocannon({
    url,
    connections: CLIENTS,
    duration: seconds,
    setupClient: (client: { on(event: 'response', f: (code: number, bytes: number, latencyMs: number) => void): void }) =>
      client.on('response', (_code, _bytes, latencyMs) => answered === 'status' && status.push(latencyMs)),
    requests: [
      {
        setupRequest: (req: object) => {
          const path = `/v2/avatar/${keys[n++ % keys.length]}/status`;
          return { ...req, method: 'GET', path, headers: sign(path) };
        },
        onResponse: () => (answered = 'status'),
      },
      {
        setupRequest: (req: object) => ({ ...req, method: 'GET', path: '/v2/avatar/list', headers: sign('/v2/avatar/list') }),
        onResponse: () => (answered = 'list'),
      },
    ],
  } as autocannon.Options) as Promise<autocannon.Result> & { stop(): void };
  void until?.then(() => polls.stop());
  const result = await polls;
  status.sort((a, b) => a - b);
  return {
    seconds: (performance.now() - started) / 1000,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusP50: percentile(status, 0.5),
    statusP99: percentile(status, 0.99),
  };
}

/** The final status of each of `keys`, once every one is done or failed; one status read at a time, twice a second. */
async function allMade(client: TestClient, keys: string[]): Promise<string[]> {
  const finals = new Map<string, string>();
  for (;;) {
    for (const key of keys.filter((k) => !finals.has(k))) {
      const { status } = (await client.get(`/v2/avatar/${key}/status`)).body as { status: string };
      if (status === 'done' || status === 'error') finals.set(key, status);
    }
    if (finals.size === keys.length) return keys.map((k) => finals.get(k)!);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The load test of issues 10 and 17: 200 concurrent clients poll status and list while 20 avatars are
 * made by the real pipeline in the same process (at most SECONDS: the polls stop when the last avatar
 * is made), then the same polls of the same avatars, for as long, once they are all made. The status
 * p99 during generation is the goal, beside the p99 of the same polls with nothing being made.
 */
export default async function (): Promise<Figure[]> {
  const dataDir = tempDir('avatar-load-');
  const server = await startServerProcess({ DATA_DIR: dataDir, SAMPLES: '0', LOG_LEVEL: 'warn', RATE_LIMIT: '1000000' });
  try {
    const creds = readCredentials(dataDir);
    const c = new TestClient(server.url, creds.key, creds.secret);
    const photo = new Uint8Array(fs.readFileSync(new URL('../test/fixtures/faces/p03-a.jpg', import.meta.url)));
    // One avatar first: the worker loads the pipeline before anything is measured.
    await c.waitFor((await c.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key, 600_000);
    const started = Date.now();
    const keys: string[] = [];
    for (let i = 0; i < AVATARS; i++) keys.push((await c.upload('/v2/avatar/new/photo/maya,unity/2.0/expressions', photo)).body.key);
    const made = allMade(c, keys);
    const busy = await poll(server.url, creds, keys, SECONDS, made);
    const finals = await made;
    const generatedSeconds = (Date.now() - started) / 1000;
    const idle = await poll(server.url, creds, keys, busy.seconds);
    return [
      { key: 'load_requests', value: busy.requests, unit: 'requests', baseline: 'load_idle_requests' },
      { key: 'load_idle_requests', value: idle.requests, unit: 'requests' },
      { key: 'load_errors', value: busy.errors + idle.errors, unit: 'requests', goal: '0' },
      { key: 'load_status_p99_ms', value: ms(busy.statusP99), unit: 'ms', baseline: 'load_idle_status_p99_ms', goal: '<= 50' },
      { key: 'load_idle_status_p99_ms', value: ms(idle.statusP99), unit: 'ms' },
      { key: 'load_status_p50_ms', value: ms(busy.statusP50), unit: 'ms', baseline: 'load_idle_status_p50_ms' },
      { key: 'load_idle_status_p50_ms', value: ms(idle.statusP50), unit: 'ms' },
      { key: 'load_p99_ms', value: busy.p99, unit: 'ms', baseline: 'load_idle_p99_ms' },
      { key: 'load_idle_p99_ms', value: idle.p99, unit: 'ms' },
      { key: 'load_seconds', value: Math.round(busy.seconds), unit: 's a phase' },
      { key: 'load_avatars_done', value: finals.filter((f) => f === 'done').length, unit: `of ${AVATARS}` },
      { key: 'load_avatars_seconds', value: Math.round(generatedSeconds), unit: 's' },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
}
