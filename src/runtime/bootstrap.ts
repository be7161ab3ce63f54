import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Accounts } from '../domain/accounts.ts';
import type { Avatars } from '../domain/avatars.ts';
import type { Portal } from '../domain/portal.ts';
import { SAMPLES_ACCOUNT, type AccountStore } from '../domain/ports.ts';

/** The demo account made at first start: what the start-up message shows once. */
export interface DemoAccount {
  accountId: string;
  key: string;
  secret: string;
  email: string;
  password: string;
  /** DATA_DIR/demo-credentials.json, where all four stay. */
  file: string;
}

export const demoCredentialsFile = (dataDir: string) => path.join(dataDir, 'demo-credentials.json');

/**
 * First start with an empty data directory: a demo account with 1000 points and every feature, and
 * its portal login, written to DATA_DIR/demo-credentials.json (mode 0600). Returns it when it was made now.
 */
export async function ensureDemoAccount(store: Pick<AccountStore, 'listAccounts'>, accounts: Accounts, portal: Portal, dataDir: string): Promise<DemoAccount | undefined> {
  const existing = (await store.listAccounts()).filter((a) => a.id !== SAMPLES_ACCOUNT);
  if (existing.length > 0) return undefined;
  const { account, key } = await accounts.create({ name: 'demo', tierCode: 'demo', tierLabel: 'Demo', points: 1000 });
  const password = crypto.randomBytes(12).toString('base64url');
  const login = await portal.createLogin(account.id, 'demo@localhost', password);
  const credentials = { key: key.publicKey, secret: key.secret, portal_email: login.email, portal_password: password };
  const file = demoCredentialsFile(dataDir);
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return { accountId: account.id, key: key.publicKey, secret: key.secret, email: login.email, password, file };
}

/** The demo portal login of an earlier start, if its credentials file is still there. */
export function demoLogin(dataDir: string): { email: string; file: string } | undefined {
  const file = demoCredentialsFile(dataDir);
  try {
    return { email: (JSON.parse(fs.readFileSync(file, 'utf8')) as { portal_email: string }).portal_email, file };
  } catch {
    return undefined;
  }
}

/** The sample avatars every account sees, made once by the pipeline from the photos in assets/samples. */
export async function ensureSamples(store: Pick<AccountStore, 'getAccount' | 'createAccount'>, avatars: Avatars, now = Date.now()) {
  if (await store.getAccount(SAMPLES_ACCOUNT)) return;
  await store.createAccount({ id: SAMPLES_ACCOUNT, name: 'samples', tierCode: 'system', tierLabel: 'System', features: [], createdAt: now });
  const dir = new URL('../../assets/samples/', import.meta.url);
  const photos = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.jpe?g$/i.test(f)).sort() : [];
  for (const photo of photos) await avatars.createSample(SAMPLES_ACCOUNT, new Uint8Array(fs.readFileSync(new URL(photo, dir))), now);
}
