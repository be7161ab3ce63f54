import assert from 'node:assert/strict';
import type { Avatar, MetaEntry } from '../../src/domain/ports.ts';
import type { SqlRepo } from '../../src/store/sql/repo.ts';

/**
 * Repo.getAvatarWithMeta answers what getAvatar and getMeta answer apart, on any backend: entries in
 * getMeta's order, `defined` only on the pipeline's, text that JSON must escape kept as it is.
 */
export async function checkAvatarWithMeta(repo: SqlRepo) {
  const avatar: Avatar = {
    key: 'c'.repeat(32), accountId: 'acc', isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: ['expressions'],
    platforms: ['maya', 'unity'], inputType: 'photo', createdBy: 'test', percent: 40, status: 'processing', createdAt: 5, updatedAt: 6, charged: 10,
  };
  await repo.createAvatar({ avatar, price: 0 }, 5);
  assert.deepEqual(await repo.getAvatarWithMeta(avatar.key), { avatar: await repo.getAvatar(avatar.key), meta: [] });
  const entries: MetaEntry[] = [
    { name: 'zeta', value: 'last' },
    { name: 'quote', value: 'say "hi" \\ \n\t back' },
    { name: 'accent', value: 'café ☕ 😀', defined: 'pipeline' },
    { name: 'json', value: '["not", {"an": "array"}]' },
  ];
  await repo.setMeta(avatar.key, entries, 7);
  const both = await repo.getAvatarWithMeta(avatar.key);
  assert.deepEqual(both, { avatar: await repo.getAvatar(avatar.key), meta: await repo.getMeta(avatar.key) });
  assert.deepEqual(both?.meta.map((m) => m.name), ['accent', 'json', 'quote', 'zeta']);
  assert.deepEqual(both?.meta.find((m) => m.name === 'quote'), entries[1]);
  assert.equal(await repo.getAvatarWithMeta('d'.repeat(32)), undefined);
}
