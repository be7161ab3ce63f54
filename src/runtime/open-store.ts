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
import { SqlRepo } from '../store/sql/repo.ts';
import { openSqlite } from '../store/sql/sqlite-executor.ts';
import type { ServiceKeys } from './keys.ts';

export interface Store {
  repo: Repo;
  files: Files;
  /** Set when this service serves its own links (the embedded file store). */
  linkSigner?: LinkSigner;
  /** The local file store's directory; absent on S3. */
  filesRoot?: string;
  /** True for the embedded default (SQLite): one process owns the data directory. */
  embedded: boolean;
  /** Throws unless the database and the file store answer (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export type StoreConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'databasePool' | 's3'>;

/**
 * The store this configuration names: SQLite under DATA_DIR or PostgreSQL at DATABASE_URL, and files
 * under DATA_DIR/files or in an S3 bucket. Migrations run on open (safe with several processes at once).
 */
export async function openStore(config: StoreConfig, keys: ServiceKeys, env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  if (config.databaseUrl && !(env.MASTER_KEY && env.LINK_KEY && env.LIST_KEY)) {
    throw new Error('with DATABASE_URL every process must share MASTER_KEY, LINK_KEY and LIST_KEY: set all three (see docs/DEPLOY.md)');
  }
  const db: Executor = config.databaseUrl
    ? openPostgres(config.databaseUrl, { max: config.databasePool })
    : openSqlite(path.join(config.dataDir, 'service.db'));
  await migrate(db);
  const repo = new SqlRepo(db, secretBox(keys.master));
  const dbCheck = async () => void (await repo.queueDepth());
  const embedded = !config.databaseUrl;

  if (config.s3) {
    const files = s3Files(config.s3);
    return {
      repo, files, embedded,
      check: async () => void (await Promise.all([dbCheck(), files.reachable()])),
      close: async () => {
        files.close();
        await repo.close();
      },
    };
  }
  const signer = linkSigner(keys.links);
  const filesRoot = path.join(config.dataDir, 'files');
  return {
    repo, files: localFiles(filesRoot, signer), linkSigner: signer, filesRoot, embedded,
    check: async () => void (await Promise.all([dbCheck(), fs.access(filesRoot)])),
    close: () => repo.close(),
  };
}
