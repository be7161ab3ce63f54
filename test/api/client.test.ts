import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { AvatarApiError, AvatarClient, type Avatar } from '../../src/client/index.ts';
import { spawnService, testPhoto, type SpawnedService } from './spawned-service.ts';

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

describe('client library against the running service', () => {
  let service: SpawnedService;
  let client: AvatarClient;
  let photo: Uint8Array;
  let key: string;

  before(async () => {
    service = await spawnService({ LIST_PAGE_SIZE: '2' });
    client = new AvatarClient({ baseUrl: service.url, key: service.key, secret: service.secret });
    photo = new Uint8Array(await testPhoto());
  });
  after(async () => service?.stop());

  it('reads the profile, with sha256 and with sha1 signatures', async () => {
    const profile = await client.profile();
    assert.equal(typeof profile.points, 'number');
    assert.ok(Array.isArray(profile.available_features));
    const sha1 = new AvatarClient({ baseUrl: service.url, key: service.key, secret: service.secret, method: 'sha1' });
    assert.equal((await sha1.profile()).points, profile.points);
  });

  it('turns a wrong secret into an AvatarApiError with the 401 code', async () => {
    const wrong = new AvatarClient({ baseUrl: service.url, key: service.key, secret: 'not-the-secret' });
    await assert.rejects(wrong.profile(), (e: AvatarApiError) => e instanceof AvatarApiError && e.httpStatus === 401 && e.code === 10032 && e.text.length > 0);
  });

  it('creates an avatar and waits for it, reporting rising progress, and charges points', async () => {
    const before = (await client.profile()).points;
    const seen: Avatar[] = [];
    const done = await client.createAndWait(photo, { inputType: 'photo', platforms: ['maya', 'unity'], template: '2.0', features: ['expressions'] }, { pollMs: 50, timeoutMs: 60_000, onProgress: (a) => seen.push(a) });
    key = done.key;
    assert.equal(done.status, 'done');
    assert.equal(done.percent, 100);
    assert.equal(done.optional_features, 'expressions');
    assert.ok(seen.length >= 1);
    seen.forEach((a, i) => i > 0 && assert.ok(a.percent >= seen[i - 1].percent, 'progress never goes back'));
    assert.ok((await client.profile()).points < before);
  });

  it('reports an invalid template with its code', async () => {
    await assert.rejects(client.create(photo, { inputType: 'photo', template: '3.0' as '2.0' }), (e: AvatarApiError) => e.httpStatus === 400 && e.code >= 19100 && e.code <= 19200);
  });

  it('lists every avatar across pages of two, following next cursors, and sees updates', async () => {
    const extra = await Promise.all([1, 2].map(() => client.create(photo, { inputType: 'photo', template: '2.0' })));
    const first = await client.listPage();
    assert.equal(first.total_list_size, 3);
    assert.equal(first.models.length, 2);
    assert.ok(first.next, 'a second page is announced');
    const keys: string[] = [];
    for await (const a of client.list()) keys.push(a.key);
    assert.deepEqual([...keys].sort(), [key, ...extra].sort());
    const third = await client.create(photo, { inputType: 'photo', template: '2.0' });
    const changes = await client.updates(first.update);
    assert.ok(changes.models.some((a) => a.key === third), 'the update URI reports the new avatar');
    await Promise.all([...extra, third].map((k) => client.waitFor(k, { pollMs: 50, timeoutMs: 60_000 })));
  });

  it('downloads packages to memory and to files, and previews in both types', async () => {
    const unity = await client.download(key, 'unity');
    assert.ok(Object.keys(unzipSync(unity)).length > 0, 'the unity package is a zip');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'client-download-'));
    const saved = await client.downloadToFile(key, 'maya', { dir });
    assert.equal(path.dirname(saved.path), dir);
    assert.match(path.basename(saved.path), /\.zip$/, 'named as the service suggests');
    assert.equal((await fs.stat(saved.path)).size, saved.bytes);
    assert.deepEqual(await fs.readdir(dir), [path.basename(saved.path)], 'no partial file left');
    await assert.rejects(client.download(key, 'webviewer'), (e: AvatarApiError) => e.code === 40460);
    assert.ok(startsWith(await client.fetchBytes((await client.preview(key)).location), JPEG));
    assert.ok(startsWith(await client.fetchBytes((await client.preview(key, 'png')).location), PNG));
  });

  it('sets, reads and removes meta, one or many, with characters that need escaping', async () => {
    await client.meta.set(key, 'note', 'a/b c ü?#');
    await client.meta.setMany(key, { owner: 'team-3', 'stage.1': 'ok' });
    const mine = (await client.meta.get(key)).filter((m) => m.defined === undefined);
    assert.deepEqual(Object.fromEntries(mine.map((m) => [m.name, m.value])), { note: 'a/b c ü?#', owner: 'team-3', 'stage.1': 'ok' });
    assert.deepEqual((await client.meta.get(key, 'owner')).map((m) => m.value), ['team-3']);
    await client.meta.unset(key, 'owner');
    assert.ok(!(await client.meta.get(key)).some((m) => m.name === 'owner'));
  });

  it('deforms vertices: metres and a mirrored X give the same result as centimetres sent as is', async () => {
    const metresMirrored = new Float32Array([0.05, 0.02, 0.08, -0.03, 0.1, 0.04, 0.0, -0.06, 0.09]);
    const centimetres = metresMirrored.map((v, i) => v * 100 * (i % 3 === 0 ? -1 : 1));
    const wait = { pollMs: 50, timeoutMs: 60_000 };
    const fromMetres = await client.deformVertices(key, metresMirrored, { unitsPerMeter: 1, mirrorX: true, ...wait });
    const fromCentimetres = await client.deformVertices(key, centimetres, wait);
    assert.equal(fromMetres.length, metresMirrored.length, 'same vertex count and order as sent');
    fromMetres.forEach((v, i) => {
      const expected = (fromCentimetres[i] / 100) * (i % 3 === 0 ? -1 : 1);
      assert.ok(Math.abs(v - expected) < 1e-5, `value ${i}: ${v} vs ${expected}`);
    });
    assert.ok(fromCentimetres.some((v, i) => Math.abs(v - centimetres[i]) > 1e-4), 'the service moved the vertices');
    await assert.rejects(client.executeVertexDeform(key, new Float32Array(0)), (e: AvatarApiError) => e.code === 40446 || e.code === 30600);
  });

  it('exports blendshapes as a result key usable with status and download', async () => {
    const resultKey = await client.executeBlendshapes(key);
    assert.ok(resultKey.startsWith(`${key}@`));
    const done = await client.waitFor(resultKey, { pollMs: 50, timeoutMs: 60_000 });
    assert.equal(done.status, 'done');
    assert.ok(Object.keys(unzipSync(await client.download(resultKey))).length > 0);
  });

  it('speaks text: audio bytes and viseme marks', async () => {
    const spoken = await client.speak('Hello from the client library.', { mode: ['wav', 'json'], voice: 'slt' });
    assert.equal(spoken.audio?.type, 'audio/wav');
    assert.equal(new TextDecoder().decode(spoken.audio!.bytes.subarray(0, 4)), 'RIFF');
    assert.ok(spoken.marks!.some((m) => m.type === 'viseme'));
    assert.ok(spoken.marks!.some((m) => m.type === 'word' && m.value === 'Hello'));
  });

  it('deletes an avatar, after which its key is unknown', async () => {
    await client.delete(key);
    await assert.rejects(client.status(key), (e: AvatarApiError) => e.httpStatus === 404);
  });
});

