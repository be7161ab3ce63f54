import crypto from 'node:crypto';
import { test } from 'node:test';
import { secretBox } from '../../src/store/secret-box.ts';
import { migrate } from '../../src/store/sql/migrations.ts';
import { openPostgres } from '../../src/store/sql/pg-executor.ts';
import { SqlRepo } from '../../src/store/sql/repo.ts';
import { checkAvatarWithMeta } from '../helpers/avatar-with-meta.ts';
import { freshDatabase } from './helpers/postgres.ts';

test('PostgreSQL: the avatar and its meta in one read answer what the two reads answer', async () => {
  const database = await freshDatabase();
  const db = openPostgres(database.url);
  try {
    await migrate(db);
    await checkAvatarWithMeta(new SqlRepo(db, secretBox(crypto.randomBytes(32))));
  } finally {
    await db.close();
    await database.drop();
  }
});
