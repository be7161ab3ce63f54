import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { answering, exited, freePort } from '../../tools/harness/process.ts';
import { scriptedPipeline, tempDir } from '../../tools/harness/service.ts';

const root = path.resolve(import.meta.dirname, '../..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, done: () => boolean, timeoutMs: number) {
  for (const end = Date.now() + timeoutMs; !done(); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('stopping', () => {
  it('a SIGTERM to the process npm start started stops the service gracefully', { timeout: 120_000 }, async () => {
    const dataDir = tempDir('avatar-stop-');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SAMPLES: '0', LOG_LEVEL: 'warn', PIPELINE_MODULE: scriptedPipeline },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout!.on('data', (d) => (out += d));
    npm.stderr!.on('data', (d) => (out += d));
    // The embedded service writes its process id into its data directory's lock.
    const lock = path.join(dataDir, 'service.lock');
    let service = 0;
    try {
      await answering(npm, `${url}/healthz`, 60_000, () => out);
      service = Number(fs.readFileSync(lock, 'utf8'));
      assert.ok(alive(service));

      npm.kill('SIGTERM');
      await exited(npm);
      await until('the service process to exit', () => !alive(service), 30_000);
      assert.equal(fs.existsSync(lock), false, 'the service let go of its data directory: it stopped through its shutdown, not killed');
      await assert.rejects(fetch(`${url}/healthz`), 'nothing answers any more');
    } finally {
      if (service && alive(service)) process.kill(service, 'SIGKILL');
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
