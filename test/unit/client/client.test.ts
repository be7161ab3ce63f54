import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceDigest } from '../../../src/protocol/digest.ts';
import { AvatarApiError, AvatarClient, AvatarWaitTimeout, type Avatar } from '../../../src/client/index.ts';
import { errorFromResponse } from '../../../src/client/errors.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | null;
  contentType: string | null;
  body: Request;
}

/** A test double of fetch: answers from `routes` by "METHOD path", records every request. */
function fakeService(routes: Record<string, (req: Request) => unknown | Response>) {
  const seen: Seen[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    seen.push({ method: req.method, url: req.url, authorization: req.headers.get('authorization'), contentType: req.headers.get('content-type'), body: req });
    const handler = routes[`${req.method} ${url.pathname}`];
    if (!handler) return Response.json({ stt: 'NOK', msg: `40410 no route ${url.pathname}` }, { status: 404 });
    const out = handler(req);
    return out instanceof Response ? out : Response.json({ stt: 'OK', ...(out as object) });
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

const avatar = (key: string, status: Avatar['status'], percent: number, extra: Partial<Avatar> = {}): Avatar => ({
  key, status, percent, is_public: 0, is_sample: 0, error_code: 0, template_version: '2.0', optional_features: '', created_by: 'w1',
  type: 'photo', created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00', meta: [], ...extra,
});

test('signs the path as called, base prefix included, host and query excluded', async () => {
  const service = fakeService({ 'GET /api/v2/profile': () => ({ points: 5 }) });
  const client = new AvatarClient({ baseUrl: 'http://svc.test/api/', key: 'K', secret: 'S', fetch: service.fetch });
  assert.equal((await client.profile()).points, 5);
  const [{ authorization, url }] = service.seen;
  assert.equal(url, 'http://svc.test/api/v2/profile');
  const nonce = /auth_nonce="([^"]+)"/.exec(authorization!)![1];
  const digest = /auth_digest="([^"]+)"/.exec(authorization!)![1];
  assert.equal(digest, serviceDigest('sha256', 'K', 'S', nonce, '/api/v2/profile'));
});

test('errors carry code, text and HTTP status from msg', async () => {
  const service = fakeService({
    'GET /v2/profile': () => Response.json({ stt: 'NOK', msg: '33200 not enough points: 10 needed, 0 available' }, { status: 402 }),
    'GET /v2/avatar/x/status': () => new Response('<html>bad gateway</html>', { status: 502 }),
    'GET /v2/avatar/y/status': () => Response.json({ stt: 'NOK', msg: '00000 cannot authenticate' }, { status: 401 }),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  await assert.rejects(client.profile(), (e: AvatarApiError) => e.code === 33200 && e.httpStatus === 402 && e.text === 'not enough points: 10 needed, 0 available');
  await assert.rejects(client.status('x'), (e: AvatarApiError) => e.code === -1 && e.httpStatus === 502 && e.transient && /bad gateway/.test(e.text));
  await assert.rejects(client.status('y'), (e: AvatarApiError) => e.code === 0 && e.httpStatus === 401 && !e.transient);
  const offline = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: async () => { throw new TypeError('fetch failed'); } });
  await assert.rejects(offline.profile(), (e: AvatarApiError) => e.httpStatus === 0 && e.transient && /cannot reach the service at http:\/\/svc\.test .*running/.test(e.text));
});

test('a rate limit (429) and server failures are transient; a client error such as an unknown voice (51300) is not', () => {
  const limited = errorFromResponse(429, JSON.stringify({ stt: 'NOK', msg: '99998 request rate limit exceeded' }), new Headers({ 'retry-after': '7' }));
  assert.equal(limited.code, 99998);
  assert.ok(limited.transient);
  assert.equal(limited.retryAfterMs, 7000);
  assert.ok(errorFromResponse(507, JSON.stringify({ stt: 'NOK', msg: '99998 storage full' })).transient);
  assert.ok(!errorFromResponse(400, JSON.stringify({ stt: 'NOK', msg: '51300 invalid option: unknown voice "x"' })).transient);
});

