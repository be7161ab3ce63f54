import assert from 'node:assert/strict';
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));
const faces = new URL('../fixtures/faces/', import.meta.url);

/** The service with the real pipeline: sample avatars at first start, and a photo through to every package. */
describe('service with the real pipeline', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService({ pipelineModule: loadConfig({}).pipelineModule, createSamples: true });
  });
  after(async () => s.stop());

  it('makes the shipped sample avatars, listed after the account own and visible to every account', async () => {
    const first = (await s.client.get('/v2/avatar/list')).body;
    const samples = first.models.filter((m: { is_sample: number }) => m.is_sample === 1);
    assert.ok(first.samples_count >= 2, JSON.stringify(first));
    assert.equal(samples.length, first.samples_count);
    for (const m of samples) assert.equal((await s.client.waitFor(m.key, 180_000)).status, 'done');

    const { key } = await s.accounts.create({ name: 'viewer', points: 100 });
    const c = new TestClient(s.url, key.publicKey, key.secret);
    const own = (await c.upload('/v2/avatar/new/photo/maya/2.0', new Uint8Array(fs.readFileSync(new URL('p02-a.jpg', faces))))).body.key;
    const list = (await c.get('/v2/avatar/list')).body;
    assert.equal(list.models[0].key, own, 'own avatars first');
    assert.deepEqual(list.models.slice(1).map((m: { key: string }) => m.key), samples.map((m: { key: string }) => m.key), 'samples at the end');
    const sample = samples[0].key;
    assert.equal((await c.get(`/v2/avatar/${sample}/status`)).body.is_sample, 1);
    assert.equal((await c.get(`/v2/avatar/${sample}/download/unity`)).status, 200);
    assert.equal(codeOf((await c.get(`/v2/avatar/${sample}/delete`)).body), 33201);
    assert.equal(codeOf((await c.get(`/v2/avatar/${sample}/meta/set/a/b`)).body), 33201);
    assert.equal((await c.waitFor(own, 180_000)).status, 'done');
  });

  it('turns a test photo into every package with a rig, and refuses a photo without a face', async () => {
    const photo = new Uint8Array(fs.readFileSync(new URL('p01-a.jpg', faces)));
    const key = (await s.client.upload('/v2/avatar/new/photo/maya,unity,webviewer/2.0/basic,expressions,visemes', photo)).body.key;
    const st = await s.client.waitFor(key, 180_000);
    assert.equal(st.status, 'done', JSON.stringify(st));
    const expected: Record<string, string[]> = { maya: ['avatar_model.fbx'], unity: ['avatar_model.json'], webviewer: ['avatar_model.fbx', 'avatar_model.glb'] };
    for (const [platform, files] of Object.entries(expected)) {
      const link = (await s.client.get(`/v2/avatar/${key}/download/${platform}`)).body.location;
      const names = Object.keys(unzipSync(new Uint8Array(await (await fetch(link)).arrayBuffer())));
      for (const f of files) assert.ok(names.includes(f), `${platform}: ${names.join(', ')}`);
    }
    const blank = (await s.client.upload('/v2/avatar/new/photo/maya/2.0', new Uint8Array(await (await import('sharp')).default({ create: { width: 400, height: 400, channels: 3, background: '#808080' } }).jpeg().toBuffer()))).body.key;
    const refused = await s.client.waitFor(blank, 180_000);
    assert.equal(refused.status, 'error');
    assert.ok(refused.error_code > 10000 && refused.error_code < 10100, String(refused.error_code));
  });
});
