import fs from 'node:fs';
import http from 'node:http';
import { authorizationHeader } from '../src/protocol/digest.ts';
import { exited, readCredentials, startServerProcess } from '../tools/harness/process.ts';
import { tempDir, TestClient } from '../tools/harness/service.ts';
import type { Figure } from './figure.ts';

/** The longest the polls run while the avatars are made (they stop sooner when the last one is made). */
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CLIENTS = 200;
const AVATARS = 20;
/** Each client's poll interval: the typed client's and the portal's first (and shortest) interval. */
const POLL_MS = 1000;

interface Polls {
  /** How long the polls ran. */
  seconds: number;
  requests: number;
  errors: number;
  /** Latencies of every poll, ms. */
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

/** One signed GET on a kept-alive connection: its status code and its latency in ms. */
function get(agent: http.Agent, url: URL, path: string, creds: { key: string; secret: string }): Promise<{ code: number; ms: number }> {
  const headers = { authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `load-${process.pid}-${nonces++}`) };
  const sent = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ agent, host: url.hostname, port: url.port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ code: res.statusCode ?? 0, ms: performance.now() - sent }));
    });
    req.on('error', () => resolve({ code: 0, ms: performance.now() - sent }));
  });
}

/**
 * CLIENTS clients poll for `seconds`, or until `until` settles. Each reads the status of one of `keys`
 * and then the first page of the list once every POLL_MS, from its own random phase, as clients that
 * started at different times do. Polls sent back to back would measure the API's capacity instead
 * (bench/service.ts does that): the queue of 200 waiting connections would set the p99 even with nothing
 * being made.
 */
async function poll(url: string, creds: { key: string; secret: string }, keys: string[], seconds: number, until?: Promise<unknown>): Promise<Polls> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const target = new URL(url);
  const status: number[] = [];
  const all: number[] = [];
  let errors = 0;
  let stopped = false;
  void until?.then(() => (stopped = true));
  const started = performance.now();
  const end = started + seconds * 1000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  const client = async (c: number) => {
    let next = started + Math.random() * POLL_MS;
    for (let n = c; ; n += CLIENTS) {
      await sleep(next - performance.now());
      if (stopped || performance.now() >= end) return;
      const s = await get(agent, target, `/v2/avatar/${keys[n % keys.length]}/status`, creds);
      const l = await get(agent, target, '/v2/avatar/list', creds);
      status.push(s.ms);
      all.push(s.ms, l.ms);
      errors += Number(s.code !== 200) + Number(l.code !== 200);
      next += POLL_MS;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  agent.destroy();
  status.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  return {
    seconds: (performance.now() - started) / 1000,
    requests: all.length,
    errors,
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
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
 * The load test of issues 10 and 17: 200 clients poll status and list, each once a second, while 20 avatars are
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
      { key: 'load_p99_ms', value: ms(busy.p99), unit: 'ms', baseline: 'load_idle_p99_ms' },
      { key: 'load_idle_p99_ms', value: ms(idle.p99), unit: 'ms' },
      { key: 'load_seconds', value: Math.round(busy.seconds), unit: 's a phase' },
      { key: 'load_avatars_done', value: finals.filter((f) => f === 'done').length, unit: `of ${AVATARS}` },
      { key: 'load_avatars_seconds', value: Math.round(generatedSeconds), unit: 's' },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
}
