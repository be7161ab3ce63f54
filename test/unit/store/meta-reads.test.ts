import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { secretBox } from '../../../src/store/secret-box.ts';
import { migrate } from '../../../src/store/sql/migrations.ts';
import { sqlRepo } from '../../../src/store/sql/repo.ts';
import { openSqlite } from '../../../src/store/sql/sqlite-executor.ts';
import { checkMetaReads } from '../../helpers/meta-reads.ts';

test('SQLite: the meta reads of status polls and list pages answer what getAvatar and getMeta answer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meta-reads-'));
  const db = openSqlite(path.join(dir, 'service.db'));
  try {
    await migrate(db);
    await checkMetaReads(sqlRepo(db, secretBox(crypto.randomBytes(32))).avatars);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
