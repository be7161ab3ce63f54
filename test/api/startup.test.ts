import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, it } from 'node:test';
import { exited, readCredentials, startServerProcess } from '../../tools/harness/process.ts';
import { tempDir } from '../../tools/harness/service.ts';

/** `npm start` in its own process until it answers, then stopped; what it printed. */
async function startOnce(env: Record<string, string>) {
  const server = await startServerProcess({ SAMPLES: '0', LOG_LEVEL: 'info', ...env });
  server.child.kill('SIGTERM');
  await exited(server.child);
  return { url: server.url, output: server.output() };
}

describe('what npm start prints', () => {
  it('says where the portal is and how to sign in, unless LOG_FORMAT=json asks for the JSON log alone', async () => {
    const dataDir = tempDir('avatar-startup-');
    try {
      const first = await startOnce({ DATA_DIR: dataDir });
      const { secret } = readCredentials(dataDir);
      const port = new URL(first.url).port;
      assert.match(first.output, new RegExp(`^Portal: http://localhost:${port}/ - sign in as demo@localhost \\(the password is in ${dataDir}/demo-credentials\\.json\\)$`, 'm'));
      assert.match(first.output, new RegExp(`^  secret: ${secret}$`, 'm'), 'the first start shows the demo credentials');

      const json = await startOnce({ DATA_DIR: dataDir, LOG_FORMAT: 'json' });
      const lines = json.output.trim().split('\n');
      assert.ok(lines.length >= 2, json.output);
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
      assert.ok(!json.output.includes(secret));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
