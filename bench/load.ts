import autocannon from 'autocannon';
import fs from 'node:fs';
import { authorizationHeader } from '../src/protocol/digest.ts';
import { exited, readCredentials, startServerProcess } from '../test/helpers/process.ts';
import { tempDir, TestClient } from '../test/helpers/service.ts';
import type { Figure } from './figure.ts';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CLIENTS = 200;
const AVATARS = 20;

/**
 * The load test of issue 10: 200 concurrent clients poll status and list for a minute while 20
 * avatars are made by the real pipeline in the same process. Reports errors and status latency.
 */
export default async function (): Promise<Figure[]> {
  const dataDir = tempDir('avatar-load-');
  const server = await startServerProcess({ DATA_DIR: dataDir, SAMPLES: '0', LOG_LEVEL: 'warn', RATE_LIMIT: '1000000' });
  try {
    const creds = readCredentials(dataDir);
    const c = new TestClient(server.url, creds.key, creds.secret);
    const photo = new Uint8Array(fs.readFileSync(new URL('../test/fixtures/faces/p03-a.jpg', import.meta.url)));
    const first = (await c.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key as string;
    const started = Date.now();
    const keys = [first];
    for (let i = 1; i < AVATARS; i++) keys.push((await c.upload('/v2/avatar/new/photo/maya,unity/2.0/expressions', photo)).body.key);
    let n = 0;
    const sign = (path: string) => ({ authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `load-${n++}`) });
    const result = await autocannon({
      url: server.url,
      connections: CLIENTS,
      duration: SECONDS,
      requests: [
        { setupRequest: (req: object) => { const path = `/v2/avatar/${keys[n % keys.length]}/status`; return { ...req, method: 'GET', path, headers: sign(path) }; } },
        { setupRequest: (req: object) => ({ ...req, method: 'GET', path: '/v2/avatar/list', headers: sign('/v2/avatar/list') }) },
      ],
    } as autocannon.Options);
    const finals = await Promise.all(keys.map((k) => c.waitFor(k, 600_000)));
    const generatedSeconds = (Date.now() - started) / 1000;
    return [
      { key: 'load_requests', value: result.requests.total, unit: 'requests' },
      { key: 'load_errors', value: result.errors + result.non2xx + result.timeouts, unit: 'requests', goal: '0' },
      { key: 'load_p99_ms', value: result.latency.p99, unit: 'ms', baseline: 'status_p99_ms' },
      { key: 'load_p50_ms', value: result.latency.p50, unit: 'ms' },
      { key: 'load_avatars_done', value: finals.filter((f) => f.status === 'done').length, unit: `of ${AVATARS}` },
      { key: 'load_avatars_seconds', value: Math.round(generatedSeconds), unit: 's' },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
}