test('list follows next cursors under /v2 until a page has none', async () => {
  const pages: Record<string, { models: Avatar[]; next?: string }> = {
    '/v2/avatar/list': { models: [avatar('a', 'done', 100), avatar('b', 'done', 100)], next: '/avatar/list/cursor/c1' },
    '/v2/avatar/list/cursor/c1': { models: [avatar('c', 'processing', 40)], next: '/avatar/list/cursor/c%2F2' },
    '/v2/avatar/list/cursor/c%2F2': { models: [avatar('s', 'done', 100, { is_sample: 1 })] },
  };
  const routes = Object.fromEntries(Object.entries(pages).map(([path, page]) => [`GET ${path}`, () => ({ total_list_size: 4, samples_count: 1, ttl: 3, update: '/avatar/list/update/u1', ...page })]));
  const service = fakeService(routes);
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  const keys: string[] = [];
  for await (const a of client.list()) keys.push(a.key);
  assert.deepEqual(keys, ['a', 'b', 'c', 's']);
  assert.deepEqual(service.seen.map((s) => new URL(s.url).pathname), Object.keys(pages));
});

test('create posts one multipart part named file to the path built from the options', async () => {
  const service = fakeService({
    'POST /v2/avatar/new/photo/maya,unity/2.0/basic,visemes': () => ({ key: 'new-key' }),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  const key = await client.create(new Uint8Array([0xff, 0xd8, 0xff]), { inputType: 'photo', platforms: ['maya', 'unity'], template: '2.0', features: ['basic', 'visemes'] });
  assert.equal(key, 'new-key');
  const form = await service.seen[0].body.formData();
  const file = form.get('file') as File;
  assert.equal(file.type, 'image/jpeg');
  assert.equal(file.name, 'photo.jpg');
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), new Uint8Array([0xff, 0xd8, 0xff]));
  await client.create(new Uint8Array([1]), { inputType: 'lofimesh_texture', template: '1.6' }).catch(() => undefined);
  assert.equal(new URL(service.seen[1].url).pathname, '/v2/avatar/new/lofimesh_texture/maya/1.6');
});

