import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serviceDigest } from '../../src/protocol/digest.ts';
import { startTestService, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

describe('authentication', () => {
  let s: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    s = await startTestService();
  });
  after(async () => s.stop());

  it('accepts sha256 (default) and sha1', async () => {
    assert.equal((await s.client.get('/v2/profile')).status, 200);
    const sha1 = new TestClient(s.url, s.demo.key, s.demo.secret, 'sha1');
    const r = await sha1.get('/v2/profile');
    assert.equal(r.status, 200);
    assert.equal(r.body.stt, 'OK');
  });

  it('parses header variants: any order, bare values, spaces around =, no space after comma, unknown params', async () => {
    const uri = '/v2/profile';
    const variants = [
      (n: string, d: string) => `ServiceDigest auth_key="${s.demo.key}",auth_nonce="${n}",auth_digest="${d}"`,
      (n: string, d: string) => `ServiceDigest auth_method = sha256, realm = Avatar, auth_key = ${s.demo.key}, auth_nonce = ${n}, auth_digest = ${d}`,
      (n: string, d: string) => `ServiceDigest auth_digest="${d}", auth_nonce="${n}", auth_key="${s.demo.key}", auth_method="sha256"`,
      (n: string, d: string) => `servicedigest   auth_key=${s.demo.key},auth_nonce=${n},  auth_digest="${d}",extra="x y"`,
    ];
    for (const [i, make] of variants.entries()) {
      const nonce = `variant-${i}-${Date.now()}`;
      const digest = serviceDigest('sha256', s.demo.key, s.demo.secret, nonce, uri);
      const r = await s.client.get(uri, { auth: make(nonce, digest) });
      assert.equal(r.status, 200, `variant ${i}: ${JSON.stringify(r.body)}`);
    }
  });

  it('signs the path as called, also percent-decoded', async () => {
    const key = 'a'.repeat(32);
    const uri = `/v2/avatar/${key}%40${'b'.repeat(32)}/status`;
    const decoded = decodeURIComponent(uri);
    const r1 = await s.client.get(uri); // signed raw
    assert.equal(r1.status, 404, JSON.stringify(r1.body));
    const r2 = await s.client.get(uri, { auth: s.client.authFor(decoded) });
    assert.equal(r2.status, 404, JSON.stringify(r2.body));
    assert.equal(codeOf(r2.body), 10400);
  });

  it('ignores the query string when signing', async () => {
    const r = await s.client.call('GET', '/v2/profile?x=1', { auth: s.client.authFor('/v2/profile') });
    assert.equal(r.status, 200);
  });

  it('refuses a replayed nonce', async () => {
    const auth = s.client.authFor('/v2/profile', 'the-same-nonce');
    assert.equal((await s.client.get('/v2/profile', { auth })).status, 200);
    const again = await s.client.get('/v2/profile', { auth });
    assert.equal(again.status, 401);
    assert.equal(codeOf(again.body), 10032);
  });

  it('refuses missing, malformed, unknown-key, wrong-digest, unsupported-method headers with 401', async () => {
    const cases: [string | null, number][] = [
      [null, 10040],
      ['Basic abc', 10040],
      ['ServiceDigest auth_key="x"', 10040],
      [`ServiceDigest auth_method="md5", auth_key="${s.demo.key}", auth_nonce="n1", auth_digest="00"`, 10040],
      [`ServiceDigest auth_key="ak_nobody", auth_nonce="n2", auth_digest="00"`, 14704],
      [`ServiceDigest auth_key="${s.demo.key}", auth_nonce="n3", auth_digest="${'0'.repeat(64)}"`, 10032],
      [new TestClient(s.url, s.demo.key, 'wrong-secret').authFor('/v2/profile'), 10032],
    ];
    for (const [auth, code] of cases) {
      const r = await s.client.get('/v2/profile', { auth });
      assert.equal(r.status, 401, String(auth));
      assert.equal(r.body.stt, 'NOK');
      assert.equal(codeOf(r.body), code, `${auth}: ${r.body.msg}`);
    }
  });

  it('refuses a revoked key', async () => {
    const account = (await s.repo.accounts.getKey(s.demo.key))!.accountId;
    const extra = await s.accounts.createKey(account);
    const c = new TestClient(s.url, extra.publicKey, extra.secret);
    assert.equal((await c.get('/v2/profile')).status, 200);
    await s.repo.accounts.revokeKey(extra.publicKey, Date.now());
    await new Promise((res) => setTimeout(res, 1100)); // looked-up keys are reused for up to a second
    const r = await c.get('/v2/profile');
    assert.equal(r.status, 401);
    assert.equal(codeOf(r.body), 14705);
  });

  it('answers unknown routes 404 in the envelope', async () => {
    const r = await s.client.get('/v2/nothing/here');
    assert.equal(r.status, 404);
    assert.equal(r.body.stt, 'NOK');
    assert.match(r.body.msg, /^\d{5} /);
  });
});

describe('rate limit', () => {
  it('answers 429 / 99998 past the per-key limit, and other keys are not affected', async () => {
    const s = await startTestService({ rateLimit: 1, workers: 0 });
    try {
      // Start well inside a 10 s window so that all 12 requests count in the same one.
      const intoWindow = Date.now() % 10_000;
      if (intoWindow > 8_000) await new Promise((r) => setTimeout(r, 10_050 - intoWindow));
      const replies = [];
      for (let i = 0; i < 12; i++) replies.push(await s.client.get('/v2/profile'));
      const limited = replies.filter((r) => r.status === 429);
      assert.ok(limited.length >= 1, 'the 11th request in a 10 s window is refused');
      assert.equal(replies.filter((r) => r.status === 200).length, 10);
      assert.equal(codeOf(limited[0]!.body), 99998);
      const account = (await s.repo.accounts.getKey(s.demo.key))!.accountId;
      const other = await s.accounts.createKey(account);
      assert.equal((await new TestClient(s.url, other.publicKey, other.secret).get('/v2/profile')).status, 200);
    } finally {
      await s.stop();
    }
  });
});
