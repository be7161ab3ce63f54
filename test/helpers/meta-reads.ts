import assert from 'node:assert/strict';
import type { Avatar, AvatarStore, MetaEntry } from '../../src/domain/ports.ts';

const avatar = (key: string): Avatar => ({
  key, accountId: 'acc', isPublic: false, isSample: false, errorCode: 0, template: '2.0', features: ['expressions'],
  platforms: ['maya', 'unity'], inputType: 'photo', createdBy: 'test', percent: 40, status: 'processing', createdAt: 5, updatedAt: 6, charged: 10,
});

/**
 * The reads that serve status polls and list pages answer what getAvatar and getMeta answer, on any
 * backend: getAvatarWithMeta (one avatar with its meta) and getMetaOf (the meta of many avatars), with
 * entries in getMeta's order, `defined` only on the pipeline's, and text that JSON must escape kept as it is.
 */
export async function checkMetaReads(repo: AvatarStore) {
  const [a, b, none] = [avatar('c'.repeat(32)), avatar('e'.repeat(32)), 'd'.repeat(32)];
  for (const x of [a, b]) await repo.createAvatar({ avatar: x, price: 0 }, 5);
  assert.deepEqual(await repo.getAvatarWithMeta(a.key), { avatar: await repo.getAvatar(a.key), meta: [] });
  const entries: MetaEntry[] = [
    { name: 'zeta', value: 'last' },
    { name: 'quote', value: 'say "hi" \\ \n\t back' },
    { name: 'accent', value: 'café ☕ 😀', defined: 'pipeline' },
    { name: 'json', value: '["not", {"an": "array"}]' },
  ];
  await repo.setMeta(a.key, entries, 7);
  await repo.setMeta(b.key, [{ name: 'only', value: 'one' }], 7);

  const both = await repo.getAvatarWithMeta(a.key);
  assert.deepEqual(both, { avatar: await repo.getAvatar(a.key), meta: await repo.getMeta(a.key) });
  assert.deepEqual(both?.meta.map((m) => m.name), ['accent', 'json', 'quote', 'zeta']);
  assert.deepEqual(both?.meta.find((m) => m.name === 'quote'), entries[1]);
  assert.equal(await repo.getAvatarWithMeta(none), undefined);

  const many = await repo.getMetaOf([b.key, none, a.key]);
  assert.deepEqual([...many.keys()], [b.key, none, a.key]);
  assert.deepEqual(many.get(a.key), await repo.getMeta(a.key));
  assert.deepEqual(many.get(b.key), [{ name: 'only', value: 'one' }]);
  assert.deepEqual(many.get(none), []);
  assert.equal((await repo.getMetaOf([])).size, 0);
}
