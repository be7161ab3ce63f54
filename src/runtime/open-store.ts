import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Files, Repo } from '../domain/ports.ts';
import { linkSigner, type LinkSigner } from '../store/files/link-signer.ts';
import { localFiles } from '../store/files/local-files.ts';
import { s3Files } from '../store/files/s3-files.ts';
import { secretBox } from '../store/secret-box.ts';
import type { Executor } from '../store/sql/executor.ts';
import { migrate } from '../store/sql/migrations.ts';
import { openPostgres } from '../store/sql/pg-executor.ts';
import { sqlRepo } from '../store/sql/repo.ts';
import { openSqlite } from '../store/sql/sqlite-executor.ts';
import type { ServiceKeys } from './keys.ts';

export interface Store {
  repo: Repo;
  files: Files;
  /** Set when this service serves its own links (the embedded file store). */
  linkSigner?: LinkSigner;
  /** The local file store's directory; absent on S3. */
  filesRoot?: string;
  /** Throws unless the database and the file store answer (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export type StoreConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'databasePool' | 's3'>;

/** Over PostgreSQL every process must seal, sign and read with the same keys, so they come from the environment. */
export function requireSharedKeys(config: StoreConfig, env: NodeJS.ProcessEnv = process.env) {
  if (config.databaseUrl && !(env.MASTER_KEY && env.LINK_KEY && env.LIST_KEY)) {
    throw new Error('with DATABASE_URL every process must share MASTER_KEY, LINK_KEY and LIST_KEY: set all three (see docs/DEPLOY.md)');
  }
}

/** The database this configuration names: PostgreSQL at DATABASE_URL, else SQLite under DATA_DIR. Not yet migrated. */
export function openDatabase(config: StoreConfig): Executor {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { max: config.databasePool }) : openEmbeddedDatabase(config.dataDir);
}

/** The embedded service's SQLite database in a data directory. Not yet migrated. */
export function openEmbeddedDatabase(dataDir: string): Executor {
  return openSqlite(path.join(dataDir, 'service.db'));
}

/** The file store this configuration names: an S3 bucket, else DATA_DIR/files with links this service signs. */
export function openFiles(config: StoreConfig, keys: ServiceKeys): Pick<Store, 'files' | 'linkSigner' | 'filesRoot'> & { reachable(): Promise<void>; close(): void } {
  if (config.s3) {
    const files = s3Files(config.s3);
    return { files, reachable: files.reachable, close: files.close };
  }
  const signer = linkSigner(keys.links);
  const filesRoot = path.join(config.dataDir, 'files');
  return { files: localFiles(filesRoot, signer), linkSigner: signer, filesRoot, reachable: () => fs.access(filesRoot), close: () => undefined };
}

/**
 * The store this configuration names (see openDatabase, openFiles). Migrations run on open (safe with
 * several processes at once).
 */
export async function openStore(config: StoreConfig, keys: ServiceKeys, env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  requireSharedKeys(config, env);
  const db = openDatabase(config);
  await migrate(db);
  const repo = sqlRepo(db, secretBox(keys.master));
  const { reachable, close, ...files } = openFiles(config, keys);
  return {
    repo, ...files,
    check: async () => void (await Promise.all([repo.jobs.queueDepth(), reachable()])),
    close: async () => {
      close();
      await repo.close();
    },
  };
}
