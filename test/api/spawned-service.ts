import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = new URL('../../', import.meta.url);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `npm start` as a user runs it (node --import tsx src/main.ts, its own process, real HTTP and speech),
 * with a fresh DATA_DIR, a free PORT, no samples, and the scripted pipeline of the service tests so that
 * avatars finish in about `pipelineMs`.
 */
export async function spawnService(env: Record<string, string> = {}, pipelineMs = 300) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'avatar-client-test-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SAMPLES: '0', LOG_LEVEL: 'warn',
      PIPELINE_MODULE: new URL('test/helpers/scripted-pipeline.ts', root).href, SCRIPTED_PIPELINE_MS: String(pipelineMs), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${log}`);
    const up = await fetch(`${url}/v2/profile`).then(() => true, () => false);
    const credentials = await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8').catch(() => undefined);
    if (up && credentials) {
      const { key, secret } = JSON.parse(credentials) as { key: string; secret: string };
      return {
        url, key, secret, dataDir,
        log: () => log,
        async stop() {
          if (child.exitCode === null) {
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.kill('SIGTERM');
            await exited;
          }
          await fs.rm(dataDir, { recursive: true, force: true });
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not come up within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export type SpawnedService = Awaited<ReturnType<typeof spawnService>>;

/** A face photo of the shared test data (tests may read it; the product never does). */
export const testPhoto = () => fs.readFile(new URL('../shared/testdata/faces/p01-a.jpg', root));
