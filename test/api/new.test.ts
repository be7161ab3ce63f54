import assert from 'node:assert/strict';
import { zipSync } from 'fflate';
import { after, before, describe, it } from 'node:test';
import { jpeg, startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

/** A JPEG header declaring a size, with no image data after it. */
function jpegHeader(width: number, height: number) {
  return new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);
}

describe('new avatar: validation before any charge', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  let photo: Uint8Array;
  before(async () => {
    s = await startTestService({ workers: 0 });
    photo = await jpeg(64, 48);
  });
  after(async () => s.stop());

  const points = async () => (await s.client.get('/v2/profile')).body.points as number;

  it('refuses each bad request with its code and takes no points', async () => {
    const start = await points();
    const cases: [string, Uint8Array, number, number, string?][] = [
      ['/v2/avatar/new/video/maya/2.0', photo, 400, 12801],
      ['/v2/avatar/new/photo/playstation/2.0', photo, 400, 40110],
      ['/v2/avatar/new/photo/maya/3.1', photo, 400, 19100],
      ['/v2/avatar/new/photo/maya/2.0/expressions,dance', photo, 400, 12803],
      ['/v2/avatar/new/photo/maya/2.0', new TextEncoder().encode('hello, not an image'), 400, 30011],
      ['/v2/avatar/new/photo/maya/2.0', new TextEncoder().encode('GIF89a......'), 400, 30012],
      ['/v2/avatar/new/photo/maya/2.0', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2]), 400, 30013],
      ['/v2/avatar/new/photo/maya/2.0', jpegHeader(4000, 2200), 400, 30014],
      ['/v2/avatar/new/lofimesh_texture/unity/2.0', photo, 400, 30006],
      ['/v2/avatar/new/lofimesh_texture/unity/2.0', new Uint8Array([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)]), 400, 30005],
      ['/v2/avatar/new/photo/maya/2.0', new Uint8Array(0), 400, 30002],
    ];
    for (const [uri, file, status, code] of cases) {
      const r = await s.client.upload(uri, file);
      assert.equal(r.status, status, `${uri}: ${JSON.stringify(r.body)}`);
      assert.equal(codeOf(r.body), code, `${uri}: ${r.body.msg}`);
    }
    const obj = new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const archives: [string, Uint8Array, number][] = [
      ['lofimesh_texture', zipSync({ 'readme.txt': new Uint8Array(3) }), 30003],
      ['lofimesh_texture', zipSync({ 'mesh.obj': obj }), 30002],
      ['hifimesh_texture_photo', zipSync({ 'mesh.obj': obj, 'mesh.png': new Uint8Array(4) }), 30002],
      ['lofimesh_texture', zipSync({ '../mesh.obj': obj, 'mesh.jpg': photo }), 40101],
      ['lofimesh_texture', zipSync({ 'mesh.obj': new TextEncoder().encode('hello world'), 'mesh.jpg': photo }), 30012],
      ['lofimesh_texture', zipSync({ 'mesh.obj': obj, 'mesh.jpg': new TextEncoder().encode('not a picture') }), 30011],
    ];
    for (const [type, file, code] of archives) {
      const r = await s.client.upload(`/v2/avatar/new/${type}/maya/2.0`, file, 'file', 'head.zip');
      assert.equal(codeOf(r.body), code, `${type}: ${r.body.msg}`);
    }
    // no file part, or one with another name
    const noPart = await s.client.call('POST', '/v2/avatar/new/photo/maya/2.0', { json: { file: 'x' } });
    assert.equal(codeOf(noPart.body), 30001, JSON.stringify(noPart.body));
    const wrongName = await s.client.upload('/v2/avatar/new/photo/maya/2.0', photo, 'picture');
    assert.equal(codeOf(wrongName.body), 30001);
    assert.equal(await points(), start);
  });

  it('accepts aliases, lists, the 8 MP limit exactly, and the pre-2.1 path', async () => {
    const ok = [
      '/v2/avatar/new/photo/zip/2.0',
      '/v2/avatar/new/photo/unityzip,webviewer/1.6/basic,expressions,visemes',
      '/v2/avatar/new/photo/2.0',
      '/v2/avatar/new/photo/1.6/expressions',
    ];
    for (const uri of ok) {
      const r = await s.client.upload(uri, photo);
      assert.equal(r.status, 200, `${uri}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.key, /^[0-9a-f]{32}$/);
    }
    const st = await s.client.get(`/v2/avatar/${(await s.client.upload('/v2/avatar/new/photo/unityzip,maya/2.0/visemes', photo)).body.key}/status`);
    assert.equal(st.body.optional_features, 'visemes');
    assert.equal(st.body.status, 'pending');
    const obj = new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const mesh = await s.client.upload('/v2/avatar/new/lofimesh_texture/unity/2.0', zipSync({ 'Head/MESH.OBJ': obj, 'Head/mesh.jpg': photo }));
    assert.equal(mesh.status, 200, JSON.stringify(mesh.body));
    const limit = await s.client.upload('/v2/avatar/new/photo/maya/2.0', jpegHeader(4096, 2048));
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
  });

  it('refuses features the account does not have with 12805', async () => {
    const { key } = await s.accounts.create({ name: 'limited', features: ['photo', 'basic'], points: 100 });
    const c = new TestClient(s.url, key.publicKey, key.secret);
    assert.equal(codeOf((await c.upload('/v2/avatar/new/photo/maya/2.0/expressions', photo)).body), 12805);
    assert.equal(codeOf((await c.upload('/v2/avatar/new/lofimesh_texture/maya/2.0', photo)).body), 12805);
    assert.equal((await c.upload('/v2/avatar/new/photo/maya/2.0/basic', photo)).status, 200);
  });

  it('gives 402 / 33200 when points are short, and creates nothing', async () => {
    const { key } = await s.accounts.create({ name: 'poor', points: 5 });
    const c = new TestClient(s.url, key.publicKey, key.secret);
    const r = await c.upload('/v2/avatar/new/photo/maya/2.0', photo);
    assert.equal(r.status, 402);
    assert.equal(codeOf(r.body), 33200);
    assert.equal((await c.get('/v2/avatar/list')).body.total_list_size, 0);
  });

  it('charges exactly once under 40 concurrent creates with points for 10', async () => {
    const { key } = await s.accounts.create({ name: 'race', points: 100 });
    const c = new TestClient(s.url, key.publicKey, key.secret);
    const replies = await Promise.all(Array.from({ length: 40 }, () => c.upload('/v2/avatar/new/photo/maya/2.0', photo)));
    const accepted = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 402);
    assert.equal(accepted.length, 10);
    assert.equal(refused.length, 30);
    assert.equal((await c.get('/v2/profile')).body.points, 0);
    assert.equal((await c.get('/v2/avatar/list')).body.total_list_size, 10);
  });

  it('takes points from the batch that expires first and ignores expired batches', async () => {
    const now = Date.now();
    const { account, key } = await s.accounts.create({ name: 'batches', points: 15, expiresAt: now + 3600_000 * 48 });
    await s.accounts.grant(account.id, 7, now + 3600_000 * 2);
    await s.accounts.grant(account.id, 100, now - 1000);
    const c = new TestClient(s.url, key.publicKey, key.secret);
    let p = (await c.get('/v2/profile')).body;
    assert.equal(p.points, 22);
    assert.equal(p.next_expiration_points, 7);
    assert.match(p.next_expiration_date, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal((await c.upload('/v2/avatar/new/photo/maya/2.0', photo)).status, 200);
    p = (await c.get('/v2/profile')).body;
    assert.equal(p.points, 12);
    assert.equal(p.next_expiration_points, 12, 'the 7-point batch is used up, then 3 came from the next');
    assert.deepEqual(Object.keys(p).sort(), ['available_features', 'next_expiration_date', 'next_expiration_points', 'points', 'stt', 'tier_code', 'tier_label']);
  });
});
