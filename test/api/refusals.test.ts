import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { PipelineCodes } from '../../src/pipeline/errors.ts';
import { readFace, readTurnedHead } from '../fixtures/faces.ts';
import { jpeg, startTestService, type TestClient } from '../../tools/harness/service.ts';
import { sphere, zipScan } from '../fixtures/scans.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

/** The Avatar object's fields as the spec lists them. */
const AVATAR_FIELDS = ['key', 'is_public', 'is_sample', 'error_code', 'template_version', 'optional_features', 'created_by', 'percent', 'type', 'created_at', 'updated_at', 'status', 'meta'];

/**
 * A refused avatar as a client sees it: its status answers HTTP 200 with the spec's failure body
 * (`stt` NOK, `msg` starting with the code) and every field of the avatar, and its files will never
 * exist (404 / 40451, not 23544 "not yet").
 */
async function assertRefused(client: TestClient, key: string, code: number, inputType: string) {
  await client.waitFor(key, 180_000);
  const r = await client.get(`/v2/avatar/${key}/status`);
  assert.equal(r.status, 200);
  assert.equal(r.body.stt, 'NOK', JSON.stringify(r.body));
  assert.match(r.body.msg, new RegExp(`^${code} error in pipeline\\b.+`));
  assert.deepEqual(Object.keys(r.body).sort(), [...AVATAR_FIELDS, 'msg', 'stt'].sort());
  assert.equal(r.body.key, key);
  assert.equal(r.body.status, 'error');
  assert.equal(r.body.error_code, code);
  assert.equal(r.body.type, inputType);
  assert.equal(r.body.template_version, '2.0');
  assert.ok(Number.isInteger(r.body.percent) && r.body.percent >= 0 && r.body.percent <= 100);
  assert.ok(Array.isArray(r.body.meta));
  for (const uri of [`/v2/avatar/${key}/download/maya`, `/v2/avatar/${key}/download`, `/v2/avatar/${key}/preview`]) {
    const d = await client.get(uri);
    assert.equal(d.status, 404, uri);
    assert.equal(codeOf(d.body), 40451, `${uri}: ${d.body.msg}`);
  }
}

describe('refusals of the real pipeline: a NOK status with the 100xx code, the points given back', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService({ pipelineModule: loadConfig({}).pipelineModule });
  });
  after(async () => s.stop());

  it('refuses photos and a mesh the pipeline cannot make an avatar of, each with its code', { timeout: 600_000 }, async () => {
    const plain = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 140, b: 200 } } }).jpeg().toBuffer();
    const small = await sharp(readFace('p10-a.jpg')).resize(110).jpeg().toBuffer();
    // p05-a: the face spans about x 400..820 of 1200; the left part up to the nose.
    const cut = await sharp(readFace('p05-a.jpg')).extract({ left: 0, top: 0, width: 600, height: 1200 }).jpeg().toBuffer();
    // Cut short in transfer: the header is whole, so the upload is accepted, but the image cannot be decoded.
    const whole = await sharp(readFace('p01-a.jpg')).resize(400).jpeg().toBuffer();
    const truncated = whole.subarray(0, whole.length >> 1);
    const skin = { width: 64, height: 64, rgba: new Uint8Array(64 * 64 * 4).fill(200) };
    const cases: [string, Uint8Array, number, string][] = [
      ['photo', new Uint8Array(plain), PipelineCodes.noFace, 'a photo without a face'],
      ['photo', new Uint8Array(small), PipelineCodes.faceTooSmall, 'a face too small'],
      ['photo', readTurnedHead(), PipelineCodes.headTurned, 'a face turned 45 degrees'],
      ['photo', new Uint8Array(truncated), PipelineCodes.imageUnreadable, 'a truncated JPEG'],
      ['photo', new Uint8Array(cut), PipelineCodes.faceCut, 'a face cut by the border'],
      ['lofimesh_texture', await zipScan(sphere(10), skin), PipelineCodes.meshNoFace, 'a textured mesh without a face'],
    ];
    const points = (await s.client.get('/v2/profile')).body.points;
    const keys: string[] = [];
    for (const [inputType, file, , what] of cases) {
      const r = await s.client.upload(`/v2/avatar/new/${inputType}/maya/2.0`, file, 'file', inputType === 'photo' ? 'photo.jpg' : 'scan.zip');
      assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
      keys.push(r.body.key);
    }
    for (const [i, [inputType, , code]] of cases.entries()) await assertRefused(s.client, keys[i]!, code, inputType);
    assert.equal((await s.client.get('/v2/profile')).body.points, points, 'every refused avatar is refunded');
  });
});

describe('refusals the real pipeline cannot be brought to through the API (the scripted pipeline)', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService();
  });
  after(async () => s.stop());

  // 10010: the upload check reads archives with the pipeline's reader, so an unreadable one is refused at New;
  // 10012: a mesh over 2,000,000 triangles is an upload of about 100 MB; 10020: the service's pipeline takes
  // every input type; 10000: an unexpected failure three times over.
  for (const code of [PipelineCodes.meshUnreadable, PipelineCodes.meshTooLarge, PipelineCodes.inputTypeUnsupported, PipelineCodes.internal]) {
    it(`reports ${code} as a NOK status`, { timeout: 60_000 }, async () => {
      // The scripted pipeline refuses a photo 1 px high with the code its width gives (10000: it fails unexpectedly instead).
      const r = await s.client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(code, 1));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await assertRefused(s.client, r.body.key, code, 'photo');
    });
  }

  it('keeps 23544 "not available yet" for an avatar that is still pending', async () => {
    const idle = await startTestService({ workers: 0 });
    try {
      const key = (await idle.client.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 48))).body.key;
      const st = await idle.client.get(`/v2/avatar/${key}/status`);
      assert.equal(st.body.stt, 'OK');
      assert.equal(st.body.status, 'pending');
      assert.equal(st.body.msg, undefined);
      for (const uri of [`/v2/avatar/${key}/download/maya`, `/v2/avatar/${key}/preview`]) {
        const d = await idle.client.get(uri);
        assert.equal(d.status, 400, uri);
        assert.equal(codeOf(d.body), 23544, uri);
      }
    } finally {
      await idle.stop();
    }
  });
});
