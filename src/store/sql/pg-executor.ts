import pg from 'pg';
import type { Executor, Param, Sql } from './executor.ts';

/** The repository writes `?`; PostgreSQL wants `$1, $2, ...`. Quoted text and identifiers are left alone. */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** serialization_failure and deadlock_detected: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_TX_ATTEMPTS = 8;

export function isRetryable(e: unknown): boolean {
  return RETRYABLE.has((e as { code?: string }).code ?? '');
}

// Counts, sums and BIGINT times fit in a double (ms since the epoch, row counts): hand them over as numbers.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

function over(client: pg.Pool | pg.PoolClient): Sql {
  const query = async (sql: string, params: Param[] = []) => client.query({ text: numberPlaceholders(sql), values: params, types });
  return {
    dialect: 'pg',
    async all<T>(sql: string, params?: Param[]) {
      return (await query(sql, params)).rows as T[];
    },
    async get<T>(sql: string, params?: Param[]) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params?: Param[]) {
      return (await query(sql, params)).rowCount ?? 0;
    },
  };
}

/**
 * PostgreSQL through a `pg` pool. Plain statements take any pooled connection; a transaction holds
 * one connection from BEGIN to COMMIT and runs again (with a short, growing pause) when PostgreSQL
 * reports a deadlock or a serialization failure, so callers see one outcome.
 */
export function openPostgres(url: string, opts: { max?: number } = {}): Executor {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle pooled connection that the server drops must not take the process down with it.
  pool.on('error', () => undefined);

  return {
    ...over(pool),
    async tx<T>(fn: (q: Sql) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const result = await fn(over(client));
          await client.query('COMMIT');
          return result;
        } catch (e) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
          if (!isRetryable(e) || attempt >= MAX_TX_ATTEMPTS) throw e;
        } finally {
          client.release(broken);
        }
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    },
    async close() {
      await pool.end();
    },
  };
}