describe('client library against a rate-limited service', () => {
  it('takes a real 429 as transient with its Retry-After, and waitFor waits it out instead of failing', async () => {
    // RATE_LIMIT 1: ten requests per key in each fixed 10 s window.
    const service = await spawnService({ RATE_LIMIT: '1' });
    try {
      const client = new AvatarClient({ baseUrl: service.url, key: service.key, secret: service.secret });
      const key = await client.create(new Uint8Array(await testPhoto()), { inputType: 'photo', template: '2.0' });
      let limited: unknown;
      // The windows are fixed: one may end during the loop (on a loaded machine its requests take seconds), and
      // then the next window's eleventh request is the one refused.
      for (let i = 0; i < 22 && !limited; i++) await client.profile().catch((e: unknown) => (limited = e));
      assert.ok(limited instanceof AvatarApiError, 'an eleventh request in one window is refused');
      assert.equal(limited.httpStatus, 429);
      assert.equal(limited.code, 99998);
      assert.ok(limited.transient);
      assert.ok(limited.retryAfterMs! > 0 && limited.retryAfterMs! <= 10_000, `Retry-After ${limited.retryAfterMs} ms`);
      assert.match(limited.text, /; retry in \d+ s/);
      const started = Date.now();
      const done = await client.waitFor(key, { pollMs: 50, timeoutMs: 30_000 });
      assert.equal(done.status, 'done');
      assert.ok(Date.now() - started >= limited.retryAfterMs! - 1000, 'the wait lasted until the window ended');
    } finally {
      await service.stop();
    }
  });
});
