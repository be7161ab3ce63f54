import autocannon from 'autocannon';
import { authorizationHeader } from './src/protocol/digest.ts';
import { exited, readCredentials, freePort } from './test/helpers/process.ts';
import { spawn } from 'node:child_process';
import { jpeg, scriptedPipeline, tempDir, TestClient } from './test/helpers/service.ts';
const dataDir = tempDir('avatar-prof-');
const port = await freePort();
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/scratch/prof', '--import', 'tsx', 'src/main.ts'], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SAMPLES: '0', WORKERS: '0', PIPELINE_MODULE: scriptedPipeline, LOG_LEVEL: 'warn', RATE_LIMIT: '1000000' }, stdio: 'inherit' });
const server = { child, url: `http://127.0.0.1:${port}` };
for (;;) { try { await fetch(server.url + '/v2/openapi.json'); break; } catch { await new Promise((r) => setTimeout(r, 100)); } }
const creds = readCredentials(dataDir);
const client = new TestClient(server.url, creds.key, creds.secret);
const key = (await client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 64))).body.key as string;
const path = `/v2/avatar/${key}/status`;
let n = 0;
const r = await autocannon({ url: server.url + path, connections: 50, duration: 6, requests: [{ setupRequest: (req: any) => ({ ...req, path, headers: { authorization: authorizationHeader(creds.key, creds.secret, path, 'sha256', `p-${n++}`) } }) }] } as any);
console.log('rps', r.requests.average);
server.child.kill('SIGTERM'); await exited(server.child);
