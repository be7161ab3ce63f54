import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `npm start` as a real process (node --import tsx src/main.ts), ready when it answers HTTP. */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  const root = path.resolve(new URL('../..', import.meta.url).pathname);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await answering(child, `${url}/v2/openapi.json`, 60_000, () => out);
  return { child, url, output: () => out };
}

/** Waits until `url` answers HTTP (any status); throws with `output()` if the process exits first or the time runs out. */
export async function answering(child: ChildProcess, url: string, timeoutMs: number, output: () => string = () => '') {
  for (const end = Date.now() + timeoutMs; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > end) throw new Error(`server did not start: ${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function readCredentials(dataDir: string) {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { key: string; secret: string };
}

export async function exited(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once('exit', r));
}
