import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService } from '../../tools/harness/service.ts';

/** Every operation of the spec, as method and OpenAPI path. */
const SPEC_OPERATIONS = [
  'get /v2/profile',
  'post /v2/avatar/new/{a}/{b}/{c}',
  'post /v2/avatar/new/{a}/{b}/{c}/{d}',
  'get /v2/avatar/{key}/status',
  'get /v2/avatar/list',
  'get /v2/avatar/list/{type}/{code}',
  'get /v2/avatar/{key}/download/{type}',
  'get /v2/avatar/{key}/preview',
  'get /v2/avatar/{key}/preview/{filetype}',
  'get /v2/avatar/{key}/delete',
  'get /v2/avatar/{key}/execute/blendshapes',
  'post /v2/avatar/{key}/execute/vertexdeform',
  'get /v2/avatar/{key}/meta/get',
  'get /v2/avatar/{key}/meta/get/{name}',
  'get /v2/avatar/{key}/meta/set/{name}/{value}',
  'post /v2/avatar/{key}/meta/set',
  'get /v2/avatar/{key}/meta/unset/{name}',
  'post /v2/avatar/{key}/meta/unset/{name}',
  'post /v2/speech/tts/{mode}',
];

describe('OpenAPI document', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService({ workers: 0 });
  });
  after(async () => s.stop());

  it('is OpenAPI 3.1, served without authorization, and describes every operation of the spec', async () => {
    const r = await fetch(`${s.url}/v2/openapi.json`);
    assert.equal(r.status, 200);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string }[] }>> };
    assert.equal(doc.openapi, '3.1.0');
    const ops = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`));
    for (const op of SPEC_OPERATIONS) assert.ok(ops.includes(op), `missing ${op}`);
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(methods)) {
        assert.ok(op.responses['200'] && op.responses['4XX'], `${m} ${p} documents success and failure`);
        const named = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
        assert.deepEqual(op.parameters.map((x) => x.name), named, `${m} ${p} parameters`);
      }
    }
  });

  it('documents the status of a failed avatar: HTTP 200, stt NOK with msg, every Avatar field', async () => {
    const doc = (await (await fetch(`${s.url}/v2/openapi.json`)).json()) as any;
    const ok = doc.paths['/v2/avatar/{key}/status'].get.responses['200'];
    const schema = ok.content['application/json'].schema;
    assert.deepEqual(schema.properties.stt.enum, ['OK', 'NOK']);
    assert.match(schema.properties.msg.description, /100xx/);
    assert.match(ok.description, /NOK/);
    for (const field of ['key', 'status', 'error_code', 'percent', 'type', 'meta']) assert.ok(schema.required.includes(field), field);
  });
});