test('createAndWait reports progress, backs off while nothing moves, and rides out a rate limit', async () => {
  const answers: (Avatar | Response)[] = [
    avatar('k', 'pending', 0), avatar('k', 'pending', 0), avatar('k', 'pending', 0),
    Response.json({ stt: 'NOK', msg: '99998 request rate limit exceeded; retry in 1 s' }, { status: 429, headers: { 'retry-after': '1' } }),
    avatar('k', 'processing', 50), avatar('k', 'done', 100),
  ];
  const service = fakeService({
    'POST /v2/avatar/new/photo/maya/2.0': () => ({ key: 'k' }),
    'GET /v2/avatar/k/status': () => answers.shift()!,
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  const progress: number[] = [];
  // The waits asked for are recorded and run at once: the schedule is checked, not the clock.
  const delays: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms: number) => (delays.push(ms), realSetTimeout(fn, 0))) as typeof setTimeout;
  try {
    const done = await client.createAndWait(new Uint8Array([1]), { inputType: 'photo', template: '2.0' }, { pollMs: 100, onProgress: (a) => progress.push(a.percent) });
    assert.equal(done.status, 'done');
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  assert.deepEqual(progress, [0, 0, 0, 50, 100]);
  // first status, unchanged twice (x1.5 each), rate limited (x2, but at least the 1 s Retry-After asks), progress (back to pollMs)
  assert.deepEqual(delays, [100, 150, 225, 1000, 100]);
});

test('waitFor throws the pipeline error, and times out with the last status', async () => {
  const service = fakeService({
    'GET /v2/avatar/bad/status': () => avatar('bad', 'error', 30, { error_code: 10042 }),
    'GET /v2/avatar/slow/status': () => avatar('slow', 'processing', 10),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  await assert.rejects(client.waitFor('bad'), (e: AvatarApiError) => e.code === 10042 && e.httpStatus === 200);
  await assert.rejects(client.waitFor('slow', { pollMs: 5, timeoutMs: 40 }), (e: AvatarWaitTimeout) => e instanceof AvatarWaitTimeout && e.last.percent === 10);
});

test('a failed avatar: status returns the NOK body of HTTP 200, waitFor throws its code and text', async () => {
  const failed = { stt: 'NOK', msg: '10003 error in pipeline: the head is turned or tilted too far', ...avatar('bad', 'error', 20, { error_code: 10003 }) };
  const service = fakeService({
    'GET /v2/avatar/bad/status': () => Response.json(failed),
    'GET /v2/profile': () => Response.json({ stt: 'NOK', msg: '99999 internal error' }),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  const st = await client.status('bad');
  assert.equal(st.stt, 'NOK');
  assert.equal(st.status, 'error');
  assert.equal(st.stt === 'NOK' && st.msg, failed.msg);
  await assert.rejects(
    client.waitFor('bad'),
    (e: AvatarApiError) => e.code === 10003 && e.text === 'error in pipeline: the head is turned or tilted too far' && e.httpStatus === 200,
  );
  await assert.rejects(client.profile(), (e: AvatarApiError) => e.code === 99999, 'a NOK body is a failure everywhere else');
});

test('meta, delete, execute and tts use the spec paths, escaping path segments', async () => {
  const service = fakeService({
    'GET /v2/avatar/a@b/meta/get': () => ({ meta: [{ name: 'n', value: 'v' }] }),
    'GET /v2/avatar/k/meta/get/n': () => ({ models: [{ name: 'n', value: 'v' }] }),
    'GET /v2/avatar/k/meta/set/my%20name/a%2Fb': () => ({}),
    'POST /v2/avatar/k/meta/set': () => ({}),
    'GET /v2/avatar/k/meta/unset/n': () => ({}),
    'GET /v2/avatar/k/delete': () => ({}),
    'GET /v2/avatar/k/execute/blendshapes': () => ({ key: 'k@c1' }),
    'POST /v2/avatar/k/execute/vertexdeform': () => ({ key: 'k@c2' }),
    'POST /v2/speech/tts/wav,json': () => ({ ttl: 300, audio_location: 'http://svc.test/files/a.wav' }),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test', key: 'K', secret: 'S', fetch: service.fetch });
  assert.deepEqual(await client.meta.get('a@b'), [{ name: 'n', value: 'v' }]);
  assert.deepEqual(await client.meta.get('k', 'n'), [{ name: 'n', value: 'v' }]);
  await client.meta.set('k', 'my name', 'a/b');
  await client.meta.setMany('k', { x: '1', y: '2' });
  assert.deepEqual(await service.seen[3].body.json(), { x: '1', y: '2' });
  assert.equal(service.seen[3].contentType, 'application/json');
  await client.meta.unset('k', 'n');
  await client.delete('k');
  assert.equal(await client.executeBlendshapes('k'), 'k@c1');
  assert.equal(await client.executeVertexDeform('k', new Float32Array([0.01, 0.02, 0.03]), { unitsPerMeter: 1 }), 'k@c2');
  const sent = new Float32Array(await service.seen[7].body.arrayBuffer());
  assert.deepEqual(Array.from(sent, (v) => Math.round(v * 1000) / 1000), [1, 2, 3]);
  assert.equal(service.seen[7].contentType, 'application/service-vertex');
  const links = await client.tts('Hello there', { mode: ['wav', 'json'], voice: 'slt' });
  assert.equal(links.audio_location, 'http://svc.test/files/a.wav');
  assert.deepEqual(await service.seen[8].body.json(), { text: 'Hello there', voice: 'slt' });
  await assert.rejects(client.meta.get('..'), RangeError);
});

test('download follows the link without the Authorization header, relative links resolved against the service', async () => {
  const service = fakeService({
    'GET /svc/v2/avatar/k/download/unity': () => ({ ttl: 300, location: 'files/k/unity.zip?sig=abc' }),
    'GET /svc/files/k/unity.zip': () => new Response(new Uint8Array([80, 75, 3, 4])),
  });
  const client = new AvatarClient({ baseUrl: 'http://svc.test/svc', key: 'K', secret: 'S', fetch: service.fetch });
  assert.deepEqual(await client.download('k', 'unity'), new Uint8Array([80, 75, 3, 4]));
  assert.equal(service.seen[1].url, 'http://svc.test/svc/files/k/unity.zip?sig=abc');
  assert.equal(service.seen[1].authorization, null);
});
