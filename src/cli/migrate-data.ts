import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import type { Files } from '../domain/ports.ts';
import { loadKeys } from '../runtime/keys.ts';
import { lockDataDir } from '../runtime/lock.ts';
import { openDatabase, openEmbeddedDatabase, openFiles, requireSharedKeys } from '../runtime/open-store.ts';
import { secretBox, type SecretBox } from '../store/secret-box.ts';
import type { Executor, Param, Row, Sql } from '../store/sql/executor.ts';
import { migrate } from '../store/sql/migrations.ts';

const usage = `Usage: npm run --silent migrate-data -- --from DATA_DIR
Copies an embedded data directory (DATA_DIR/service.db and DATA_DIR/files) into the database and file
store this environment configures (DATABASE_URL, S3_*, MASTER_KEY, LINK_KEY, LIST_KEY): accounts, keys
(secrets re-sealed under MASTER_KEY), points, avatars, meta, results, queued jobs, list changes, nonces,
portal logins and sessions, and every file. Running it again copies what changed and nothing twice. Stop the embedded service first.`;

/** Tables in dependency order, each with the columns that identify a row (none: the whole row does). */
const TABLES: { name: string; key: string[] }[] = [
  { name: 'accounts', key: ['id'] },
  { name: 'app_keys', key: ['public_key'] },
  { name: 'nonces', key: ['public_key', 'nonce'] },
  { name: 'point_batches', key: ['id'] },
  { name: 'avatars', key: ['key'] },
  { name: 'charges', key: [] },
  { name: 'tombstones', key: [] },
  { name: 'meta', key: ['avatar_key', 'name'] },
  { name: 'results', key: ['avatar_key', 'child_key'] },
  { name: 'jobs', key: ['id'] },
  { name: 'portal_logins', key: ['email'] },
  { name: 'portal_sessions', key: ['id_hash'] },
];

/** Tables that are not copied row by row: bookkeeping, and rate windows that are only live for a second. */
const NOT_COPIED = new Set(['schema_migrations', 'counters', 'rate_windows', 'sqlite_sequence']);

/** A table added by a later migration must be named here, not silently left behind. */
async function checkTables(source: Executor) {
  const tables = await source.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  const unknown = tables.map((t) => t.name).filter((n) => !NOT_COPIED.has(n) && !TABLES.some((t) => t.name === n));
  if (unknown.length) throw new Error(`migrate-data does not know how to copy: ${unknown.join(', ')}`);
}

/** Auto-increment keys whose PostgreSQL sequence must move past the copied values. */
const SEQUENCES = [['point_batches', 'id'], ['avatars', 'seq'], ['jobs', 'id']] as const;

function adapt(table: string, row: Row, from: SecretBox, to: SecretBox): Row {
  if (table === 'app_keys') return { ...row, secret: to.seal(from.open(String(row.secret))) };
  // A job some worker of the old service held is simply queued again.
  if (table === 'jobs') return { ...row, state: 'queued', worker: null, lease_until: 0 };
  return row;
}

/** Inserts the row or, when one with the same key is there, brings it up to date; rows without a key are inserted once. */
async function upsert(q: Sql, table: string, key: string[], row: Row) {
  const cols = Object.keys(row);
  const values = cols.map((c) => row[c] as Param);
  const marks = cols.map(() => '?').join(', ');
  if (key.length === 0) {
    const same = cols.map((c) => `${c} = ?`).join(' AND ');
    if (await q.get(`SELECT 1 AS x FROM ${table} WHERE ${same}`, values)) return;
    await q.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${marks})`, values);
    return;
  }
  const update = cols.filter((c) => !key.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ');
  await q.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${marks}) ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update}`, values);
}

async function copyDatabase(source: Executor, target: Executor, from: SecretBox, to: SecretBox): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await target.tx(async (q) => {
    for (const { name, key } of TABLES) {
      const rows = await source.all<Row>(`SELECT * FROM ${name}`);
      for (const row of rows) await upsert(q, name, key, adapt(name, row, from, to));
      counts[name] = rows.length;
    }
    const change = await source.get<{ value: number }>("SELECT value FROM counters WHERE name = 'change'");
    await q.run("UPDATE counters SET value = ? WHERE name = 'change' AND value < ?", [Number(change?.value ?? 0), Number(change?.value ?? 0)]);
    if (q.dialect === 'pg') {
      for (const [table, column] of SEQUENCES) {
        await q.run(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), GREATEST((SELECT MAX(${column}) FROM ${table}), 1))`);
      }
    }
  });
  return counts;
}

/** Every file under the embedded file store, as relative `/`-separated paths (temporary files left out). */
async function* walk(root: string, dir = ''): AsyncGenerator<string> {
  for (const entry of await fsp.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => [])) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (rel !== '.tmp') yield* walk(root, rel);
    } else if (entry.isFile()) yield rel;
  }
}

async function copyFiles(root: string, files: Pick<Files, 'exists' | 'put'>): Promise<{ copied: number; present: number }> {
  let copied = 0;
  let present = 0;
  for await (const rel of walk(root)) {
    if (await files.exists(rel)) {
      present++;
      continue;
    }
    await files.put(rel, new Uint8Array(await fsp.readFile(path.join(root, rel))));
    copied++;
  }
  return { copied, present };
}

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' }, help: { type: 'boolean', default: false } } });
  if (values.help || !values.from) {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
  }
  const from = path.resolve(values.from);
  if (!fs.existsSync(path.join(from, 'service.db')) || !fs.existsSync(path.join(from, 'keys.json'))) throw new Error(`${from} is not an embedded data directory (service.db and keys.json)`);
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('set DATABASE_URL (and S3_* for object storage): that is where the data goes');
  requireSharedKeys(config);

  const unlock = lockDataDir(from); // the embedded service must not write while its data is copied
  const sourceKeys = loadKeys(from, {});
  const targetKeys = loadKeys(config.dataDir);
  const source = openEmbeddedDatabase(from);
  const target = openDatabase(config);
  const store = openFiles(config, targetKeys);
  try {
    await migrate(source);
    await migrate(target);
    await checkTables(source);
    // Files first: once a row is there, its files must be too.
    const files = await copyFiles(path.join(from, 'files'), store.files);
    console.log(`files: ${files.copied} copied, ${files.present} already there`);
    const counts = await copyDatabase(source, target, secretBox(sourceKeys.master), secretBox(targetKeys.master));
    for (const [table, n] of Object.entries(counts)) console.log(`${table}: ${n} rows`);
  } finally {
    store.close();
    await source.close();
    await target.close();
    unlock();
  }
}

await main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
