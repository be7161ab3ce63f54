import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { configPath, loadConfig, saveConfig } from '../../../src/client/node/config.ts';

const tmp = () => fs.mkdtemp(path.join(os.tmpdir(), 'avatar-config-'));

test('the config file lives under XDG_CONFIG_HOME, else ~/.config', () => {
  assert.equal(configPath({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' }), '/x/cfg/avatar-service/config.json');
  assert.equal(configPath({ HOME: '/home/u' }), '/home/u/.config/avatar-service/config.json');
});

test('saved with mode 0600, also over a file that was world-readable', async () => {
  const env = { XDG_CONFIG_HOME: await tmp() };
  const file = configPath(env);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, '{}', { mode: 0o644 });
  await saveConfig({ host: 'http://h', key: 'k', secret: 's' }, env);
  assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  assert.deepEqual(await loadConfig(env), { host: 'http://h', key: 'k', secret: 's' });
  assert.deepEqual(await fs.readdir(path.dirname(file)), ['config.json'], 'no temporary file left');
});

test('AVATAR_* override the file, and what is missing is named', async () => {
  const env = { XDG_CONFIG_HOME: await tmp() };
  await saveConfig({ host: 'http://h', key: 'k', secret: 's' }, env);
  assert.deepEqual(await loadConfig({ ...env, AVATAR_HOST: 'http://other', AVATAR_SECRET: 's2' }), { host: 'http://other', key: 'k', secret: 's2' });
  await assert.rejects(loadConfig({ XDG_CONFIG_HOME: await tmp(), AVATAR_KEY: 'k' }), /no host, secret configured/);
});
