/**
 * The few calls the repository makes of a SQL database. One implementation per backend
 * (SQLite embedded, PostgreSQL); the repository's SQL is written once with `?` placeholders.
 */
export type Row = Record<string, unknown>;
export type Param = string | number | null;

export interface Sql {
  readonly dialect: 'sqlite' | 'pg';
  all<T = Row>(sql: string, params?: Param[]): Promise<T[]>;
  get<T = Row>(sql: string, params?: Param[]): Promise<T | undefined>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: Param[]): Promise<number>;
}

export interface Executor extends Sql {
  /** Runs fn in one write transaction; concurrent callers wait their turn. */
  tx<T>(fn: (q: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
