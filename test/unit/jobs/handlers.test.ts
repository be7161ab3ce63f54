/**
 * The avatar job's writes (jobs/handlers.ts) against doubles of its ports: the pipeline and the stores are
 * tested for real elsewhere; here, what the handler does with them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleJob, type JobContext } from '../../../src/jobs/handlers.ts';
import { inputPath, modelPath, packagePath, previewPath } from '../../../src/domain/layout.ts';
import { modelFileClaims, writeModelFiles, type ModelFiles } from '../../../src/formats/write/packages.ts';
import type { Avatar } from '../../../src/domain/ports.ts';
import type { PipelineResult } from '../../../src/pipeline/types.ts';
import { buildTestAvatar } from '../../fixtures/avatar.ts';
import { testViews } from '../../fixtures/views.ts';

const avatar: Avatar = {
  key: 'a1', accountId: 'acc', isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: ['basic'],
  platforms: ['maya', 'webviewer', 'unity'], inputType: 'photo', createdBy: '', percent: 0, status: 'pending', createdAt: 0, updatedAt: 0, charged: 1,
};
const result: PipelineResult = { model: buildTestAvatar(), preview: { jpg: Uint8Array.of(1), png: Uint8Array.of(2) }, views: testViews(), meta: { 'face-count': '1' } };

function context(put: (path: string) => Promise<void>): { ctx: JobContext; statuses: string[] } {
  const statuses: string[] = [];
  const ctx: JobContext = {
    avatars: {
      getAvatar: async () => avatar,
      getResult: async () => undefined,
      setAvatarProgress: async (_key, patch) => void (patch.status && statuses.push(patch.status)),
      setMeta: async () => undefined,
      setResultProgress: async () => undefined,
    },
    files: {
      get: async (path) => (path === inputPath(avatar.key) ? Uint8Array.of(0xff, 0xd8) : undefined),
      put: (path) => put(path),
      deletePrefix: async () => undefined,
    },
    pipeline: { run: async () => result },
    worker: 'test',
    minFreeBytes: 0,
    log: { info: () => undefined },
  };
  return { ctx, statuses };
}

const job = { id: 1, kind: 'avatar' as const, avatarKey: avatar.key, childKey: null, attempts: 0 };

test('an avatar job writes every output, then ends done', async () => {
  const written: string[] = [];
  const { ctx, statuses } = context(async (path) => void written.push(path));
  await handleJob(job, ctx);
  for (const p of avatar.platforms) assert.ok(written.includes(packagePath(avatar.key, p)), p);
  assert.deepEqual(statuses, ['processing', 'done']);
});

test('a failed write is reported only once every other write has settled, and the job is not done', async () => {
  let slowDone = false;
  const { ctx, statuses } = context(async (path) => {
    if (path === packagePath(avatar.key, 'unity')) throw new Error('disk gone');
    if (path === packagePath(avatar.key, 'maya')) {
      await new Promise((r) => setTimeout(r, 50));
      slowDone = true;
    }
  });
  await assert.rejects(handleJob(job, ctx), /disk gone/);
  assert.ok(slowDone, 'the other writes were still running when the failure was reported');
  assert.ok(!statuses.includes('done'));
});

test("the pipeline's result is released once every file is written, or has failed, and not before", async () => {
  for (const failing of [undefined, packagePath(avatar.key, 'unity')]) {
    const written: string[] = [];
    let releasedAfter: number | undefined;
    const { ctx } = context(async (path) => {
      await new Promise((r) => setTimeout(r, path === packagePath(avatar.key, 'maya') ? 30 : 1));
      if (path === failing) throw new Error('disk gone');
      written.push(path);
    });
    ctx.pipeline = { run: async () => ({ ...result, release: () => void (releasedAfter ??= written.length) }) };
    const run = handleJob(job, ctx);
    if (failing) await assert.rejects(run, /disk gone/);
    else await run;
    // Two previews, three packages and the model document, less the failed one.
    assert.equal(releasedAfter, failing ? 5 : 6, `released after ${releasedAfter} files (${failing ?? 'none failing'})`);
  }
});

/** A context whose file store has `free` bytes and keeps what is put and removed. */
function store(free: number) {
  const files = new Map<string, number>();
  const removed: string[] = [];
  const { ctx, statuses } = context(async () => undefined);
  ctx.files = {
    ...ctx.files,
    put: async (path, data) => void files.set(path, data instanceof Uint8Array ? data.length : data.reduce((s, part) => s + part.length, 0)),
    deletePrefix: async (path) => {
      removed.push(path);
      files.delete(path);
    },
    freeBytes: async () => free,
  };
  return { ctx, statuses, files, removed };
}

test('the files are put only if all of them fit with the headroom: exactly fitting is done, a byte less leaves nothing', async () => {
  const all = store(Infinity);
  await handleJob(job, all.ctx);
  const total = [...all.files.values()].reduce((s, n) => s + n, 0);
  assert.equal(all.files.size, 3 + avatar.platforms.length);

  const exact = store(total + 1000);
  exact.ctx.minFreeBytes = 1000;
  await handleJob(job, exact.ctx);
  assert.deepEqual(exact.statuses, ['processing', 'done']);
  assert.deepEqual(exact.removed, []);

  const short = store(total + 999);
  short.ctx.minFreeBytes = 1000;
  await handleJob(job, short.ctx);
  assert.deepEqual(short.statuses, ['processing', 'error']);
  assert.ok(short.removed.length > 0, 'some files were put before the one that did not fit');
  assert.deepEqual([...short.files.keys()], [], 'every file put was removed');
});

// The timeout only turns a handler that waits for every package before its first put into a failure instead of a hang.
test('the files are put as they are made: previews, model and the Unity package while the FBX is still being written elsewhere', { timeout: 60_000 }, async () => {
  const claims = modelFileClaims();
  const fbx = writeModelFiles(result.model, ['maya'], claims);
  let give!: (files: ModelFiles) => void;
  const put: string[] = [];
  const { ctx, statuses } = context(async (path) => void put.push(path));
  ctx.pipeline = { run: async () => ({ ...result, modelFiles: new Promise((resolve) => (give = resolve)), modelFileClaims: claims }) };
  const running = handleJob(job, ctx);
  while (!put.includes(packagePath(avatar.key, 'unity'))) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(new Set(put), new Set([previewPath(avatar.key, 'jpg'), previewPath(avatar.key, 'png'), modelPath(avatar.key), packagePath(avatar.key, 'unity')]));
  give(fbx);
  await running;
  assert.equal(put.length, 3 + avatar.platforms.length);
  assert.deepEqual(statuses, ['processing', 'done']);
});

test('a package that cannot be made fails the job only once the files already being put have settled', async () => {
  let previewDone = false;
  const { ctx, statuses } = context(async (path) => {
    if (path === previewPath(avatar.key, 'png')) {
      await new Promise((r) => setTimeout(r, 50));
      previewDone = true;
    }
  });
  // No views: the packages' first entries cannot be made.
  ctx.pipeline = { run: async () => ({ ...result, views: {} as PipelineResult['views'] }) };
  await assert.rejects(handleJob(job, ctx), TypeError);
  assert.ok(previewDone, 'the preview was still being written when the failure was reported');
  assert.ok(!statuses.includes('done'));
});
