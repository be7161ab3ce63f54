import Database from 'better-sqlite3';
import type { Executor, Param, Sql } from './executor.ts';

/**
 * SQLite through better-sqlite3. Its calls are synchronous, so a transaction that awaits between
 * statements must keep every other caller of this connection out until it ends: a promise chain
 * serialises transactions and plain statements wait behind an open one.
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
      const run = tail.catch(() => undefined).then(async () => {
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
