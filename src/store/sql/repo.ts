import { errors } from '../../domain/errors.ts';
import type {
  Account, AppKey, Avatar, AvatarStatus, Changes, Job, JobKind, ListPage, ListPosition, MetaEntry, NewAvatar,
  PointBatch, PortalLogin, PortalSession, Repo, Result, ResultKind,
} from '../../domain/ports.ts';
import type { Feature, InputType, Platform, TemplateVersion } from '../../model/product.ts';
import type { SecretBox } from '../secret-box.ts';
import type { Executor, Row, Sql } from './executor.ts';

/** The repository over any SQL backend: the logic lives here once, the backend is the executor. */
export class SqlRepo implements Repo {
  private readonly admissions: Admissions;

  constructor(
    private readonly db: Executor,
    private readonly box: SecretBox,
  ) {
    this.admissions = new Admissions(db);
  }

  // ---- accounts and keys

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

  admit(publicKey: string, nonce: string, now: number, windowStart: number) {
    return this.admissions.admit(publicKey, nonce, now, windowStart);
  }

  async hitRate(publicKey: string, windowStart: number) {
    const row = await this.db.get<{ hits: number }>(
      `INSERT INTO rate_windows (public_key, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (public_key, window_start) DO UPDATE SET hits = rate_windows.hits + 1 RETURNING hits`,
      [publicKey, windowStart],
    );
    return Number(row!.hits);
  }

  async forgetNoncesBefore(time: number) {
    await this.db.run('DELETE FROM nonces WHERE used_at < ?', [time]);
    await this.db.run('DELETE FROM rate_windows WHERE window_start < ?', [time]);
  }

  // ---- portal logins and sessions

  async addPortalLogin(l: PortalLogin) {
    await this.db.run('INSERT INTO portal_logins (email, account_id, password_hash, created_at) VALUES (?, ?, ?, ?)', [
      l.email, l.accountId, l.passwordHash, l.createdAt,
    ]);
  }

  async getPortalLogin(email: string) {
    const r = await this.db.get('SELECT * FROM portal_logins WHERE email = ?', [email]);
    return r && { email: String(r.email), accountId: String(r.account_id), passwordHash: String(r.password_hash), createdAt: Number(r.created_at) };
  }

