import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { exited, readCredentials, startServerProcess } from '../../tools/harness/process.ts';
import { jpeg, scriptedPipeline, tempDir, TestClient } from '../../tools/harness/service.ts';

describe('crash recovery', () => {
  it('finishes every avatar after SIGKILL with jobs queued and running, with exact points', async () => {
    const dataDir = tempDir('avatar-crash-');
    const env = { DATA_DIR: dataDir, PIPELINE_MODULE: scriptedPipeline, SCRIPTED_PIPELINE_MS: '400', SAMPLES: '0' };
    let server = await startServerProcess(env);
    const creds = readCredentials(dataDir);
    let c = new TestClient(server.url, creds.key, creds.secret);
    const photo = await jpeg(40, 40);
    const failing = await jpeg(17, 20);
    const keys: string[] = [];
    for (let i = 0; i < 8; i++) keys.push((await c.upload('/v2/avatar/new/photo/maya/2.0', i === 3 ? failing : photo)).body.key);
    // wait until one is being processed, then kill the process outright
    for (;;) {
      const st = await c.get(`/v2/avatar/${keys[0]}/status`);
      if (st.body.status === 'processing' && st.body.percent > 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    server.child.kill('SIGKILL');
    await exited(server.child);
    assert.ok(fs.existsSync(path.join(dataDir, 'service.lock')), 'the dead process left its lock behind');

    server = await startServerProcess(env);
    c = new TestClient(server.url, creds.key, creds.secret);
    try {
      const finals = [];
      for (const k of keys) finals.push(await c.waitFor(k, 60_000));
      assert.deepEqual(finals.map((f) => f.status), keys.map((_, i) => (i === 3 ? 'error' : 'done')));
      const profile = (await c.get('/v2/profile')).body;
      assert.equal(profile.points, 1000 - 7 * 10, 'seven charged once each, the failed one refunded');
      for (const k of keys.filter((_, i) => i !== 3)) assert.equal((await c.get(`/v2/avatar/${k}/download/maya`)).status, 200);
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'files', '.tmp')), [], 'no half-written files left behind');
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });
});
