import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestService, tempDir, TestClient } from '../../tools/harness/service.ts';

const run = promisify(execFile);
const admin = async (dataDir: string, ...args: string[]) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args, '--json'], { env: { ...process.env, DATA_DIR: dataDir } });
  return JSON.parse(stdout);
};

describe('admin command line', () => {
  it('creates accounts and keys, grants points, revokes keys, lists accounts', async () => {
    const dataDir = tempDir();
    const created = await admin(dataDir, 'create-account', '--name', 'acme', '--tier', 'pro', '--tier-label', 'Pro plan', '--features', 'photo,expressions', '--points', '30', '--expires', '2099-01-01');
    assert.match(created.account, /^[0-9a-f]{32}$/);
    assert.match(created.key, /^ak_/);
    assert.ok(created.secret.length >= 32);
    const granted = await admin(dataDir, 'grant', '--account', created.account, '--points', '12');
    assert.equal(granted.points, 12);
    const second = await admin(dataDir, 'create-key', '--account', created.account);

    const s = await startTestService({ dataDir, workers: 0 });
    try {
      const c = new TestClient(s.url, created.key, created.secret);
      const profile = (await c.get('/v2/profile')).body;
      assert.equal(profile.points, 42);
      assert.equal(profile.tier_code, 'pro');
      assert.equal(profile.tier_label, 'Pro plan');
      assert.deepEqual(profile.available_features, ['photo', 'expressions']);
      assert.equal((await new TestClient(s.url, second.key, second.secret).get('/v2/profile')).status, 200);
      await admin(dataDir, 'revoke-key', '--key', second.key);
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await new TestClient(s.url, second.key, second.secret).get('/v2/profile')).status, 401);
      const accounts = await admin(dataDir, 'list-accounts');
      const acme = accounts.find((a: { name: string }) => a.name === 'acme');
      assert.equal(acme.points, 42);
      assert.deepEqual(acme.keys.map((k: { revoked: boolean }) => k.revoked), [false, true]);
      assert.ok(!accounts.some((a: { name: string }) => a.name === 'demo'), 'no demo account when accounts exist before the first start');
    } finally {
      await s.stop();
    }
  });

  it('refuses bad arguments with exit code 1', async () => {
    await assert.rejects(run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'grant', '--account', 'nobody', '--points', '-3'], { env: { ...process.env, DATA_DIR: tempDir() } }), (e: { code: number }) => e.code === 1);
    await assert.rejects(run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'create-account', '--name', 'x', '--features', 'flying'], { env: { ...process.env, DATA_DIR: tempDir() } }), (e: { code: number }) => e.code === 1);
  });
});
