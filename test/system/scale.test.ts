import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { authorizationHeader } from '../../src/protocol/digest.ts';
import { readCredentials } from '../../tools/harness/process.ts';
import { jpeg, scriptedPipeline, tempDir, TestClient } from '../../tools/harness/service.ts';
import { runCli, sharedKeys, startProcess, type ServiceProcess } from '../../tools/harness/cluster.ts';
import { freshDatabase } from '../../tools/harness/postgres.ts';
import { migrate } from '../../src/store/sql/migrations.ts';
import { openPostgres } from '../../src/store/sql/pg-executor.ts';
import { startSwift, type SwiftS3 } from './helpers/swift.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codeOf = (body: { msg?: string }) => Number(String(body.msg ?? '').slice(0, 5));

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('scale-out: API and worker processes over PostgreSQL and S3 (Swift s3api)', () => {
  let swift: SwiftS3;
  before(async () => {
    swift = await startSwift();
  });
  after(async () => {
    await swift?.stop();
  });

  it('two API and three worker processes make 60 avatars through a worker SIGKILL, with exact points and working presigned links', async () => {
    const db = await freshDatabase();
    const sql = new pg.Client({ connectionString: db.url });
    const procs: ServiceProcess[] = [];
    try {
      const env = {
        ...swift.env, S3_BUCKET: await swift.createBucket(), DATABASE_URL: db.url, ...sharedKeys(),
        PIPELINE_MODULE: scriptedPipeline, SCRIPTED_PIPELINE_MS: '800', SAMPLES: '0', JOB_LEASE: '3', LOG_LEVEL: 'error',
        // Without the rate limit, but where it is tested below: the polls of 60 statuses, one key on both API
        // processes, passed 500 in 10 s on a quick machine, and a link asked for after them was refused (99998).
        RATE_LIMIT: '0',
      };
      const account = JSON.parse(await runCli('admin', ['create-account', '--name', 'scale', '--points', '1000', '--json'], env)) as { key: string; secret: string };
      // Several processes start at once: each runs the migrations (only one applies them).
      const [api1, api2] = await Promise.all([startProcess({ ...env, ROLE: 'api' }), startProcess({ ...env, ROLE: 'api' })]);
      procs.push(api1!, api2!);
      const workers = await Promise.all([0, 1, 2].map(() => startProcess({ ...env, ROLE: 'worker', WORKERS: '1' })));
      procs.push(...workers);
      await sql.connect();
      const apis = [new TestClient(api1!.url, account.key, account.secret), new TestClient(api2!.url, account.key, account.secret)];

      for (const p of procs) {
        assert.equal((await fetch(`${p.url}/healthz`)).status, 200);
        assert.equal((await fetch(`${p.url}/readyz`)).status, 200);
      }
      assert.equal((await fetch(`${workers[0]!.url}/v2/profile`)).status, 404, 'a worker serves no API');

      // 60 avatars through both API processes; every tenth photo makes the pipeline fail (refunded).
      const photo = await jpeg(40, 40);
      const failing = await jpeg(17, 20);
      const keys: string[] = [];
      for (let batch = 0; batch < 60; batch += 6) {
        const made = await Promise.all(
          Array.from({ length: 6 }, (_, j) => apis[(batch + j) % 2]!.upload('/v2/avatar/new/photo/maya,unity/2.0', (batch + j) % 10 === 3 ? failing : photo)),
        );
        for (const r of made) {
          assert.equal(r.status, 200, JSON.stringify(r.body));
          keys.push(r.body.key);
        }
      }

      // Kill the first worker while it holds a job; its job comes back when the lease runs out.
      const victim = workers[0]!;
      const running = await until('the first worker to hold a job', async () => {
        const { rows } = await sql.query("SELECT avatar_key FROM jobs WHERE state = 'running' AND worker LIKE $1", [`%:${victim.child.pid}:%`]);
        return rows[0]?.avatar_key as string | undefined;
      });
      victim.child.kill('SIGKILL');
      await victim.stop();

      // Progress is in the database: the other API process sees it too.
      let sawProgress = false;
      const finals = new Map<string, { status: string; error_code: number }>();
      await until('every avatar to finish', async () => {
        for (const [i, key] of keys.entries()) {
          if (finals.has(key)) continue;
          const st = (await apis[(i + 1) % 2]!.get(`/v2/avatar/${key}/status`)).body;
          if (st.status === 'processing' && st.percent > 1 && st.percent < 100) sawProgress = true;
          if (st.status === 'done' || st.status === 'error') finals.set(key, st);
        }
        return finals.size === keys.length;
      }, 300_000);
      assert.ok(sawProgress, 'progress was visible from an API process while a worker made the avatar');
      const failed = keys.filter((_, i) => i % 10 === 3);
      assert.equal(finals.get(running)!.status, failed.includes(running) ? 'error' : 'done', 'the killed worker\'s job was finished by another worker');
      for (const key of keys) {
        const st = finals.get(key)!;
        if (failed.includes(key)) assert.deepEqual([st.status, st.error_code], ['error', 10001]);
        else assert.equal(st.status, 'done', key);
      }
      for (const api of apis) assert.equal((await api.get('/v2/profile')).body.points, 1000 - (60 - failed.length) * 10, 'charged once each, failures refunded');
      assert.equal(Number((await sql.query('SELECT COUNT(*) AS n FROM jobs')).rows[0].n), 0, 'no job left behind');

      // Every presigned link works, straight from the object store, with type and file name.
      for (const [i, key] of keys.entries()) {
        if (failed.includes(key)) continue;
        const linked = await apis[i % 2]!.get(`/v2/avatar/${key}/download/unity`);
        assert.equal(linked.status, 200, JSON.stringify(linked.body));
        const link = linked.body;
        assert.ok(link.location.startsWith(swift.endpoint), link.location);
        const res = await fetch(link.location);
        assert.equal(res.status, 200, link.location);
        assert.equal(res.headers.get('content-type'), 'application/zip');
        assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`filename="${key}_unity.zip"`));
        assert.deepEqual([...new Uint8Array(await res.arrayBuffer()).subarray(0, 2)], [0x50, 0x4b]);
        const previewLink = await apis[(i + 1) % 2]!.get(`/v2/avatar/${key}/preview/png`);
        assert.equal(previewLink.status, 200, JSON.stringify(previewLink.body));
        const preview = await fetch(previewLink.body.location);
        assert.equal(preview.status, 200);
        assert.equal(preview.headers.get('content-type'), 'image/png');
        await preview.arrayBuffer();
      }

      // A tampered link is refused by the store itself: another object, or a changed expiry.
      const good = (await apis[0]!.get(`/v2/avatar/${keys[0]}/preview/png`)).body.location as string;
      for (const bad of [good.replace('preview.png', 'input'), good.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800')]) {
        assert.notEqual(bad, good);
        assert.equal((await fetch(bad)).status, 403, bad);
      }

      // A nonce spent on one API process is refused by the other.
      const uri = '/v2/profile';
      const header = authorizationHeader(account.key, account.secret, uri, 'sha256', `replay-${Date.now()}`);
      assert.equal((await apis[0]!.get(uri, { auth: header })).status, 200);
      assert.equal((await apis[1]!.get(uri, { auth: header })).status, 401);

      // A deleted avatar's running job is cancelled: its worker stops and its files are gone. A job may
      // finish before its worker next looks (a slow poll here), so try a few avatars; one must be cancelled.
      const outcomes = async () => {
        const text = (await Promise.all(workers.slice(1).map(async (w) => (await fetch(`${w.url}/metrics`)).text()))).join('\n');
        const count = (outcome: string) =>
          [...text.matchAll(new RegExp(`avatar_jobs_total\\{kind="avatar",outcome="${outcome}"\\} (\\d+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
        return { cancelled: count('cancelled'), all: ['done', 'retry', 'failed', 'cancelled', 'released'].reduce((n, o) => n + count(o), 0) };
      };
      let cancelled = 0;
      for (let attempt = 0; attempt < 5 && cancelled === 0; attempt++) {
        const before = await outcomes();
        const doomed = (await apis[0]!.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key as string;
        await until('the doomed avatar to be processing', async () => (await apis[1]!.get(`/v2/avatar/${doomed}/status`)).body.status === 'processing');
        assert.equal((await apis[1]!.get(`/v2/avatar/${doomed}/delete`)).status, 200);
        const after = await until('the doomed job to end', async () => {
          const now = await outcomes();
          return now.all > before.all && now;
        }, 30_000);
        cancelled = after.cancelled - before.cancelled;
        assert.equal((await apis[0]!.get(`/v2/avatar/${doomed}/status`)).status, 404);
        assert.deepEqual(await swift.list(env.S3_BUCKET, `avatars/${doomed}/`), []);
      }
      assert.equal(cancelled, 1, 'a running job stopped when its avatar was deleted');

      // Concurrent creates on both API processes never overspend: points for exactly 10.
      const small = JSON.parse(await runCli('admin', ['create-account', '--name', 'small', '--points', '100', '--json'], env)) as { key: string; secret: string };
      const smalls = apis.map((a) => new TestClient(a.base, small.key, small.secret));
      const tries = await Promise.all(Array.from({ length: 30 }, (_, i) => smalls[i % 2]!.upload('/v2/avatar/new/photo/maya/2.0', photo)));
      assert.equal(tries.filter((r) => r.status === 200).length, 10);
      assert.ok(tries.filter((r) => r.status !== 200).every((r) => r.status === 402 && codeOf(r.body) === 33200));
      assert.equal((await smalls[1]!.get('/v2/profile')).body.points, 0);

      // Metrics: requests by route and status on an API process, job runs on a worker, the shared queue depth.
      const apiMetrics = await (await fetch(`${api1!.url}/metrics`)).text();
      assert.match(apiMetrics, /avatar_http_requests_total\{route="\/v2\/avatar\/:key\/status",method="GET",status="200"\} \d+/);
      assert.match(apiMetrics, /avatar_http_request_duration_seconds_bucket\{le="0\.1",route="\/v2\/avatar\/new\/:a\/:b\/:c",method="POST",status="200"\} \d+/);
      assert.match(apiMetrics, /avatar_job_queue_depth \d+/);
      const workerMetrics = (await Promise.all(workers.slice(1).map(async (w) => (await fetch(`${w.url}/metrics`)).text()))).join('\n');
      assert.match(workerMetrics, /avatar_jobs_total\{kind="avatar",outcome="done"\} \d+/);
      assert.match(workerMetrics, /avatar_job_stage_duration_seconds_count\{kind="avatar",stage="step 2"\} \d+/);

      // Graceful shutdown: a worker asked to stop mid-job finishes it and exits cleanly.
      const last = (await apis[0]!.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(41, 40))).body.key as string;
      const holder = await until('a worker to hold the last job', async () => {
        const { rows } = await sql.query("SELECT worker FROM jobs WHERE state = 'running' AND avatar_key = $1", [last]);
        return rows[0] && workers.find((w) => String(rows[0].worker).includes(`:${w.child.pid}:`));
      });
      assert.equal(await holder.stop(), 0);
      assert.equal((await apis[1]!.get(`/v2/avatar/${last}/status`)).body.status, 'done');

      // With no grace left, a stopping worker hands its job back to the queue and another worker makes the avatar.
      // Its pipeline takes long enough that the stop lands inside it on a slow machine too: a stop that came after
      // the pipeline had returned would let the job finish, and nothing would be handed back.
      const hasty = await startProcess({ ...env, ROLE: 'worker', WORKERS: '1', SHUTDOWN_GRACE: '0', LOG_LEVEL: 'info', SCRIPTED_PIPELINE_MS: '6000' });
      procs.push(hasty);
      const handed: string[] = [];
      await until('the hasty worker to hold a job', async () => {
        const { rows } = await sql.query("SELECT 1 FROM jobs WHERE state = 'running' AND worker LIKE $1", [`%:${hasty.child.pid}:%`]);
        if (rows.length > 0) return true;
        // Keep one job waiting until the new worker (still starting its thread) takes one.
        if (Number((await sql.query("SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'")).rows[0].n) === 0) {
          handed.push((await apis[0]!.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key);
        }
        return false;
      });
      assert.equal(await hasty.stop(), 0);
      assert.match(hasty.output(), /job handed back to the queue at shutdown/);
      for (const key of handed) assert.equal((await apis[1]!.waitFor(key, 60_000)).status, 'done');

      // The rate limit counts a key's requests on every API process together (RATE_LIMIT=1: 10 per 10 s window).
      const limited = await Promise.all([0, 1].map(() => startProcess({ ...env, ROLE: 'api', RATE_LIMIT: '1', LOG_LEVEL: 'info' })));
      procs.push(...limited);
      const throttled = limited.map((p) => new TestClient(p.url, small.key, small.secret));
      await until('the start of a rate window', async () => Date.now() % 10_000 < 500, 15_000);
      const windowOf = () => Math.floor(Date.now() / 10_000);
      const window = windowOf();
      const answers: number[] = [];
      for (let i = 0; i < 16; i++) answers.push((await throttled[i % 2]!.get('/v2/profile')).status);
      assert.equal(windowOf(), window, 'the burst fitted in one window');
      assert.deepEqual([answers.filter((a) => a === 200).length, answers.filter((a) => a === 429).length], [10, 6]);

      // An API process told to stop answers the request it is receiving, then exits cleanly.
      const third = JSON.parse(await runCli('admin', ['create-account', '--name', 'third', '--points', '100', '--json'], env)) as { key: string; secret: string };
      const closing = limited[0]!;
      const newUri = '/v2/avatar/new/photo/maya/2.0';
      const boundary = 'scale-test-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      let push!: ReadableStreamDefaultController<Uint8Array>;
      const reply = fetch(`${closing.url}${newUri}`, {
        method: 'POST',
        body: new ReadableStream<Uint8Array>({ start: (c) => void (push = c) }),
        duplex: 'half',
        headers: { authorization: new TestClient(closing.url, third.key, third.secret).authFor(newUri), 'content-type': `multipart/form-data; boundary=${boundary}` },
      } as RequestInit);
      push.enqueue(body.subarray(0, 64));
      await until('the API process to receive the request', async () => /incoming request[^\n]*avatar\/new/.test(closing.output()) || closing.output().includes('"url":"/v2/avatar/new'));
      closing.child.kill('SIGTERM');
      await until('the API process to begin closing', async () => closing.output().includes('shutting down'));
      push.enqueue(body.subarray(64));
      push.close();
      const answered = await reply;
      assert.equal(answered.status, 200, await answered.clone().text());
      assert.equal(await closing.stop(), 0);
      assert.equal((await apis[0]!.call('GET', '/v2/profile')).status, 200, 'the other API process still serves');
      assert.equal((await new TestClient(apis[1]!.base, third.key, third.secret).get('/v2/profile')).body.points, 90);
    } finally {
      await Promise.all(procs.map((p) => p.stop()));
      await sql.end().catch(() => undefined);
      await db.drop();
    }
  });

  it('migrate-data moves an embedded data directory into PostgreSQL and S3, re-sealing secrets, and everything still downloads', async () => {
    const dataDir = tempDir('avatar-embedded-');
    const embedded = await startProcess({ DATA_DIR: dataDir, PIPELINE_MODULE: scriptedPipeline, SCRIPTED_PIPELINE_MS: '50', SAMPLES: '0' });
    const creds = readCredentials(dataDir);
    let c = new TestClient(embedded.url, creds.key, creds.secret);
    const photo = await jpeg(40, 40);
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) keys.push((await c.upload('/v2/avatar/new/photo/maya,webviewer/2.0', i === 1 ? await jpeg(17, 20) : photo)).body.key);
    for (const key of keys) await c.waitFor(key);
    assert.equal((await c.get(`/v2/avatar/${keys[0]}/meta/set/color/blue`)).status, 200);
    assert.equal((await c.get(`/v2/avatar/${keys[3]}/delete`)).status, 200);
    const before = {
      profile: (await c.get('/v2/profile')).body,
      list: (await c.get('/v2/avatar/list')).body.models.map((m: { key: string; status: string }) => [m.key, m.status]),
    };
    assert.equal(await embedded.stop(), 0);

    const db = await freshDatabase();
    const procs: ServiceProcess[] = [];
    try {
      const env = { ...swift.env, S3_BUCKET: await swift.createBucket(), DATABASE_URL: db.url, ...sharedKeys(), PIPELINE_MODULE: scriptedPipeline, SCRIPTED_PIPELINE_MS: '50', SAMPLES: '0' };
      const first = await runCli('migrate-data', ['--from', dataDir], env);
      assert.match(first, /files: [1-9]\d* copied, 0 already there/);
      assert.match(first, /avatars: 3 rows/);
      const second = await runCli('migrate-data', ['--from', dataDir], env);
      assert.match(second, /files: 0 copied, [1-9]\d* already there/, 'a second run copies nothing twice');
      const sql = new pg.Client({ connectionString: db.url });
      await sql.connect();
      const rowCounts = (await sql.query('SELECT (SELECT COUNT(*) FROM avatars) AS a, (SELECT COUNT(*) FROM charges) AS c, (SELECT COUNT(*) FROM tombstones) AS t')).rows[0];
      await sql.end();
      assert.deepEqual([Number(rowCounts.a), Number(rowCounts.c), Number(rowCounts.t)], [3, 3, 1]);

      procs.push(await startProcess({ ...env, ROLE: 'api' }), await startProcess({ ...env, ROLE: 'worker' }));
      c = new TestClient(procs[0]!.url, creds.key, creds.secret); // the same key and secret, re-sealed under the new master key
      assert.deepEqual((await c.get('/v2/profile')).body, before.profile);
      assert.deepEqual((await c.get('/v2/avatar/list')).body.models.map((m: { key: string; status: string }) => [m.key, m.status]), before.list);
      assert.deepEqual((await c.get(`/v2/avatar/${keys[0]}/meta/get/color`)).body.meta, [{ name: 'color', value: 'blue' }]);
      assert.equal((await c.get(`/v2/avatar/${keys[3]}/status`)).status, 404);
      for (const key of [keys[0]!, keys[2]!]) {
        for (const uri of [`/v2/avatar/${key}/download/maya`, `/v2/avatar/${key}/download/webviewer`, `/v2/avatar/${key}/preview/jpg`]) {
          const res = await fetch((await c.get(uri)).body.location);
          assert.equal(res.status, 200, uri);
          assert.ok((await res.arrayBuffer()).byteLength > 0);
        }
      }
      // New work goes on where the copy left off.
      const fresh = (await c.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key as string;
      assert.equal((await c.waitFor(fresh)).status, 'done');
      assert.equal((await c.get('/v2/avatar/list')).body.models[0].key, fresh);
      assert.equal((await c.get('/v2/profile')).body.points, before.profile.points - 10);
    } finally {
      await Promise.all(procs.map((p) => p.stop()));
      await db.drop();
    }
  });

  it('makes real-pipeline avatars from test photos on an API and a worker process over PostgreSQL and S3', async () => {
    const db = await freshDatabase();
    const procs: ServiceProcess[] = [];
    try {
      const env = { ...swift.env, S3_BUCKET: await swift.createBucket(), DATABASE_URL: db.url, ...sharedKeys(), SAMPLES: '0', LOG_LEVEL: 'error' };
      const account = JSON.parse(await runCli('admin', ['create-account', '--name', 'real', '--points', '100', '--json'], env)) as { key: string; secret: string };
      procs.push(await startProcess({ ...env, ROLE: 'api' }), await startProcess({ ...env, ROLE: 'worker' }));
      const c = new TestClient(procs[0]!.url, account.key, account.secret);
      const faces = new URL('../fixtures/faces/', import.meta.url);
      const keys = await Promise.all(['p01-a.jpg', 'p02-a.jpg'].map(async (f) => (await c.upload('/v2/avatar/new/photo/maya,unity/2.0', new Uint8Array(fs.readFileSync(new URL(f, faces))))).body.key as string));
      for (const key of keys) {
        assert.equal((await c.waitFor(key, 300_000)).status, 'done');
        for (const uri of [`/v2/avatar/${key}/download/maya`, `/v2/avatar/${key}/download/unity`, `/v2/avatar/${key}/preview/png`]) {
          const res = await fetch((await c.get(uri)).body.location);
          assert.equal(res.status, 200, uri);
          assert.ok((await res.arrayBuffer()).byteLength > 10_000, uri);
        }
      }
    } finally {
      await Promise.all(procs.map((p) => p.stop()));
      await db.drop();
    }
  });
});

describe('PostgreSQL executor', () => {
  it('migrates once when several processes start at once, and runs a deadlocked transaction again', async () => {
    const db = await freshDatabase();
    const executors = Array.from({ length: 6 }, () => openPostgres(db.url, { max: 2 }));
    try {
      await Promise.all(executors.map((e) => migrate(e)));
      const [a, b] = executors as [ReturnType<typeof openPostgres>, ReturnType<typeof openPostgres>];
      const versions = (await a.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
      assert.ok(versions.length >= 3);
      assert.deepEqual(versions, versions.map((_, i) => i + 1), 'every step applied exactly once');

      await a.run("INSERT INTO counters (name, value) VALUES ('x', 0), ('y', 0)");
      // Each transaction takes one row, waits for the other to take its row, then wants the other's: a deadlock.
      let attempts = 0;
      let arrived = 0;
      const bothHoldOne = async () => {
        arrived++;
        await until('both transactions to hold a row', async () => arrived >= 2, 10_000);
      };
      const cross = (e: typeof a, first: string, second: string) =>
        e.tx(async (q) => {
          attempts++;
          await q.run('UPDATE counters SET value = value + 1 WHERE name = ?', [first]);
          await bothHoldOne();
          await q.run('UPDATE counters SET value = value + 1 WHERE name = ?', [second]);
        });
      await Promise.all([cross(a, 'x', 'y'), cross(b, 'y', 'x')]);
      assert.equal(attempts, 3, 'PostgreSQL broke the deadlock by failing one transaction, which ran again');
      assert.deepEqual((await a.all<{ value: number }>("SELECT value FROM counters WHERE name IN ('x', 'y') ORDER BY name")).map((r) => r.value), [2, 2]);
      assert.equal(typeof (await a.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM counters'))!.n, 'number', 'BIGINT arrives as a number');
    } finally {
      await Promise.all(executors.map((e) => e.close()));
      await db.drop();
    }
  });
});
