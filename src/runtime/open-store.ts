import path from 'node:path';
import type { Config } from '../config.ts';
import type { Files, Repo } from '../domain/ports.ts';
import { linkSigner, type LinkSigner } from '../store/files/link-signer.ts';
import { localFiles } from '../store/files/local-files.ts';
import { secretBox } from '../store/secret-box.ts';
import { migrate } from '../store/sql/migrations.ts';
import { SqlRepo } from '../store/sql/repo.ts';
import { openSqlite } from '../store/sql/sqlite-executor.ts';
import type { ServiceKeys } from './keys.ts';

export interface Store {
  repo: Repo;
  files: Files;
  /** Set when this service serves its own links (the embedded file store). */
  linkSigner?: LinkSigner;
  filesRoot: string;
}

/** The embedded default: SQLite and files under DATA_DIR. */
export async function openStore(config: Pick<Config, 'dataDir'>, keys: ServiceKeys): Promise<Store> {
  const db = openSqlite(path.join(config.dataDir, 'service.db'));
  await migrate(db);
  const signer = linkSigner(keys.links);
  const filesRoot = path.join(config.dataDir, 'files');
  return { repo: new SqlRepo(db, secretBox(keys.master)), files: localFiles(filesRoot, signer), linkSigner: signer, filesRoot };
}
