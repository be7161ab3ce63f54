import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Accounts } from '../domain/accounts.ts';
import type { Avatars } from '../domain/avatars.ts';
import type { Portal } from '../domain/portal.ts';
import type { Repo } from '../domain/ports.ts';
import { SAMPLES_ACCOUNT } from '../store/sql/repo.ts';

/**
 * First start with an empty data directory: a demo account with 1000 points and every feature, and
 * its portal login, whose credentials are printed and written to DATA_DIR/demo-credentials.json.
 */
export async function ensureDemoAccount(repo: Repo, accounts: Accounts, portal: Portal, dataDir: string, print: (line: string) => void) {
  const existing = (await repo.listAccounts()).filter((a) => a.id !== SAMPLES_ACCOUNT);
  if (existing.length > 0) return;
  const { account, key } = await accounts.create({ name: 'demo', tierCode: 'demo', tierLabel: 'Demo', points: 1000 });
  const password = crypto.randomBytes(12).toString('base64url');
  const login = await portal.createLogin(account.id, 'demo@localhost', password);
  const credentials = { key: key.publicKey, secret: key.secret, portal_email: login.email, portal_password: password };
  fs.writeFileSync(path.join(dataDir, 'demo-credentials.json'), JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  print(`Demo account ${account.id} with 1000 points.`);
  print(`  key:    ${key.publicKey}`);
  print(`  secret: ${key.secret}`);
  print(`  portal: ${login.email} / ${password}`);
  print(`  (also in ${path.join(dataDir, 'demo-credentials.json')})`);
}

/** The sample avatars every account sees, made once by the pipeline from the photos in assets/samples. */
export async function ensureSamples(repo: Repo, avatars: Avatars, now = Date.now()) {
  if (await repo.getAccount(SAMPLES_ACCOUNT)) return;
  await repo.createAccount({ id: SAMPLES_ACCOUNT, name: 'samples', tierCode: 'system', tierLabel: 'System', features: [], createdAt: now });
  const dir = new URL('../../assets/samples/', import.meta.url);
  const photos = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.jpe?g$/i.test(f)).sort() : [];
  for (const photo of photos) await avatars.createSample(SAMPLES_ACCOUNT, new Uint8Array(fs.readFileSync(new URL(photo, dir))), now);
}
