import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { authorizationHeader } from '../src/protocol/digest.ts';
import { exited, freePort, readCredentials, startServerProcess } from '../test/helpers/process.ts';
import { jpeg, scriptedPipeline, tempDir, TestClient } from '../test/helpers/service.ts';
import type { Figure } from './figure.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function load(url: string, setup?: (req: { path: string; headers?: Record<string, string> }) => object) {
  const result = await autocannon({
    url,
    connections: 50,
    duration: SECONDS,
    ...(setup ? { requests: [{ setupRequest: setup }] } : {}),
  } as autocannon.Options);
  return { rps: result.requests.average, errors: result.errors + result.non2xx, p99: result.latency.p99 };
}

/** Runs one of the bench's own servers in its own process while `measure` loads it. */
async function withServer<T>(file: string, env: NodeJS.ProcessEnv, measure: (url: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(file, import.meta.url).pathname], { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1500));
  try {
    return await measure(`http://127.0.0.1:${port}`);
  } finally {
    child.kill();
    await exited(child);
  }
}

/**
 * Authenticated status polls per second against a bare fastify hello-world, each server in its own
 * process, and against the floor: a fastify app that only verifies the digest, with nonces and the
 * status in memory (status-floor-server.ts).
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
  const signed = (req: { path: string; headers?: Record<string, string> }) => ({
    ...req,
    path,
    headers: { authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `bench-${process.pid}-${n++}`) },
  });

  const hello = await withServer('./hello-server.ts', {}, (url) => load(`${url}/hello`));
  const floor = await withServer('./status-floor-server.ts', { KEY: creds.key, SECRET: creds.secret, BODY: body }, (url) => load(`${url}${path}`, signed));
  const status = await load(`${server.url}${path}`, signed);
  server.child.kill('SIGTERM');
  await exited(server.child);
  if (status.errors > 0 || floor.errors > 0) throw new Error(`status polls failed: ${status.errors} (floor: ${floor.errors})`);
  const ratio = (a: number) => Math.round((a / hello.rps) * 100) / 100;
  return [
    { key: 'hello_rps', value: Math.round(hello.rps), unit: 'req/s' },
    { key: 'status_floor_rps', value: Math.round(floor.rps), unit: 'req/s', baseline: 'hello_rps' },
    { key: 'status_rps', value: Math.round(status.rps), unit: 'req/s', baseline: 'hello_rps', goal: 'ratio >= 0.5' },
    { key: 'status_p99_ms', value: status.p99, unit: 'ms' },
    { key: 'status_floor_to_hello_ratio', value: ratio(floor.rps), unit: '' },
    { key: 'status_to_hello_ratio', value: ratio(status.rps), unit: '', goal: '>= 0.5' },
  ];
}
