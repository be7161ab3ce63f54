import { ACCOUNT_FEATURES, has } from './catalog.ts';
import { errors } from './errors.ts';
import { formatTime, newAppKey, newKey } from './ids.ts';
import type { Account, AccountStore, AppKey } from './ports.ts';

export interface NewAccount {
  name: string;
  tierCode?: string;
  tierLabel?: string;
  features?: string[];
  points?: number;
  /** Expiry of the first batch of points, ms since the epoch; default one year. */
  expiresAt?: number;
}

const YEAR = 365 * 24 * 3600 * 1000;

/** Accounts, their application keys and their points. */
export class Accounts {
  constructor(private readonly store: Pick<AccountStore, 'addKey' | 'createAccount' | 'getAccount' | 'grantPoints' | 'liveBatches'>) {}

  async create(input: NewAccount, now = Date.now()): Promise<{ account: Account; key: AppKey }> {
    const features = input.features ?? [...ACCOUNT_FEATURES];
    const unknown = features.filter((f) => !has(ACCOUNT_FEATURES, f));
    if (unknown.length) throw new Error(`unknown features: ${unknown.join(', ')} (known: ${ACCOUNT_FEATURES.join(', ')})`);
    const tierCode = input.tierCode ?? 'standard';
    const account: Account = {
      id: newKey(),
      name: input.name,
      tierCode,
      tierLabel: input.tierLabel ?? tierCode.charAt(0).toUpperCase() + tierCode.slice(1),
      features,
      createdAt: now,
    };
    await this.store.createAccount(account);
    if (input.points) await this.store.grantPoints(account.id, input.points, input.expiresAt ?? now + YEAR, now);
    return { account, key: await this.createKey(account.id, now) };
  }

  async createKey(accountId: string, now = Date.now()): Promise<AppKey> {
    if (!(await this.store.getAccount(accountId))) throw new Error(`no account ${accountId}`);
    const { publicKey, secret } = newAppKey();
    const key: AppKey = { publicKey, secret, accountId, createdAt: now, revokedAt: null };
    await this.store.addKey(key);
    return key;
  }

  async grant(accountId: string, points: number, expiresAt: number, now = Date.now()) {
    if (!Number.isInteger(points) || points <= 0) throw new Error('points must be a positive integer');
    if (!(await this.store.getAccount(accountId))) throw new Error(`no account ${accountId}`);
    await this.store.grantPoints(accountId, points, expiresAt, now);
  }

  /** The profile of the spec: the balance counts only unexpired batches; the next expiry is the earliest of them. */
  async profile(account: Account, now = Date.now()) {
    const batches = await this.store.liveBatches(account.id, now);
    const points = batches.reduce((s, b) => s + b.remaining, 0);
    const next = batches[0];
    const nextPoints = next ? batches.filter((b) => b.expiresAt === next.expiresAt).reduce((s, b) => s + b.remaining, 0) : 0;
    return {
      points,
      tier_code: account.tierCode,
      tier_label: account.tierLabel,
      next_expiration_date: next ? formatTime(next.expiresAt) : '',
      next_expiration_points: nextPoints,
      available_features: account.features,
    };
  }

  requireFeature(account: Account, feature: string) {
    if (!account.features.includes(feature)) throw errors.featureUnavailable(feature);
  }
}
