import type { Executor, Sql } from './executor.ts';

/**
 * Versioned schema. Each step runs once, in order, inside a transaction; the statements are the same
 * for both backends except the auto-increment key, written `{id}`.
 */
const steps: string[][] = [
  [
    `CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL, tier_code TEXT NOT NULL, tier_label TEXT NOT NULL,
      features TEXT NOT NULL, created_at BIGINT NOT NULL)`,
    `CREATE TABLE app_keys (public_key TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
      secret TEXT NOT NULL, created_at BIGINT NOT NULL, revoked_at BIGINT)`,
    `CREATE TABLE nonces (public_key TEXT NOT NULL, nonce TEXT NOT NULL, used_at BIGINT NOT NULL, PRIMARY KEY (public_key, nonce))`,
    `CREATE INDEX nonces_used_at ON nonces (used_at)`,
    `CREATE TABLE point_batches (id {id}, account_id TEXT NOT NULL REFERENCES accounts(id), granted INTEGER NOT NULL,
      remaining INTEGER NOT NULL, expires_at BIGINT NOT NULL, created_at BIGINT NOT NULL)`,
    `CREATE INDEX point_batches_account ON point_batches (account_id, expires_at)`,
    `CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL)`,
    `INSERT INTO counters (name, value) VALUES ('change', 0)`,
    `CREATE TABLE avatars (seq {id}, key TEXT NOT NULL UNIQUE, account_id TEXT NOT NULL, is_public INTEGER NOT NULL,
      is_sample INTEGER NOT NULL, error_code INTEGER NOT NULL, template TEXT NOT NULL, features TEXT NOT NULL,
      platforms TEXT NOT NULL, input_type TEXT NOT NULL, created_by TEXT NOT NULL, percent INTEGER NOT NULL,
      status TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, charged INTEGER NOT NULL,
      refunded INTEGER NOT NULL, change_seq BIGINT NOT NULL)`,
    `CREATE INDEX avatars_list ON avatars (account_id, is_sample, seq)`,
    `CREATE INDEX avatars_samples ON avatars (is_sample, seq)`,
    `CREATE INDEX avatars_change ON avatars (account_id, change_seq)`,
    `CREATE TABLE charges (avatar_key TEXT NOT NULL, batch_id BIGINT NOT NULL, points INTEGER NOT NULL)`,
    `CREATE INDEX charges_avatar ON charges (avatar_key)`,
    `CREATE TABLE tombstones (account_id TEXT NOT NULL, key TEXT NOT NULL, change_seq BIGINT NOT NULL)`,
    `CREATE INDEX tombstones_change ON tombstones (account_id, change_seq)`,
    `CREATE TABLE meta (avatar_key TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, defined TEXT,
      updated_at BIGINT NOT NULL, PRIMARY KEY (avatar_key, name))`,
    `CREATE TABLE results (avatar_key TEXT NOT NULL, child_key TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
      percent INTEGER NOT NULL, error_code INTEGER NOT NULL, created_by TEXT NOT NULL, created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL, PRIMARY KEY (avatar_key, child_key))`,
    `CREATE TABLE jobs (id {id}, kind TEXT NOT NULL, avatar_key TEXT NOT NULL, child_key TEXT, state TEXT NOT NULL,
      worker TEXT, lease_until BIGINT NOT NULL, attempts INTEGER NOT NULL, created_at BIGINT NOT NULL)`,
    `CREATE INDEX jobs_claim ON jobs (state, lease_until, id)`,
  ],
  [
    `CREATE TABLE rate_windows (public_key TEXT NOT NULL, window_start BIGINT NOT NULL, hits INTEGER NOT NULL,
      PRIMARY KEY (public_key, window_start))`,
  ],
  [
    `CREATE TABLE portal_logins (email TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
      password_hash TEXT NOT NULL, created_at BIGINT NOT NULL)`,
    `CREATE TABLE portal_sessions (id_hash TEXT PRIMARY KEY, email TEXT NOT NULL, account_id TEXT NOT NULL,
      created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)`,
    `CREATE INDEX portal_sessions_expiry ON portal_sessions (expires_at)`,
  ],
];

const autoId = { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', pg: 'BIGSERIAL PRIMARY KEY' } as const;

export async function migrate(db: Executor): Promise<void> {
  // Several processes may start at once: on PostgreSQL the lock makes each check-and-apply atomic
  // (CREATE TABLE IF NOT EXISTS alone is not: two of them at once can both try to create it).
  const lock = (q: Sql) => (q.dialect === 'pg' ? q.run('SELECT pg_advisory_xact_lock(7531)') : undefined);
  await db.tx(async (q) => {
    await lock(q);
    await q.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
  });
  for (let version = 1; version <= steps.length; version++) {
    await db.tx(async (q) => {
      await lock(q);
      const done = await q.get('SELECT version FROM schema_migrations WHERE version = ?', [version]);
      if (done) return;
      for (const statement of steps[version - 1]!) await q.run(statement.replaceAll('{id}', autoId[q.dialect]));
      await q.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, Date.now()]);
    });
  }
}
