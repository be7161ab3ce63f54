import type { AdmissionStore } from '../../domain/ports.ts';
import type { Executor } from './executor.ts';

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
export class SqlAdmissions implements AdmissionStore {
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
}
