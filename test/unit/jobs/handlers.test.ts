/**
 * The avatar job's writes (jobs/handlers.ts) against doubles of its ports: the pipeline and the stores are
 * tested for real elsewhere; here, what the handler does with them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleJob, type JobContext } from '../../../src/jobs/handlers.ts';
import { inputPath, packagePath } from '../../../src/domain/layout.ts';
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
