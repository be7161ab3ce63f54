import crypto from 'node:crypto';
import { test } from 'node:test';
import { secretBox } from '../../src/store/secret-box.ts';
import { migrate } from '../../src/store/sql/migrations.ts';
import { openPostgres } from '../../src/store/sql/pg-executor.ts';
import { sqlRepo } from '../../src/store/sql/repo.ts';
import { checkMetaReads } from '../helpers/meta-reads.ts';
import { freshDatabase } from '../../tools/harness/postgres.ts';

test('PostgreSQL: the meta reads of status polls and list pages answer what getAvatar and getMeta answer', async () => {
  const database = await freshDatabase();
  const db = openPostgres(database.url);
  try {
    await migrate(db);
    await checkMetaReads(sqlRepo(db, secretBox(crypto.randomBytes(32))).avatars);
  } finally {
    await db.close();
    await database.drop();
  }
});