  async addPortalSession(s: PortalSession) {
    await this.db.run('INSERT INTO portal_sessions (id_hash, email, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      s.idHash, s.email, s.accountId, s.createdAt, s.expiresAt,
    ]);
  }

  async getPortalSession(idHash: string) {
    const r = await this.db.get('SELECT * FROM portal_sessions WHERE id_hash = ?', [idHash]);
    return r && { idHash: String(r.id_hash), email: String(r.email), accountId: String(r.account_id), createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) };
  }

  async deletePortalSession(idHash: string) {
    await this.db.run('DELETE FROM portal_sessions WHERE id_hash = ?', [idHash]);
  }

  async deleteExpiredPortalSessions(now: number) {
    await this.db.run('DELETE FROM portal_sessions WHERE expires_at <= ?', [now]);
  }

  // ---- points

  async grantPoints(accountId: string, points: number, expiresAt: number, now: number) {
    await this.db.run('INSERT INTO point_batches (account_id, granted, remaining, expires_at, created_at) VALUES (?, ?, ?, ?, ?)', [
      accountId, points, points, expiresAt, now,
    ]);
  }

  async liveBatches(accountId: string, now: number) {
    return liveBatches(this.db, accountId, now, false);
  }

  // ---- avatars

  async createAvatar({ avatar: a, price }: NewAvatar, now: number) {
    await this.db.tx(async (q) => {
      if (price > 0) {
        const batches = await liveBatches(q, a.accountId, now, true);
        const have = batches.reduce((s, b) => s + b.remaining, 0);
        if (have < price) throw errors.notEnoughPoints(price, have);
        let left = price;
        for (const b of batches) {
          if (left === 0) break;
          const take = Math.min(left, b.remaining);
          await q.run('UPDATE point_batches SET remaining = remaining - ? WHERE id = ?', [take, b.id]);
          await q.run('INSERT INTO charges (avatar_key, batch_id, points) VALUES (?, ?, ?)', [a.key, b.id, take]);
          left -= take;
        }
      }
      const change = await nextChange(q);
      await q.run(
        `INSERT INTO avatars (key, account_id, is_public, is_sample, error_code, template, features, platforms, input_type,
          created_by, percent, status, created_at, updated_at, charged, refunded, change_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        [a.key, a.accountId, +a.isPublic, +a.isSample, a.errorCode, a.template, a.features.join(','), a.platforms.join(','),
          a.inputType, a.createdBy, a.percent, a.status, a.createdAt, a.updatedAt, price, change],
      );
      await queueJob(q, 'avatar', a.key, null, now);
    });
  }

  async getAvatar(key: string) {
    const row = await this.db.get(`SELECT ${AVATAR_COLUMNS} FROM avatars WHERE key = ?`, [key]);
    return row && toAvatar(row);
  }

  async getAvatarWithMeta(key: string) {
    // One statement, so one read transaction: on SQLite each statement outside a transaction takes and
    // releases the file's locks, about half the cost of reading the row (docs/PERFORMANCE.md, Status polls).
    const entries = this.db.dialect === 'sqlite'
      ? 'SELECT json_group_array(json_array(name, value, defined) ORDER BY name) FROM meta WHERE avatar_key = a.key'
      : "SELECT coalesce(json_agg(json_build_array(name, value, defined) ORDER BY name), '[]'::json) FROM meta WHERE avatar_key = a.key";
    const row = await this.db.get(`SELECT ${AVATAR_COLUMNS}, (${entries}) AS meta FROM avatars a WHERE a.key = ?`, [key]);
    if (!row) return undefined;
    // SQLite hands the JSON over as text, PostgreSQL's driver as parsed arrays.
    const meta = (typeof row.meta === 'string' ? JSON.parse(row.meta) : row.meta) as [string, string, string | null][];
    return { avatar: toAvatar(row), meta: meta.map(([name, value, defined]) => toMetaEntry(name, value, defined)) };
  }

  async setAvatarProgress(
    key: string,
    patch: { status?: AvatarStatus; percent?: number; errorCode?: number; createdBy?: string },
    now: number,
    refund = false,
  ) {
    await this.db.tx(async (q) => {
      const row = await q.get<Row>(`SELECT * FROM avatars WHERE key = ?${rowLock(q)}`, [key]);
      if (!row) return;
      const a = toAvatar(row);
      const change = await nextChange(q);
      await q.run('UPDATE avatars SET status = ?, percent = ?, error_code = ?, created_by = ?, updated_at = ?, change_seq = ? WHERE key = ?', [
        patch.status ?? a.status, patch.percent ?? a.percent, patch.errorCode ?? a.errorCode, patch.createdBy ?? a.createdBy, now, change, key,
      ]);
      if (refund && Number(row.refunded) === 0) {
        for (const c of await q.all<{ batch_id: number; points: number }>('SELECT batch_id, points FROM charges WHERE avatar_key = ?', [key])) {
          await q.run('UPDATE point_batches SET remaining = remaining + ? WHERE id = ?', [Number(c.points), Number(c.batch_id)]);
        }
        await q.run('UPDATE avatars SET refunded = 1 WHERE key = ?', [key]);
      }
    });
  }

  async deleteAvatar(key: string, _now: number) {
    await this.db.tx(async (q) => {
      const row = await q.get<Row>(`SELECT account_id FROM avatars WHERE key = ?${rowLock(q)}`, [key]);
      if (!row) return;
      const change = await nextChange(q);
      await q.run('INSERT INTO tombstones (account_id, key, change_seq) VALUES (?, ?, ?)', [String(row.account_id), key, change]);
      await q.run('DELETE FROM avatars WHERE key = ?', [key]);
      await q.run('DELETE FROM meta WHERE avatar_key = ?', [key]);
      await q.run('DELETE FROM results WHERE avatar_key = ?', [key]);
      await q.run('DELETE FROM jobs WHERE avatar_key = ?', [key]);
      await q.run('DELETE FROM charges WHERE avatar_key = ?', [key]);
    });
  }

  async listPage(accountId: string, after: ListPosition | null, before: ListPosition | null, limit: number): Promise<ListPage> {
    const visible = '((account_id = ? AND is_sample = 0) OR is_sample = 1)';
    // Order: the account's own avatars newest first, then the samples newest first.
    const afterCond = '(is_sample > ? OR (is_sample = ? AND seq < ?))';
    const beforeCond = '(is_sample < ? OR (is_sample = ? AND seq > ?))';
    const pos = (p: ListPosition) => [+p.sample, +p.sample, p.seq];
    let rows: Row[];
    if (before) {
      rows = await this.db.all(`SELECT * FROM avatars WHERE ${visible} AND ${beforeCond} ORDER BY is_sample DESC, seq ASC LIMIT ?`, [
        accountId, ...pos(before), limit + 1,
      ]);
      const hasMoreBefore = rows.length > limit;
      rows = rows.slice(0, limit).reverse();
      const page = rows.map(withPosition);
      const last = page.at(-1)?.position ?? before;
      const more = await this.db.get(`SELECT 1 AS x FROM avatars WHERE ${visible} AND ${afterCond} LIMIT 1`, [accountId, ...pos(last)]);
      return { avatars: page, hasMoreBefore, hasMoreAfter: !!more };
    }
    rows = after
      ? await this.db.all(`SELECT * FROM avatars WHERE ${visible} AND ${afterCond} ORDER BY is_sample ASC, seq DESC LIMIT ?`, [accountId, ...pos(after), limit + 1])
      : await this.db.all(`SELECT * FROM avatars WHERE ${visible} ORDER BY is_sample ASC, seq DESC LIMIT ?`, [accountId, limit + 1]);
    const hasMoreAfter = rows.length > limit;
    const page = rows.slice(0, limit).map(withPosition);
    const first = page[0]?.position ?? after;
    const more = first ? await this.db.get(`SELECT 1 AS x FROM avatars WHERE ${visible} AND ${beforeCond} LIMIT 1`, [accountId, ...pos(first)]) : undefined;
    return { avatars: page, hasMoreAfter, hasMoreBefore: !!more };
  }

  async countList(accountId: string) {
    const row = await this.db.get<{ own: number; samples: number }>(
      `SELECT SUM(CASE WHEN is_sample = 0 THEN 1 ELSE 0 END) AS own, SUM(is_sample) AS samples
       FROM avatars WHERE (account_id = ? AND is_sample = 0) OR is_sample = 1`,
      [accountId],
    );
    const own = Number(row?.own ?? 0);
    const samples = Number(row?.samples ?? 0);
    return { total: own + samples, samples };
  }

  async changesSince(accountId: string, since: number): Promise<Changes> {
    const until = await this.currentChange();
    const changed = await this.db.all(
      'SELECT * FROM avatars WHERE ((account_id = ? AND is_sample = 0) OR is_sample = 1) AND change_seq > ? AND change_seq <= ? ORDER BY change_seq',
      [accountId, since, until],
    );
    const removed = await this.db.all<{ key: string }>(
      'SELECT key FROM tombstones WHERE account_id IN (?, ?) AND change_seq > ? AND change_seq <= ? ORDER BY change_seq',
      [accountId, SAMPLES_ACCOUNT, since, until],
    );
    return { avatars: changed.map(toAvatar), removedKeys: removed.map((r) => String(r.key)), until };
  }

  async currentChange() {
    const row = await this.db.get<{ value: number }>("SELECT value FROM counters WHERE name = 'change'");
    return Number(row?.value ?? 0);
  }

  // ---- meta

  async getMeta(key: string): Promise<MetaEntry[]> {
    return (await this.getMetaOf([key])).get(key)!;
  }

  async getMetaOf(keys: string[]) {
    const out = new Map<string, MetaEntry[]>(keys.map((k) => [k, []]));
    // One statement per 500 avatars rather than one per avatar (list pages, updates).
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const rows = await this.db.all<Row>(
        `SELECT avatar_key, name, value, defined FROM meta WHERE avatar_key IN (${chunk.map(() => '?').join(', ')}) ORDER BY avatar_key, name`,
        chunk,
      );
      for (const r of rows) out.get(String(r.avatar_key))!.push(toMetaEntry(r.name, r.value, r.defined));
    }
    return out;
  }

  async setMeta(key: string, entries: MetaEntry[], now: number) {
    await this.db.tx(async (q) => {
      for (const e of entries) {
        await q.run(
          `INSERT INTO meta (avatar_key, name, value, defined, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (avatar_key, name) DO UPDATE SET value = excluded.value, defined = excluded.defined, updated_at = excluded.updated_at`,
          [key, e.name, e.value, e.defined ?? null, now],
        );
      }
      await touch(q, key, now);
    });
  }

  async unsetMeta(key: string, name: string, now: number) {
    return this.db.tx(async (q) => {
      const removed = (await q.run('DELETE FROM meta WHERE avatar_key = ? AND name = ?', [key, name])) > 0;
      if (removed) await touch(q, key, now);
      return removed;
    });
  }

  // ---- results

  async createResult(r: Result) {
    await this.db.tx(async (q) => {
      await q.run(
        `INSERT INTO results (avatar_key, child_key, kind, status, percent, error_code, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [r.avatarKey, r.childKey, r.kind, r.status, r.percent, r.errorCode, r.createdBy, r.createdAt, r.updatedAt],
      );
      await queueJob(q, r.kind, r.avatarKey, r.childKey, r.createdAt);
    });
  }

  async getResult(avatarKey: string, childKey: string) {
    const row = await this.db.get('SELECT * FROM results WHERE avatar_key = ? AND child_key = ?', [avatarKey, childKey]);
    return row && toResult(row);
  }

  async setResultProgress(avatarKey: string, childKey: string, patch: { status?: AvatarStatus; percent?: number; errorCode?: number }, now: number) {
    const current = await this.getResult(avatarKey, childKey);
    if (!current) return;
    await this.db.run('UPDATE results SET status = ?, percent = ?, error_code = ?, updated_at = ? WHERE avatar_key = ? AND child_key = ?', [
      patch.status ?? current.status, patch.percent ?? current.percent, patch.errorCode ?? current.errorCode, now, avatarKey, childKey,
    ]);
  }

  // ---- jobs

  async claimJob(worker: string, now: number, leaseMs: number): Promise<Job | undefined> {
    const lock = this.db.dialect === 'pg' ? ' FOR UPDATE SKIP LOCKED' : '';
    return this.db.tx(async (q) => {
      const row = await q.get<Row>(
        `SELECT id FROM jobs WHERE state = 'queued' OR (state = 'running' AND lease_until < ?) ORDER BY id LIMIT 1${lock}`,
        [now],
      );
      if (!row) return undefined;
      const job = await q.get<Row>(
        "UPDATE jobs SET state = 'running', worker = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ? RETURNING *",
        [worker, now + leaseMs, Number(row.id)],
      );
      return job && { id: Number(job.id), kind: String(job.kind) as JobKind, avatarKey: String(job.avatar_key), childKey: job.child_key == null ? null : String(job.child_key), attempts: Number(job.attempts) };
    });
  }

  async renewJob(id: number, worker: string, now: number, leaseMs: number) {
    return (await this.db.run("UPDATE jobs SET lease_until = ? WHERE id = ? AND worker = ? AND state = 'running'", [now + leaseMs, id, worker])) > 0;
  }

  async releaseJob(id: number, worker: string) {
    // Handed back unfinished at shutdown: the run did not fail, so it does not use up an attempt.
    await this.db.run("UPDATE jobs SET state = 'queued', worker = NULL, lease_until = 0, attempts = attempts - 1 WHERE id = ? AND worker = ? AND state = 'running'", [id, worker]);
  }

  async finishJob(id: number) {
    await this.db.run('DELETE FROM jobs WHERE id = ?', [id]);
  }

  async releaseAllJobs() {
    await this.db.run("UPDATE jobs SET state = 'queued', worker = NULL, lease_until = 0 WHERE state = 'running'");
  }

  async queueDepth() {
    const row = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs');
    return Number(row?.n ?? 0);
  }

  async close() {
    await this.db.close();
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

interface Admission {
  key: string;
  nonce: string;
  now: number;
  window: number;
  done: (r: { fresh: boolean; hits: number }) => void;
  fail: (e: unknown) => void;
}

/**
 * Every authenticated request writes its nonce and its rate count. One commit per request would cap
 * the service at the database's commit rate, so the requests of one event-loop turn are written
 * together: one multi-row insert of the nonces (the rows it returns are the fresh ones) and one upsert
 * per rate window, in one transaction.
 */
class Admissions {
  private pending: Admission[] = [];

  constructor(private readonly db: Executor) {}

  admit(key: string, nonce: string, now: number, window: number) {
    return new Promise<{ fresh: boolean; hits: number }>((done, fail) => {
      if (this.pending.push({ key, nonce, now, window, done, fail }) === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush() {
    const batch = this.pending;
    this.pending = [];
    try {
      const { inserted, hits } = await this.db.tx(async (q) => {
        const inserted = new Set<string>();
        for (let i = 0; i < batch.length; i += 300) {
          const rows = batch.slice(i, i + 300);
          const returned = await q.all<{ public_key: string; nonce: string }>(
            `INSERT INTO nonces (public_key, nonce, used_at) VALUES ${rows.map(() => '(?, ?, ?)').join(', ')}
             ON CONFLICT (public_key, nonce) DO NOTHING RETURNING public_key, nonce`,
            rows.flatMap((a) => [a.key, a.nonce, a.now]),
          );
          for (const r of returned) inserted.add(`${r.public_key}\n${r.nonce}`);
        }
        const counts = new Map<string, { key: string; window: number; n: number }>();
        for (const a of batch) {
          const id = `${a.key}\n${a.window}`;
          const c = counts.get(id) ?? counts.set(id, { key: a.key, window: a.window, n: 0 }).get(id)!;
          c.n++;
        }
        const hits = new Map<string, number>();
        for (const [id, c] of counts) {
          const row = await q.get<{ hits: number }>(
            `INSERT INTO rate_windows (public_key, window_start, hits) VALUES (?, ?, ?)
             ON CONFLICT (public_key, window_start) DO UPDATE SET hits = rate_windows.hits + excluded.hits RETURNING hits`,
            [c.key, c.window, c.n],
          );
          hits.set(id, Number(row!.hits) - c.n); // the count before this batch
        }
        return { inserted, hits };
      });
      for (const a of batch) {
        const id = `${a.key}\n${a.nonce}`;
        // A nonce sent twice in one batch is fresh only the first time.
        const fresh = inserted.delete(id);
        const windowId = `${a.key}\n${a.window}`;
        const before = hits.get(windowId)!;
        hits.set(windowId, before + 1);
        a.done({ fresh, hits: before + 1 });
      }
    } catch (e) {
      for (const a of batch) a.fail(e);
    }
  }
}

/** The account that owns the sample avatars every account sees. */
export const SAMPLES_ACCOUNT = 'samples';

async function liveBatches(q: Sql, accountId: string, now: number, lock: boolean): Promise<PointBatch[]> {
  const rows = await q.all<Row>(
    `SELECT * FROM point_batches WHERE account_id = ? AND remaining > 0 AND expires_at > ? ORDER BY expires_at, id${lock && q.dialect === 'pg' ? ' FOR UPDATE' : ''}`,
    [accountId, now],
  );
  return rows.map((r) => ({
    id: Number(r.id), accountId: String(r.account_id), granted: Number(r.granted), remaining: Number(r.remaining), expiresAt: Number(r.expires_at),
  }));
}

/**
 * On PostgreSQL a read-modify-write of a row must hold the row (SQLite runs one write transaction at a
 * time): without it a late progress update could overwrite `done`, or two failures refund twice.
 */
const rowLock = (q: Sql) => (q.dialect === 'pg' ? ' FOR UPDATE' : '');

async function nextChange(q: Sql): Promise<number> {
  const row = await q.get<{ value: number }>("UPDATE counters SET value = value + 1 WHERE name = 'change' RETURNING value");
  return Number(row!.value);
}

async function touch(q: Sql, key: string, now: number) {
  const change = await nextChange(q);
  await q.run('UPDATE avatars SET updated_at = ?, change_seq = ? WHERE key = ?', [now, change, key]);
}

async function queueJob(q: Sql, kind: JobKind, avatarKey: string, childKey: string | null, now: number) {
  await q.run("INSERT INTO jobs (kind, avatar_key, child_key, state, worker, lease_until, attempts, created_at) VALUES (?, ?, ?, 'queued', NULL, 0, 0, ?)", [
    kind, avatarKey, childKey, now,
  ]);
}

const list = (s: unknown) => (String(s) === '' ? [] : String(s).split(','));

function toAccount(r: Row): Account {
  return {
    id: String(r.id), name: String(r.name), tierCode: String(r.tier_code), tierLabel: String(r.tier_label),
    features: JSON.parse(String(r.features)) as string[], createdAt: Number(r.created_at),
  };
}

// What toAvatar reads; status polls read one avatar per request and every column costs (SQLite drivers build an object per row).
const AVATAR_COLUMNS = 'key, account_id, is_public, is_sample, error_code, template, features, platforms, input_type, created_by, percent, status, created_at, updated_at, charged';

function toAvatar(r: Row): Avatar {
  return {
    key: String(r.key), accountId: String(r.account_id), isPublic: Number(r.is_public) === 1, isSample: Number(r.is_sample) === 1,
    // The words were checked when the avatar was created; the database holds them as text.
    errorCode: Number(r.error_code), template: String(r.template) as TemplateVersion, features: list(r.features) as Feature[], platforms: list(r.platforms) as Platform[],
    inputType: String(r.input_type) as InputType, createdBy: String(r.created_by), percent: Number(r.percent), status: String(r.status) as AvatarStatus,
    createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), charged: Number(r.charged),
  };
}

/** Client entries have no `defined`; the pipeline's carry it. */
function toMetaEntry(name: unknown, value: unknown, defined: unknown): MetaEntry {
  return defined == null ? { name: String(name), value: String(value) } : { name: String(name), value: String(value), defined: String(defined) };
}

function withPosition(r: Row) {
  return { ...toAvatar(r), position: { sample: Number(r.is_sample) === 1, seq: Number(r.seq) } };
}

function toResult(r: Row): Result {
  return {
    avatarKey: String(r.avatar_key), childKey: String(r.child_key), kind: String(r.kind) as ResultKind, status: String(r.status) as AvatarStatus,
    percent: Number(r.percent), errorCode: Number(r.error_code), createdBy: String(r.created_by), createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}
