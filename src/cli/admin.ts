import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { Accounts } from '../domain/accounts.ts';
import { ACCOUNT_FEATURES } from '../domain/catalog.ts';
import { formatTime } from '../domain/ids.ts';
import { Portal } from '../domain/portal.ts';
import { loadKeys } from '../runtime/keys.ts';
import { openStore } from '../runtime/open-store.ts';

const usage = `Usage: npm run --silent admin -- <command> [options] [--json]
  create-account --name N [--tier CODE] [--tier-label L] [--features a,b,...] [--points P] [--expires YYYY-MM-DD]
  create-key --account ID
  create-login --account ID --email E --password P   (a portal sign-in for the account)
  revoke-key --key PUBLIC_KEY
  grant --account ID --points P [--expires YYYY-MM-DD]
  list-accounts
Features: ${ACCOUNT_FEATURES.join(', ')} (default: all). Points expire after one year unless --expires is given.
Works on DATA_DIR (default ./data), the same directory the service uses.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' }, tier: { type: 'string' }, 'tier-label': { type: 'string' }, features: { type: 'string' },
    points: { type: 'string' }, expires: { type: 'string' }, account: { type: 'string' }, key: { type: 'string' },
    email: { type: 'string' }, password: { type: 'string' },
    json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
  },
});

const fail = (msg: string): never => {
  console.error(msg);
  process.exit(1);
};
const expiry = (s: string | undefined) => {
  if (s === undefined) return undefined;
  const t = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
  return Number.isNaN(t) ? fail(`--expires: not a date: ${s}`) : t;
};
const points = (s: string | undefined) => {
  const n = Number(s);
  return s === undefined ? undefined : Number.isInteger(n) && n > 0 ? n : fail(`--points must be a positive integer`);
};

const [command] = positionals;
if (!command || values.help) {
  console.log(usage);
  process.exit(command ? 0 : 1);
}

const config = loadConfig();
fs.mkdirSync(config.dataDir, { recursive: true });
const store = await openStore(config, loadKeys(config.dataDir));
const accounts = new Accounts(store.repo.accounts);
const out = (json: unknown, text: string) => console.log(values.json ? JSON.stringify(json) : text);

try {
  switch (command) {
    case 'create-account': {
      const { account, key } = await accounts.create({
        name: values.name ?? fail('--name is required'),
        tierCode: values.tier, tierLabel: values['tier-label'], features: values.features?.split(','),
        points: points(values.points), expiresAt: expiry(values.expires),
      });
      out({ account: account.id, key: key.publicKey, secret: key.secret }, `account ${account.id}\nkey     ${key.publicKey}\nsecret  ${key.secret}\n(the secret is shown only now)`);
      break;
    }
    case 'create-key': {
      const key = await accounts.createKey(values.account ?? fail('--account is required'));
      out({ account: key.accountId, key: key.publicKey, secret: key.secret }, `key     ${key.publicKey}\nsecret  ${key.secret}\n(the secret is shown only now)`);
      break;
    }
    case 'create-login': {
      const login = await new Portal(store.repo, accounts).createLogin(
        values.account ?? fail('--account is required'), values.email ?? fail('--email is required'), values.password ?? fail('--password is required'),
      );
      out({ account: login.accountId, email: login.email }, `portal login ${login.email} for account ${login.accountId}`);
      break;
    }
    case 'revoke-key': {
      const ok = await store.repo.accounts.revokeKey(values.key ?? fail('--key is required'), Date.now());
      if (!ok) fail(`no active key ${values.key}`);
      out({ revoked: values.key }, `revoked ${values.key}`);
      break;
    }
    case 'grant': {
      const account = values.account ?? fail('--account is required');
      const p = points(values.points) ?? fail('--points is required');
      const expiresAt = expiry(values.expires) ?? Date.now() + 365 * 86400_000;
      await accounts.grant(account, p, expiresAt);
      out({ account, points: p, expires: formatTime(expiresAt) }, `granted ${p} points to ${account}, expiring ${formatTime(expiresAt)}`);
      break;
    }
    case 'list-accounts': {
      const rows = [];
      for (const a of await store.repo.accounts.listAccounts()) {
        const profile = await accounts.profile(a);
        const keys = (await store.repo.accounts.listKeys(a.id)).map((k) => ({ key: k.publicKey, revoked: k.revokedAt !== null }));
        rows.push({ account: a.id, name: a.name, tier: a.tierCode, points: profile.points, next_expiration_date: profile.next_expiration_date, features: a.features, keys });
      }
      out(rows, rows.map((r) => `${r.account}  ${r.name.padEnd(16)} ${r.tier.padEnd(10)} ${String(r.points).padStart(7)} pts  keys: ${r.keys.map((k) => k.key + (k.revoked ? ' (revoked)' : '')).join(', ')}`).join('\n'));
      break;
    }
    default:
      fail(`unknown command ${command}\n${usage}`);
  }
} catch (e) {
  fail((e as Error).message);
} finally {
  await store.repo.close();
}
