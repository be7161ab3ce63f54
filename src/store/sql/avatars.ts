import { errors } from '../../domain/errors.ts';
import {
  SAMPLES_ACCOUNT, type Avatar, type AvatarStatus, type AvatarStore, type Changes, type ListPage, type ListPosition, type MetaEntry,
  type NewAvatar, type Result, type ResultKind,
} from '../../domain/ports.ts';
import type { Feature, InputType, Platform, TemplateVersion } from '../../model/product.ts';
import { liveBatches } from './accounts.ts';
import type { Executor, Row, Sql } from './executor.ts';
import { queueJob } from './job-queue.ts';

/** Avatars, their meta and their on-demand results over any SQL backend; every change moves the change counter the update lists read. */
export class SqlAvatars implements AvatarStore {
  constructor(private readonly db: Executor) {}


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

const list = (s: unknown) => (String(s) === '' ? [] : String(s).split(','));

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
