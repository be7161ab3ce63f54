import type { Account, AccountStore, AppKey, PointBatch } from '../../domain/ports.ts';
import type { SecretBox } from '../secret-box.ts';
import type { Executor, Row, Sql } from './executor.ts';

/** Accounts, their application keys (secrets sealed at rest) and their point batches, over any SQL backend. */
export class SqlAccounts implements AccountStore {
  constructor(
    private readonly db: Executor,
    private readonly box: SecretBox,
  ) {}

  async createAccount(a: Account) {
    await this.db.run('INSERT INTO accounts (id, name, tier_code, tier_label, features, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      a.id, a.name, a.tierCode, a.tierLabel, JSON.stringify(a.features), a.createdAt,
    ]);
  }

  async updateAccount(id: string, patch: Partial<Pick<Account, 'name' | 'tierCode' | 'tierLabel' | 'features'>>) {
    const current = await this.getAccount(id);
    if (!current) return;
    const next = { ...current, ...patch };
    await this.db.run('UPDATE accounts SET name = ?, tier_code = ?, tier_label = ?, features = ? WHERE id = ?', [
      next.name, next.tierCode, next.tierLabel, JSON.stringify(next.features), id,
    ]);
  }

  async getAccount(id: string) {
    const row = await this.db.get('SELECT * FROM accounts WHERE id = ?', [id]);
    return row && toAccount(row);
  }

  async listAccounts() {
    return (await this.db.all('SELECT * FROM accounts ORDER BY created_at, id')).map(toAccount);
  }

  async addKey(k: AppKey) {
    await this.db.run('INSERT INTO app_keys (public_key, account_id, secret, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)', [
      k.publicKey, k.accountId, this.box.seal(k.secret), k.createdAt, k.revokedAt,
    ]);
  }

  async getKey(publicKey: string) {
    const row = await this.db.get('SELECT * FROM app_keys WHERE public_key = ?', [publicKey]);
    return row && this.toKey(row);
  }

  async listKeys(accountId: string) {
    return (await this.db.all('SELECT * FROM app_keys WHERE account_id = ? ORDER BY created_at', [accountId])).map((r) => this.toKey(r));
  }

  async revokeKey(publicKey: string, at: number) {
    return (await this.db.run('UPDATE app_keys SET revoked_at = ? WHERE public_key = ? AND revoked_at IS NULL', [at, publicKey])) > 0;
  }


  async grantPoints(accountId: string, points: number, expiresAt: number, now: number) {
    await this.db.run('INSERT INTO point_batches (account_id, granted, remaining, expires_at, created_at) VALUES (?, ?, ?, ?, ?)', [
      accountId, points, points, expiresAt, now,
    ]);
  }

  async liveBatches(accountId: string, now: number) {
    return liveBatches(this.db, accountId, now, false);
  }

  private toKey(r: Row): AppKey {
    return {
      publicKey: String(r.public_key),
      accountId: String(r.account_id),
      secret: this.box.open(String(r.secret)),
      createdAt: Number(r.created_at),
      revokedAt: r.revoked_at == null ? null : Number(r.revoked_at),
    };
  }
}

/** `lock` holds the batches (PostgreSQL) for a transaction that takes points from them. */
export async function liveBatches(q: Sql, accountId: string, now: number, lock: boolean): Promise<PointBatch[]> {
  const rows = await q.all<Row>(
    `SELECT * FROM point_batches WHERE account_id = ? AND remaining > 0 AND expires_at > ? ORDER BY expires_at, id${lock && q.dialect === 'pg' ? ' FOR UPDATE' : ''}`,
    [accountId, now],
  );
  return rows.map((r) => ({
    id: Number(r.id), accountId: String(r.account_id), granted: Number(r.granted), remaining: Number(r.remaining), expiresAt: Number(r.expires_at),
  }));
}

function toAccount(r: Row): Account {
  return {
    id: String(r.id), name: String(r.name), tierCode: String(r.tier_code), tierLabel: String(r.tier_label),
    features: JSON.parse(String(r.features)) as string[], createdAt: Number(r.created_at),
  };
}
