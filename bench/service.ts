import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { authorizationHeader } from '../src/protocol/digest.ts';
import { answering, exited, freePort, readCredentials, startServerProcess } from '../tools/harness/process.ts';
import { jpeg, scriptedPipeline, tempDir, TestClient } from '../tools/harness/service.ts';
import type { Figure } from './figure.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Each server is loaded this many times, the three in turn, so that a slow spell of the shared machine hits them alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Linux reports process CPU time in ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

type Setup = (req: { path: string; headers?: Record<string, string> }) => object;
interface Target {
  name: string;
  child: ChildProcess;
  url: string;
  setup?: Setup;
}
interface Sample {
  rps: number;
  /** Server CPU time (user + system, all threads) per request answered. */
  cpuUs: number;
  errors: number;
  p99: number;
}

function cpuSeconds(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 14th field, stime the 15th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function load(target: Target): Promise<Sample> {
  const before = cpuSeconds(target.child.pid!);
  const result = await autocannon({
    url: target.url,
    connections: 50,
    duration: SECONDS,
    ...(target.setup ? { requests: [{ setupRequest: target.setup }] } : {}),
  } as autocannon.Options);
  const cpu = cpuSeconds(target.child.pid!) - before;
  return { rps: result.requests.average, cpuUs: (cpu / Math.max(1, result.requests.total)) * 1e6, errors: result.errors + result.non2xx, p99: result.latency.p99 };
}

/** One of the bench's own servers (bench/servers) in its own process. */
async function benchServer(file: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(file, import.meta.url).pathname], { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await answering(child, url, 30_000, () => file);
  return { child, url };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Authenticated status polls per second against a bare fastify hello-world, each server in its own
 * process, and against the floor: a fastify app that only verifies the digest, with nonces and the
 * status in memory (servers/status-floor.ts). The three are loaded in turn, ROUNDS times, and each
 * figure is the median of its rounds; beside the request rates, the server's CPU time per request,
 * which the other work on a shared machine disturbs less.
 */
export default async function (): Promise<Figure[]> {
  const dataDir = tempDir('avatar-bench-');
  const server = await startServerProcess({ DATA_DIR: dataDir, SAMPLES: '0', WORKERS: '0', PIPELINE_MODULE: scriptedPipeline, LOG_LEVEL: 'warn', RATE_LIMIT: '1000000' });
  const creds = readCredentials(dataDir);
  const client = new TestClient(server.url, creds.key, creds.secret);
  const key = (await client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 64))).body.key as string;
  const path = `/v2/avatar/${key}/status`;
  const body = JSON.stringify((await client.get(path)).body);
  let n = 0;
  const signed: Setup = (req) => ({
    ...req,
    path,
    headers: { authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `bench-${process.pid}-${n++}`) },
  });

  const hello = await benchServer('./servers/hello.ts', {});
  const floor = await benchServer('./servers/status-floor.ts', { KEY: creds.key, SECRET: creds.secret, BODY: body });
  const targets: Target[] = [
    { name: 'hello', ...hello, url: `${hello.url}/hello` },
    { name: 'floor', ...floor, url: `${floor.url}${path}`, setup: signed },
    { name: 'status', child: server.child, url: `${server.url}${path}`, setup: signed },
  ];
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
  try {
    for (let r = 0; r < ROUNDS; r++) for (const t of targets) samples.get(t.name)!.push(await load(t));
  } finally {
    for (const child of [hello.child, floor.child, server.child]) {
      child.kill('SIGTERM');
      await exited(child);
    }
  }
  const errors = [...samples.values()].flat().reduce((a, s) => a + s.errors, 0);
  if (errors > 0) throw new Error(`${errors} requests failed`);
  const rps = (name: string) => median(samples.get(name)!.map((s) => s.rps));
  const cpu = (name: string) => median(samples.get(name)!.map((s) => s.cpuUs));
  return [
    { key: 'hello_rps', value: Math.round(rps('hello')), unit: 'req/s' },
    { key: 'status_floor_rps', value: Math.round(rps('floor')), unit: 'req/s', baseline: 'hello_rps' },
    { key: 'status_rps', value: Math.round(rps('status')), unit: 'req/s', baseline: 'hello_rps', goal: 'ratio >= 0.5' },
    { key: 'status_p99_ms', value: median(samples.get('status')!.map((s) => s.p99)), unit: 'ms' },
    { key: 'status_floor_to_hello_ratio', value: round2(rps('floor') / rps('hello')), unit: '' },
    { key: 'status_to_hello_ratio', value: round2(rps('status') / rps('hello')), unit: '', goal: '>= 0.5' },
    { key: 'hello_cpu_per_request', value: round2(cpu('hello')), unit: 'µs cpu' },
    { key: 'status_floor_cpu_per_request', value: round2(cpu('floor')), unit: 'µs cpu', baseline: 'hello_cpu_per_request' },
    { key: 'status_cpu_per_request', value: round2(cpu('status')), unit: 'µs cpu', baseline: 'hello_cpu_per_request' },
    { key: 'status_floor_to_hello_cpu_ratio', value: round2(cpu('hello') / cpu('floor')), unit: '' },
    { key: 'status_to_hello_cpu_ratio', value: round2(cpu('hello') / cpu('status')), unit: '' },
  ];
}
