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

/** Authenticated status polls per second against a bare fastify hello-world, both in their own process. */
export default async function (): Promise<Figure[]> {
  const port = await freePort();
  const hello = spawn(process.execPath, ['--import', 'tsx', new URL('./hello-server.ts', import.meta.url).pathname], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1500));
  const base = await load(`http://127.0.0.1:${port}/hello`);
  hello.kill();
  await exited(hello);

  const dataDir = tempDir('avatar-bench-');
  const server = await startServerProcess({ DATA_DIR: dataDir, SAMPLES: '0', WORKERS: '0', PIPELINE_MODULE: scriptedPipeline, LOG_LEVEL: 'warn', RATE_LIMIT: '1000000' });
  const creds = readCredentials(dataDir);
  const client = new TestClient(server.url, creds.key, creds.secret);
  const key = (await client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 64))).body.key as string;
  const path = `/v2/avatar/${key}/status`;
  let n = 0;
  const status = await load(`${server.url}${path}`, (req) => ({
    ...req,
    path,
    headers: { authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `bench-${process.pid}-${n++}`) },
  }));
  server.child.kill('SIGTERM');
  await exited(server.child);
  if (status.errors > 0) throw new Error(`status polls failed: ${status.errors}`);
  return [
    { key: 'hello_rps', value: Math.round(base.rps), unit: 'req/s' },
    { key: 'status_rps', value: Math.round(status.rps), unit: 'req/s', baseline: 'hello_rps', goal: 'ratio >= 0.5' },
    { key: 'status_p99_ms', value: status.p99, unit: 'ms' },
    { key: 'status_to_hello_ratio', value: Math.round((status.rps / base.rps) * 100) / 100, unit: '', goal: '>= 0.5' },
  ];
}
