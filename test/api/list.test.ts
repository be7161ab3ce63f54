import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jpeg, startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

describe('list: cursors, updates, samples', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  let c: TestClient;
  let photo: Uint8Array;
  const keys: string[] = [];
  const create = async () => {
    const r = await c.upload('/v2/avatar/new/photo/maya/2.0', photo);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    keys.push(r.body.key);
    return r.body.key as string;
  };
  const follow = (uri: string) => c.get(`/v2${uri}`);

  before(async () => {
    s = await startTestService({ workers: 0, listPageSize: 4 });
    const { key } = await s.accounts.create({ name: 'lister', points: 1000 });
    c = new TestClient(s.url, key.publicKey, key.secret);
    photo = await jpeg(32, 32);
    for (let i = 0; i < 10; i++) await create();
  });
  after(async () => s.stop());

  it('pages newest first with next and previous, and counts the whole list', async () => {
    const first = (await c.get('/v2/avatar/list')).body;
    assert.equal(first.total_list_size, 10);
    assert.equal(first.samples_count, 0);
    assert.equal(first.ttl, 3);
    assert.equal(first.previous, undefined);
    assert.match(first.next, /^\/avatar\/list\/cursor\/[\w.-]+$/);
    assert.match(first.update, /^\/avatar\/list\/update\/[\w.-]+$/);
    const seen = first.models.map((m: { key: string }) => m.key);
    assert.deepEqual(seen, keys.slice(-4).reverse());
    let page = first;
    const all = [...seen];
    while (page.next) {
      page = (await follow(page.next)).body;
      all.push(...page.models.map((m: { key: string }) => m.key));
    }
    assert.deepEqual(all, [...keys].reverse());
    const back = (await follow(page.previous)).body;
    assert.deepEqual(back.models.map((m: { key: string }) => m.key), [...keys].reverse().slice(4, 8));
  });

  it('keeps pages correct when avatars are added and deleted between requests', async () => {
    const first = (await c.get('/v2/avatar/list')).body;
    const firstKeys = first.models.map((m: { key: string }) => m.key);
    await create(); // newer than everything: must not shift later pages
    const victim = keys[keys.length - 6]!; // on the second page
    assert.equal((await c.get(`/v2/avatar/${victim}/delete`)).status, 200);
    const second = (await follow(first.next)).body;
    const expected = [...keys].reverse().filter((k) => k !== victim && !firstKeys.includes(k) && k !== keys.at(-1)).slice(0, 4);
    assert.deepEqual(second.models.map((m: { key: string }) => m.key), expected);
    assert.equal(second.total_list_size, 10);
  });

  it('returns changes and removed keys through the update URI', async () => {
    const start = (await c.get('/v2/avatar/list')).body;
    const nothing = (await follow(start.update)).body;
    assert.deepEqual(nothing.models, []);
    assert.deepEqual(nothing.deleted, []);
    const added = await create();
    const removed = keys[0]!;
    await c.get(`/v2/avatar/${removed}/delete`);
    const changed = keys[3]!;
    await c.get(`/v2/avatar/${changed}/meta/set/x/y`);
    const upd = (await follow(start.update)).body;
    assert.deepEqual(upd.models.map((m: { key: string }) => m.key).sort(), [added, changed].sort());
    assert.deepEqual(upd.deleted, [removed]);
    const meta = (await c.get(`/v2/avatar/${changed}/status`)).body.meta;
    assert.ok(meta.some((m: { name: string; value: string }) => m.name === 'x' && m.value === 'y'));
    assert.deepEqual(upd.models.find((m: { key: string }) => m.key === changed).meta, meta, 'a listed avatar carries the meta its status shows');
    const again = (await follow(upd.update)).body;
    assert.deepEqual(again.models, []);
  });

  it('refuses forged, foreign and malformed codes', async () => {
    const first = (await c.get('/v2/avatar/list')).body;
    const code = first.next.split('/').pop();
    const forged = `${code.split('.')[0]}x.${code.split('.')[1]}`;
    for (const uri of [`/v2/avatar/list/cursor/${forged}`, '/v2/avatar/list/cursor/abc', `/v2/avatar/list/update/${code}`]) {
      const r = await c.get(uri);
      assert.equal(r.status, 400, uri);
      assert.equal(codeOf(r.body), 50004, uri);
    }
    const foreign = await s.client.get(`/v2${first.next}`);
    assert.equal(codeOf(foreign.body), 50004, 'another account cannot use this cursor');
    assert.equal(codeOf((await c.get(`/v2/avatar/list/sideways/${code}`)).body), 50006);
  });
});
