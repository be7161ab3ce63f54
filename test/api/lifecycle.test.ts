import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { after, before, describe, it } from 'node:test';
import { jpeg, startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

describe('avatar lifecycle: status, links, meta, execute, delete', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  let photo: Uint8Array;
  let key: string;
  before(async () => {
    s = await startTestService({ linkTtl: 2 });
    photo = await jpeg(64, 48);
    const r = await s.client.upload('/v2/avatar/new/photo/maya,unity/2.0/expressions', photo);
    key = r.body.key;
  });
  after(async () => s.stop());

  it('moves from pending through processing to done, with rising percent', async () => {
    const seen: string[] = [];
    let last = -1;
    for (;;) {
      const r = await s.client.get(`/v2/avatar/${key}/status`);
      assert.equal(r.status, 200);
      assert.equal(r.body.stt, 'OK');
      assert.equal(r.body.key, key);
      assert.ok(r.body.percent >= last, 'percent never goes back');
      last = r.body.percent;
      if (seen.at(-1) !== r.body.status) seen.push(r.body.status);
      if (r.body.status === 'done' || r.body.status === 'error') break;
      await new Promise((res) => setTimeout(res, 10));
    }
    assert.equal(seen.at(-1), 'done');
    const st = (await s.client.get(`/v2/avatar/${key}/status`)).body;
    assert.equal(st.percent, 100);
    assert.equal(st.error_code, 0);
    assert.equal(st.template_version, '2.0');
    assert.equal(st.optional_features, 'expressions');
    assert.equal(st.type, 'photo');
    assert.equal(st.is_public, 0);
    assert.equal(st.is_sample, 0);
    assert.match(st.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(st.meta.some((m: { name: string; defined?: string }) => m.name === 'template' && m.defined));
  });

  it('hands out download links that work without auth, with a type, without one, and refuse other platforms', async () => {
    const link = await s.client.get(`/v2/avatar/${key}/download/unity`);
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.equal(link.body.ttl, 2);
    const file = await fetch(link.body.location);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/zip');
    assert.match(file.headers.get('content-disposition') ?? '', /_unity\.zip/);
    const names = Object.keys(unzipSync(new Uint8Array(await file.arrayBuffer())));
    assert.ok(names.includes('avatar_model.json'), names.join(','));

    const bare = await s.client.get(`/v2/avatar/${key}/download`);
    assert.match(bare.body.location, /\/files\//);
    const maya = Object.keys(unzipSync(new Uint8Array(await (await fetch(bare.body.location)).arrayBuffer())));
    assert.ok(maya.includes('avatar_model.fbx'), 'the first platform, maya');
    assert.equal((await s.client.get(`/v2/avatar/${key}/download/zip`)).status, 200, 'alias zip = maya');

    const other = await s.client.get(`/v2/avatar/${key}/download/webviewer`);
    assert.equal(other.status, 400);
    assert.equal(codeOf(other.body), 40460);
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${key}/download/xbox`)).body), 40460);
  });

  it('serves previews as jpg and png', async () => {
    for (const [uri, type] of [[`/v2/avatar/${key}/preview`, 'image/jpeg'], [`/v2/avatar/${key}/preview/`, 'image/jpeg'], [`/v2/avatar/${key}/preview/png`, 'image/png']] as const) {
      const r = await s.client.get(uri);
      assert.equal(r.status, 200, `${uri}: ${JSON.stringify(r.body)}`);
      const img = await fetch(r.body.location);
      assert.equal(img.headers.get('content-type'), type);
    }
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${key}/preview/gif`)).body), 40460);
  });

  it('refuses tampered and expired links with 403', async () => {
    const { location } = (await s.client.get(`/v2/avatar/${key}/preview/png`)).body;
    const token = location.split('/files/')[1] as string;
    const [body, sig] = token.split('.');
    const changedBody = Buffer.from(Buffer.from(body!, 'base64url').toString().replace('preview.png', 'input')).toString('base64url');
    for (const bad of [`${changedBody}.${sig}`, `${body}.${sig!.slice(0, -2)}AA`, 'garbage']) {
      const r = await fetch(location.replace(token, bad));
      assert.equal(r.status, 403);
      assert.equal((await r.json()).stt, 'NOK');
    }
    await new Promise((res) => setTimeout(res, 2100));
    const expired = await fetch(location);
    assert.equal(expired.status, 403);
    assert.match((await expired.json()).msg, /expired/);
  });

  it('keeps meta: set one, set many, get, unset (GET and POST), pipeline entries protected', async () => {
    assert.equal((await s.client.get(`/v2/avatar/${key}/meta/set/color/blue`)).status, 200);
    assert.equal((await s.client.get(`/v2/avatar/${key}/meta/set/color/red`)).status, 200);
    const many = await s.client.call('POST', `/v2/avatar/${key}/meta/set`, { json: { size: 'L', 'game.level': '3' } });
    assert.equal(many.status, 200, JSON.stringify(many.body));
    let all = (await s.client.get(`/v2/avatar/${key}/meta/get`)).body;
    const mine = all.meta.filter((m: { defined?: string }) => !m.defined);
    assert.deepEqual(mine.map((m: { name: string; value: string }) => `${m.name}=${m.value}`).sort(), ['color=red', 'game.level=3', 'size=L']);
    assert.deepEqual(all.models, all.meta);
    assert.ok(mine.every((m: object) => !('defined' in m)));
    const one = (await s.client.get(`/v2/avatar/${key}/meta/get/color`)).body;
    assert.deepEqual(one.meta, [{ name: 'color', value: 'red' }]);
    assert.equal((await s.client.get(`/v2/avatar/${key}/meta/unset/color`)).status, 200);
    assert.equal((await s.client.call('POST', `/v2/avatar/${key}/meta/unset/size`)).status, 200);
    all = (await s.client.get(`/v2/avatar/${key}/meta/get`)).body;
    assert.deepEqual(all.meta.filter((m: { defined?: string }) => !m.defined).map((m: { name: string }) => m.name), ['game.level']);

    assert.equal(codeOf((await s.client.get(`/v2/avatar/${key}/meta/set/template/1.6`)).body), 33201);
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${key}/meta/unset/template`)).body), 33201);
    for (const bad of [[1, 2], { a: 1 }, 'text', { a: 'x'.repeat(2000) }]) {
      const r = await s.client.call('POST', `/v2/avatar/${key}/meta/set`, { json: bad });
      assert.equal(r.status, 400);
      assert.equal(codeOf(r.body), 10001, JSON.stringify(bad));
    }
    const broken = await s.client.call('POST', `/v2/avatar/${key}/meta/set`, { body: '{"a":', type: 'application/json' });
    assert.equal(codeOf(broken.body), 10001);
  });

  it('runs execute/blendshapes and vertexdeform as child results', async () => {
    const bs = await s.client.get(`/v2/avatar/${key}/execute/blendshapes`);
    assert.equal(bs.status, 200, JSON.stringify(bs.body));
    assert.match(bs.body.key, new RegExp(`^${key}@[0-9a-f]{32}$`));
    const st = await s.client.waitFor(bs.body.key);
    assert.equal(st.status, 'done', JSON.stringify(st));
    assert.equal(st.type, 'blendshapes', 'a result key reports what it is');
    const dl = await s.client.get(`/v2/avatar/${bs.body.key}/download`);
    const zip = unzipSync(new Uint8Array(await (await fetch(dl.body.location)).arrayBuffer()));
    assert.ok('neutral.obj' in zip);

    const verts = new Float32Array([0, 22, 9, 1, 2, 3]);
    const vd = await s.client.call('POST', `/v2/avatar/${key}/execute/vertexdeform`, { body: new Uint8Array(verts.buffer), type: 'application/service-vertex' });
    assert.equal(vd.status, 200, JSON.stringify(vd.body));
    const vst = await s.client.waitFor(vd.body.key);
    assert.equal(vst.status, 'done');
    assert.equal(vst.type, 'vertexdeform');
    assert.equal((await s.client.get(`/v2/avatar/${key}/status`)).body.type, 'photo', 'the avatar keeps its input type');
    for (const type of ['', '/maya']) {
      const link = await s.client.get(`/v2/avatar/${vd.body.key}/download${type}`);
      const out = new Uint8Array(await (await fetch(link.body.location)).arrayBuffer());
      assert.equal(out.length, 24);
    }
  });

  it('validates vertex bodies', async () => {
    const uri = `/v2/avatar/${key}/execute/vertexdeform`;
    const cases: [Uint8Array, string | undefined, number][] = [
      [new Uint8Array(13), 'application/service-vertex', 30600],
      [new Uint8Array(new Float32Array([NaN, 0, 0]).buffer), 'application/octet-stream', 30601],
      [new Uint8Array(0), 'application/service-vertex', 40446],
      [new Uint8Array(12), 'text/plain', 75006],
    ];
    for (const [body, type, code] of cases) {
      const r = await s.client.call('POST', uri, { body, type });
      assert.equal(r.status, 400);
      assert.equal(codeOf(r.body), code, `${type}: ${r.body.msg}`);
    }
    const untyped = await fetch(s.url + uri, { method: 'POST', headers: { authorization: s.client.authFor(uri) }, body: new Uint8Array(12) as Uint8Array<ArrayBuffer> });
    assert.equal(untyped.status, 200, 'a body with no content type is read as vertices');
  });

  it('refuses execute before done (75005) and blendshapes without expressions (12804)', async () => {
    const plain = (await s.client.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key;
    const early = await s.client.get(`/v2/avatar/${plain}/execute/blendshapes`);
    assert.equal(early.status, 400);
    assert.ok([75005, 12804].includes(codeOf(early.body)));
    const notDone = await s.client.call('POST', `/v2/avatar/${plain}/execute/vertexdeform`, { body: new Uint8Array(12), type: 'application/service-vertex' });
    assert.equal(codeOf(notDone.body), 75005);
    await s.client.waitFor(plain);
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${plain}/execute/blendshapes`)).body), 12804);
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${plain}/download/maya`)).body) || 200, 200);
  });

  it('reports pipeline failures with 200, a 100xx code, and a refund', async () => {
    const before = (await s.client.get('/v2/profile')).body.points;
    const bad = (await s.client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(17, 20))).body.key;
    assert.equal((await s.repo.avatars.getAvatar(bad))!.charged, 10);
    await s.client.waitFor(bad);
    const st = await s.client.get(`/v2/avatar/${bad}/status`);
    assert.equal(st.status, 200);
    assert.equal(st.body.stt, 'NOK');
    assert.match(st.body.msg, /^10001 error in pipeline: no face/);
    assert.equal(st.body.status, 'error');
    assert.equal(st.body.error_code, 10001);
    assert.equal((await s.client.get('/v2/profile')).body.points, before);
    const list = (await s.client.get('/v2/avatar/list')).body;
    assert.equal(list.stt, 'OK', 'the list is a success that holds failed avatars');
    assert.equal(list.models.find((m: { key: string }) => m.key === bad).status, 'error');
    for (const uri of [`/v2/avatar/${bad}/download/maya`, `/v2/avatar/${bad}/preview`]) {
      const r = await s.client.get(uri);
      assert.equal(r.status, 404, uri);
      assert.equal(codeOf(r.body), 40451, 'the asset will never exist');
    }
  });

  it('reports a result that failed with its type, a NOK status, and 40451 for its download', { timeout: 60_000 }, async () => {
    const k = (await s.client.upload('/v2/avatar/new/photo/maya/2.0/expressions', photo)).body.key;
    await s.client.waitFor(k);
    // A model that no longer decodes: the blendshape job fails unexpectedly three times and is given up.
    fs.writeFileSync(path.join(s.dataDir, 'files', 'avatars', k, 'model.bin'), 'not a model');
    const child = (await s.client.get(`/v2/avatar/${k}/execute/blendshapes`)).body.key;
    await s.client.waitFor(child, 30_000);
    const st = await s.client.get(`/v2/avatar/${child}/status`);
    assert.equal(st.status, 200);
    assert.equal(st.body.stt, 'NOK');
    assert.match(st.body.msg, /^10000 error in pipeline/);
    assert.equal(st.body.key, child);
    assert.equal(st.body.type, 'blendshapes');
    assert.equal(st.body.error_code, 10000);
    const d = await s.client.get(`/v2/avatar/${child}/download`);
    assert.equal(d.status, 404);
    assert.equal(codeOf(d.body), 40451);
  });

  it('hides other accounts avatars (404 / 10501) and refuses malformed keys (41111)', async () => {
    const { key: other } = await s.accounts.create({ name: 'other', points: 10 });
    const c = new TestClient(s.url, other.publicKey, other.secret);
    for (const uri of [`/v2/avatar/${key}/status`, `/v2/avatar/${key}/download/maya`, `/v2/avatar/${key}/meta/get`, `/v2/avatar/${key}/delete`, `/v2/avatar/${key}/execute/blendshapes`]) {
      const r = await c.get(uri);
      assert.equal(r.status, 404, uri);
      assert.equal(codeOf(r.body), 10501, uri);
    }
    assert.equal(codeOf((await s.client.get('/v2/avatar/not-a-key/status')).body), 41111);
    assert.equal(codeOf((await s.client.get(`/v2/avatar/${'0'.repeat(32)}/status`)).body), 10400);
  });

  it('deletes an avatar with its files; old links stop working; the key answers 404', async () => {
    const k = (await s.client.upload('/v2/avatar/new/photo/maya/2.0', photo)).body.key;
    await s.client.waitFor(k);
    const link = (await s.client.get(`/v2/avatar/${k}/download/maya`)).body.location;
    assert.equal((await fetch(link)).status, 200);
    assert.equal((await s.client.get(`/v2/avatar/${k}/delete`)).status, 200);
    assert.equal((await fetch(link)).status, 404);
    const st = await s.client.get(`/v2/avatar/${k}/status`);
    assert.equal(st.status, 404);
    assert.equal(codeOf(st.body), 10400);
  });
});

describe('unexpected failures', () => {
  it('answer 500 / 99999 with a request id and no stack trace', async () => {
    const s = await startTestService({ workers: 0 });
    try {
      s.repo.avatars.getAvatarWithMeta = async () => {
        throw new Error('disk on fire at /secret/path');
      };
      const r = await s.client.get(`/v2/avatar/${'a'.repeat(32)}/status`);
      assert.equal(r.status, 500);
      assert.equal(r.body.stt, 'NOK');
      assert.match(r.body.msg, /^99999 internal error \(request id [\w-]+\); retry/);
      assert.doesNotMatch(JSON.stringify(r.body), /fire|secret|at /);
    } finally {
      await s.stop();
    }
  });
});
