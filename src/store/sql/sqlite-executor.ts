import Database from 'better-sqlite3';
import type { Executor, Param, Sql } from './executor.ts';

/** Resolves from the event loop's check phase, when the microtasks queued so far have all run. */
const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * SQLite through better-sqlite3. Its calls are synchronous, so a transaction that awaits between
 * statements must keep every other caller of this connection out until it ends: a promise chain
 * serialises transactions and plain statements wait behind an open one.
 *
 * A transaction starts from a macrotask: its awaits then take turns with nothing else of this thread,
 * and its statements run back to back. Started from within other async work (a job thread's pipeline
 * reporting progress), each of its awaits would let that work run on while this connection holds the
 * write lock, and the other threads' connections (the API's, which writes every request's nonce) would
 * wait for it, their whole event loop blocked: hundreds of milliseconds on a busy machine.
 */
export function openSqlite(file: string): Executor {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');

  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      cache.set(sql, st);
    }
    return st;
  };

  const direct: Sql = {
    dialect: 'sqlite',
    async all<T>(sql: string, params: Param[] = []) {
      return prepare(sql).all(...params) as T[];
    },
    async get<T>(sql: string, params: Param[] = []) {
      return prepare(sql).get(...params) as T | undefined;
    },
    async run(sql: string, params: Param[] = []) {
      return prepare(sql).run(...params).changes;
    },
  };

  let tail: Promise<unknown> = Promise.resolve();
  let open = false;
  const afterOpen = async () => {
    while (open) await tail.catch(() => undefined);
  };

  const outside: Sql = {
    dialect: 'sqlite',
    async all(sql, params) {
      if (open) await afterOpen();
      return direct.all(sql, params);
    },
    async get(sql, params) {
      if (open) await afterOpen();
      return direct.get(sql, params);
    },
    async run(sql, params) {
      if (open) await afterOpen();
      return direct.run(sql, params);
    },
  };

  return {
    ...outside,
    tx<T>(fn: (q: Sql) => Promise<T>): Promise<T> {
      const run = tail.catch(() => undefined).then(nextMacrotask).then(async () => {
        open = true;
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(direct);
          db.exec('COMMIT');
          return result;
        } catch (e) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw e;
        } finally {
          open = false;
        }
      });
      tail = run;
      return run;
    },
    async close() {
      await tail.catch(() => undefined);
      db.close();
    },
  };
}
