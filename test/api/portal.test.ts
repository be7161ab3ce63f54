import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_PORTAL_SETTINGS, Portal } from '../../src/domain/portal.ts';
import { jpeg, startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

interface Call {
  json?: unknown;
  form?: FormData;
  /** The CSRF token to send: the session's by default, null for none. */
  csrf?: string | null;
  headers?: Record<string, string>;
}

/** A browser-like caller of the portal: keeps the session cookie and the CSRF token. */
class PortalCaller {
  cookie = '';
  csrf = '';
  constructor(readonly base: string) {}

  async call(method: string, uri: string, opts: Call = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf) headers['x-csrf-token'] = csrf;
    let body: BodyInit | undefined = opts.form;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(this.base + uri, { method, headers, body });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  async login(email: string, password: string, headers: Record<string, string> = {}) {
    const r = await this.call('POST', '/portal/api/login', { json: { email, password }, headers });
    const set = r.headers.get('set-cookie');
    if (r.status === 200 && set) {
      this.cookie = set.split(';')[0]!;
      this.csrf = r.body.csrf;
    }
    return r;
  }

  get = (uri: string) => this.call('GET', uri);
  post = (uri: string, opts?: Call) => this.call('POST', uri, opts ?? { json: {} });
}

describe('portal endpoints', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  let creds: { key: string; secret: string; portal_email: string; portal_password: string };
  let user: PortalCaller;

  before(async () => {
    s = await startTestService();
    creds = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'demo-credentials.json'), 'utf8'));
    user = new PortalCaller(s.url);
  });
  after(async () => s.stop());

  it('writes the demo portal login next to the demo key at first start', () => {
    assert.equal(creds.portal_email, 'demo@localhost');
    assert.ok(creds.portal_password.length >= 12);
    assert.equal(creds.key, s.demo.key);
  });

  it('refuses a wrong password and an unknown e-mail alike, and sets no cookie', async () => {
    const wrong = await user.login(creds.portal_email, 'wrong password');
    assert.equal(wrong.status, 401);
    assert.equal(codeOf(wrong.body), 14730);
    assert.equal(wrong.headers.get('set-cookie'), null);
    const unknown = await user.login('nobody@localhost', creds.portal_password);
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.msg, wrong.body.msg);
    const malformed = await user.call('POST', '/portal/api/login', { json: { email: 1 } });
    assert.equal(codeOf(malformed.body), 10001);
  });

  it('signs in with a session cookie that is HttpOnly, SameSite=Strict, and Secure only over https', async () => {
    const r = await user.login(creds.portal_email.toUpperCase(), creds.portal_password);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.email, 'demo@localhost');
    const cookie = r.headers.get('set-cookie')!;
    assert.match(cookie, /^portal_session=[A-Za-z0-9_-]{40,};/);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.doesNotMatch(cookie, /Secure/);
    const https = await new PortalCaller(s.url).login(creds.portal_email, creds.portal_password, { 'x-forwarded-proto': 'https' });
    assert.match(https.headers.get('set-cookie')!, /; Secure/);
    const session = await user.get('/portal/api/session');
    assert.equal(session.status, 200);
    assert.equal(session.headers.get('cache-control'), 'no-store');
    assert.equal(session.body.csrf, user.csrf);
    // Only a hash of the session id is stored.
    assert.equal(await s.repo.portalSessions.getPortalSession(user.cookie.split('=')[1]!), undefined);
  });

  it('refuses signed-in calls without a session', async () => {
    const anonymous = new PortalCaller(s.url);
    const r = await anonymous.get('/portal/api/profile');
    assert.equal(r.status, 401);
    assert.equal(codeOf(r.body), 11111);
    anonymous.cookie = 'portal_session=forged';
    assert.equal(codeOf((await anonymous.get('/portal/api/keys')).body), 11111);
  });

  it('refuses state-changing calls without the CSRF token, with a wrong one, or from another origin', async () => {
    const before = (await user.get('/portal/api/keys')).body.keys.length;
    for (const opts of [{ csrf: null }, { csrf: 'x'.repeat(43) }, { headers: { origin: 'https://evil.example' } }]) {
      const r = await user.post('/portal/api/keys', { json: {}, ...opts });
      assert.equal(r.status, 403, JSON.stringify(opts));
      assert.equal(codeOf(r.body), 33201);
    }
    assert.equal((await user.get('/portal/api/keys')).body.keys.length, before, 'no key was made');
    const crossSiteLogin = await new PortalCaller(s.url).login(creds.portal_email, creds.portal_password, { origin: 'https://evil.example' });
    assert.equal(crossSiteLogin.status, 403);
  });

  it('shows the profile: points, expiry and tier', async () => {
    const p = (await user.get('/portal/api/profile')).body;
    assert.equal(p.points, 1000);
    assert.equal(p.tier_code, 'demo');
    assert.match(p.next_expiration_date, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('creates a key whose secret is shown once and signs /v2 requests, and revokes it', async () => {
    const made = await user.post('/portal/api/keys');
    assert.equal(made.status, 200);
    const client = new TestClient(s.url, made.body.key, made.body.secret);
    assert.equal((await client.get('/v2/profile')).status, 200);
    const listed = (await user.get('/portal/api/keys')).body.keys;
    assert.deepEqual(listed[0], { key: made.body.key, created_at: listed[0].created_at, revoked_at: null });
    assert.ok(listed.every((k: object) => !('secret' in k)), 'secrets are never listed');
    assert.equal((await user.post(`/portal/api/keys/${made.body.key}/revoke`)).status, 200);
    // The API reuses looked-up keys for a second: revocation takes effect within that.
    let refused = await client.get('/v2/profile');
    for (const end = Date.now() + 3000; refused.status === 200 && Date.now() < end; refused = await client.get('/v2/profile')) await new Promise((r) => setTimeout(r, 200));
    assert.equal(refused.status, 401);
    assert.equal(codeOf(refused.body), 14705);
    // Another account's key cannot be revoked from here.
    const other = await s.accounts.create({ name: 'other' });
    const r = await user.post(`/portal/api/keys/${other.key.publicKey}/revoke`);
    assert.equal(codeOf(r.body), 33201);
    assert.equal((await s.repo.accounts.getKey(other.key.publicKey))!.revokedAt, null);
  });

  it('uploads a photo, follows its status, and handles meta, links, speech and delete through the same domain as /v2', async () => {
    const form = new FormData();
    form.append('file', new Blob([(await jpeg(64, 64)) as Uint8Array<ArrayBuffer>]), 'me.jpg');
    const made = await user.post('/portal/api/avatars/new/photo/webviewer,maya/2.0/basic', { form });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const key = made.body.key;
    let status;
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      status = (await user.get(`/portal/api/avatars/${key}`)).body;
      if (status.status === 'done' || Date.now() > end) break;
    }
    assert.equal(status.status, 'done');
    assert.equal(status.optional_features, 'basic');
    // The same avatar through /v2 with the account's key: one logic, one answer; the portal adds what it offers for download.
    const v2 = (await s.client.get(`/v2/avatar/${key}/status`)).body;
    const { platforms, ...same } = status;
    assert.deepEqual(same, { ...v2 });
    assert.deepEqual(platforms, ['webviewer', 'maya']);
    assert.equal((await user.get('/portal/api/profile')).body.points, 990);

    const list = (await user.get('/portal/api/avatars')).body;
    assert.equal(list.models[0].key, key);

    assert.equal((await user.post(`/portal/api/avatars/${key}/meta`, { json: { owner: 'alice' } })).status, 200);
    assert.deepEqual((await s.client.get(`/v2/avatar/${key}/meta/get/owner`)).body.meta, [{ name: 'owner', value: 'alice' }]);
    assert.equal(codeOf((await user.post(`/portal/api/avatars/${key}/meta`, { json: { template: 'x' } })).body), 33201, 'pipeline meta is read-only');
    assert.equal((await user.post(`/portal/api/avatars/${key}/meta/unset/owner`)).status, 200);
    assert.deepEqual((await s.client.get(`/v2/avatar/${key}/meta/get/owner`)).body.meta, []);

    const link = (await user.get(`/portal/api/avatars/${key}/download/webviewer`)).body;
    const zip = await fetch(link.location);
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.equal(codeOf((await user.get(`/portal/api/avatars/${key}/download/unity`)).body), 40460);
    assert.equal((await fetch((await user.get(`/portal/api/avatars/${key}/preview/jpg`)).body.location)).headers.get('content-type'), 'image/jpeg');

    const tts = (await user.post('/portal/api/speech/wav,json', { json: { text: 'hello' } })).body;
    assert.equal(tts.stt, 'OK');
    assert.equal((await fetch(tts.audio_location)).status, 200);
    assert.equal((await fetch(tts.visemes_location)).status, 200);

    assert.equal((await user.post(`/portal/api/avatars/${key}/delete`)).status, 200);
    assert.equal(codeOf((await user.get(`/portal/api/avatars/${key}`)).body), 10400);
  });

  it("offers the upload form the interface's words, the defaults and the prices", async () => {
    const catalog = (await user.get('/portal/api/catalog')).body;
    assert.deepEqual(catalog.platforms, ['maya', 'webviewer', 'unity']);
    assert.deepEqual(catalog.input_types, ['photo', 'lofimesh_texture', 'hifimesh_texture_photo']);
    assert.deepEqual(catalog.defaults, { platforms: ['maya', 'webviewer'], template: '2.0', features: ['basic', 'expressions', 'visemes'] });
    assert.deepEqual(catalog.prices, { photo: 10, lofimesh_texture: 20, hifimesh_texture_photo: 30 });
  });

  it('gives a failed avatar its reason and what to do, in its status and in the list', async () => {
    const form = new FormData();
    // The scripted pipeline refuses a photo 17 px wide with 10001 (no face).
    form.append('file', new Blob([(await jpeg(17, 17)) as Uint8Array<ArrayBuffer>]), 'noface.jpg');
    const key = (await user.post('/portal/api/avatars/new/photo/maya,webviewer/2.0', { form })).body.key;
    let status;
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      status = (await user.get(`/portal/api/avatars/${key}`)).body;
      if (status.status === 'error' || Date.now() > end) break;
    }
    assert.equal(status.error_code, 10001);
    assert.match(status.msg, /^10001 error in pipeline: no face was found in the photo; use a front-facing photo of one person/);
    const listed = (await user.get('/portal/api/avatars')).body.models.find((a: { key: string }) => a.key === key);
    assert.equal(listed.msg, status.msg);
    assert.equal((await user.post(`/portal/api/avatars/${key}/delete`)).status, 200);
  });

  it('exports blendshapes of an avatar made with expressions, and lists the voices', async () => {
    const form = new FormData();
    form.append('file', new Blob([(await jpeg(64, 64)) as Uint8Array<ArrayBuffer>]), 'me.jpg');
    const key = (await user.post('/portal/api/avatars/new/photo/maya/2.0/expressions', { form })).body.key;
    await s.client.waitFor(key);
    const result = (await user.post(`/portal/api/avatars/${key}/execute/blendshapes`)).body.key;
    assert.match(result, new RegExp(`^${key}@[0-9a-f]{32}$`));
    assert.equal((await s.client.waitFor(result)).status, 'done');
    assert.equal((await fetch((await user.get(`/portal/api/avatars/${result}/download/maya`)).body.location)).status, 200);
    const voices = (await user.get('/portal/api/speech/voices')).body;
    assert.equal(voices.default_voice, 'rms');
    assert.ok(voices.voices.some((v: { name: string }) => v.name === 'slt'));
    assert.deepEqual((await s.client.get('/v2/speech/voices')).body, voices, 'the same list as /v2');
  });

  it('answers upload and domain errors in the envelope', async () => {
    const empty = await user.post('/portal/api/avatars/new/photo/maya/2.0', { json: {} });
    assert.equal(codeOf(empty.body), 30001);
    const form = new FormData();
    form.append('file', new Blob([(await jpeg(8, 8)) as Uint8Array<ArrayBuffer>]), 'me.jpg');
    assert.equal(codeOf((await user.post('/portal/api/avatars/new/photo/maya/3.0', { form })).body), 19100);
    const other = await s.accounts.create({ name: 'stranger', points: 100 });
    const theirs = (await new TestClient(s.url, other.key.publicKey, other.key.secret).upload('/v2/avatar/new/photo/maya/2.0', await jpeg(32, 32))).body.key;
    assert.equal(codeOf((await user.get(`/portal/api/avatars/${theirs}`)).body), 10501);
  });

  it('signs out: the session no longer works', async () => {
    const cookie = user.cookie;
    const r = await user.post('/portal/api/logout');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('set-cookie')!, /^portal_session=; .*Max-Age=0/);
    const after = await user.get('/portal/api/profile');
    assert.equal(after.status, 401);
    assert.equal(user.cookie, cookie);
  });

  it('limits sign-in attempts per e-mail address (429, Retry-After) even with the right password', async () => {
    const caller = new PortalCaller(s.url);
    const login = await new Portal(s.repo, s.accounts).createLogin((await s.repo.accounts.getKey(s.demo.key))!.accountId, 'second@localhost', 'a long password');
    // Attempts are counted in fixed windows: all of these must fall into one.
    const window = DEFAULT_PORTAL_SETTINGS.loginWindowMs;
    const left = window - (Date.now() % window);
    if (left < 20_000) await new Promise((r) => setTimeout(r, left + 10));
    for (let i = 0; i < DEFAULT_PORTAL_SETTINGS.attemptsPerEmail; i++) assert.equal((await caller.login(login.email, 'wrong guess')).status, 401);
    const blocked = await caller.login(login.email, 'a long password');
    assert.equal(blocked.status, 429);
    assert.equal(codeOf(blocked.body), 14711);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    assert.equal(blocked.headers.get('set-cookie'), null);
    // Other addresses are not affected.
    assert.equal((await caller.login(creds.portal_email, creds.portal_password)).status, 200);
  });

  it('limits sign-in attempts per client address, and ends sessions at their expiry', async () => {
    const portal = new Portal(s.repo, s.accounts, { ...DEFAULT_PORTAL_SETTINGS, attemptsPerIp: 2, sessionMs: 1000 });
    const now = Date.now();
    const first = await portal.login(creds.portal_email, creds.portal_password, '203.0.113.9', now);
    await assert.rejects(portal.login('x@localhost', 'whatever1', '203.0.113.9', now), { code: 14730 });
    await assert.rejects(portal.login(creds.portal_email, creds.portal_password, '203.0.113.9', now), { code: 14711, httpStatus: 429 });
    assert.equal((await portal.session(first.sessionId, now + 999)).email, 'demo@localhost');
    await assert.rejects(portal.session(first.sessionId, now + 1000), { code: 11100 });
    await assert.rejects(portal.session(first.sessionId, now + 1000), { code: 11111 }, 'the expired session is gone');
  });
});
