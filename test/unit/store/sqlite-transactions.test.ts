import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openSqlite } from '../../../src/store/sql/sqlite-executor.ts';

test('a SQLite transaction started amid other async work runs its statements back to back, holding the write lock for none of that work', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'avatar-sqlite-tx-'));
  const db = openSqlite(path.join(dir, 'service.db'));
  try {
    await db.run('CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
    await db.run("INSERT INTO counters VALUES ('change', 0)");
    // Like a pipeline in a job thread: a chain of awaits with work between them, reporting progress (a transaction) on its way.
    let steps = 0;
    const seen: number[] = [];
    let transaction: Promise<void> | undefined;
    const pipeline = (async () => {
      for (let i = 0; i < 20; i++) {
        if (i === 2) {
          transaction = db.tx(async (q) => {
            seen.push(steps);
            await q.get("SELECT value FROM counters WHERE name = 'change'");
            seen.push(steps);
            await q.run("UPDATE counters SET value = value + 1 WHERE name = 'change'");
            seen.push(steps);
            await q.get("SELECT value FROM counters WHERE name = 'change'");
            seen.push(steps);
          });
        }
        await null;
        steps++;
      }
    })();
    await pipeline;
    await transaction;
    assert.equal(seen.length, 4);
    assert.ok(seen.every((s) => s === seen[0]), `the pipeline went on between the statements: steps ${seen.join(', ')}`);
    assert.equal((await db.get<{ value: number }>("SELECT value FROM counters WHERE name = 'change'"))!.value, 1);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
