import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { parseAuthorization } from '../../../src/api/auth-header.ts';
import { inspectPhoto } from '../../../src/domain/input-check.ts';
import { listCodes } from '../../../src/domain/list-codes.ts';
import { decodeDocument, encodeDocument } from '../../../src/model/codec.ts';
import { digestSigner, serviceDigest } from '../../../src/protocol/digest.ts';
import { linkSigner } from '../../../src/store/files/link-signer.ts';
import { secretBox } from '../../../src/store/secret-box.ts';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: number }).code;
  }
  return 0;
};

describe('ServiceDigest', () => {
  it('follows the spec recipe: HMAC(secret, hash(key+secret) + hash(key+nonce+uri))', () => {
    const h = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const expected = crypto.createHmac('sha256', 'S').update(h('KS') + h('KN/v2/profile')).digest('hex');
    assert.equal(serviceDigest('sha256', 'K', 'S', 'N', '/v2/profile'), expected);
    assert.notEqual(serviceDigest('sha1', 'K', 'S', 'N', '/v2/profile'), expected);
    assert.equal(serviceDigest('sha1', 'K', 'S', 'N', '/v2/profile').length, 40);
  });

  it('parses the header forms clients send, and refuses what is not usable', () => {
    const want = { method: 'sha256', key: 'K', nonce: 'N', digest: 'ab' };
    for (const h of [
      'ServiceDigest auth_method="sha256", auth_key="K", auth_nonce="N", auth_digest="AB"',
      'ServiceDigest auth_key="K",auth_nonce="N",auth_digest="ab"',
      'ServiceDigest auth_method = sha256, realm = Avatar, auth_key = K, auth_nonce = N, auth_digest = ab',
      'ServiceDigest auth_digest=ab auth_nonce=N auth_key=K',
    ]) assert.deepEqual(parseAuthorization(h), want, h);
    assert.equal(parseAuthorization('ServiceDigest auth_method="sha1", auth_key="K", auth_nonce="N", auth_digest="ab"')?.method, 'sha1');
    for (const h of [undefined, '', 'Digest auth_key="K"', 'ServiceDigest auth_key="K", auth_nonce="N"', 'ServiceDigest auth_method="md5", auth_key="K", auth_nonce="N", auth_digest="ab"', 'ServiceDigest auth_key="K, auth_nonce="N"', 'ServiceDigest =x']) {
      assert.equal(parseAuthorization(h), undefined, String(h));
    }
  });
});

describe('photo headers', () => {
  const jpeg = (w: number, h: number, app = 0) =>
    new Uint8Array([0xff, 0xd8, ...(app ? [0xff, 0xe1, (app + 2) >> 8, (app + 2) & 255, ...new Array(app).fill(0)] : []), 0xff, 0xc2, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  it('reads JPEG frame sizes past application segments, and PNG sizes', () => {
    assert.deepEqual(inspectPhoto(jpeg(640, 480, 3000)), { format: 'jpeg', width: 640, height: 480 });
    const png = new Uint8Array(24);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(png.buffer).setUint32(16, 1000);
    new DataView(png.buffer).setUint32(20, 800);
    assert.deepEqual(inspectPhoto(png), { format: 'png', width: 1000, height: 800 });
  });
  it('enforces 8,388,608 pixels whatever the geometry', () => {
    assert.equal(codeOf(() => inspectPhoto(jpeg(4096, 2048))), 0);
    assert.equal(codeOf(() => inspectPhoto(jpeg(4096, 2049))), 30014);
    assert.equal(codeOf(() => inspectPhoto(jpeg(65535, 200))), 30014);
    assert.equal(codeOf(() => inspectPhoto(jpeg(0, 200))), 30013);
    assert.equal(codeOf(() => inspectPhoto(jpeg(10, 10).subarray(0, 6))), 30013);
    assert.equal(codeOf(() => inspectPhoto(new TextEncoder().encode('GIF89a'))), 30012);
    assert.equal(codeOf(() => inspectPhoto(new Uint8Array([1, 2, 3]))), 30011);
  });
});

describe('signed codes and links', () => {
  it('round-trips list codes and refuses any change', () => {
    const codes = listCodes(crypto.randomBytes(32));
    const c = codes.cursor({ account: 'acc', dir: 'after', at: { sample: true, seq: 42 } });
    assert.deepEqual(codes.readCursor(c), { account: 'acc', dir: 'after', at: { sample: true, seq: 42 } });
    assert.equal(codes.readUpdate(c), undefined, 'a cursor is not an update code');
    assert.equal(codes.readCursor(c.replace(/^./, (x) => (x === 'A' ? 'B' : 'A'))), undefined);
    assert.equal(listCodes(crypto.randomBytes(32)).readCursor(c), undefined, 'another key');
    const u = codes.update({ account: 'acc', since: 7 });
    assert.deepEqual(codes.readUpdate(u), { account: 'acc', since: 7 });
  });
  it('signs links with an expiry', () => {
    const signer = linkSigner(crypto.randomBytes(32));
    const token = signer.sign({ path: 'a/b.zip', fileName: 'b.zip', contentType: 'application/zip', expires: 1000 });
    assert.deepEqual(signer.verify(token, 999), { ok: true, grant: { path: 'a/b.zip', fileName: 'b.zip', contentType: 'application/zip', expires: 1000 } });
    assert.deepEqual(signer.verify(token, 1000), { ok: false, reason: 'expired' });
    assert.deepEqual(signer.verify(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 0), { ok: false, reason: 'invalid' });
  });
  it('seals secrets so that only the master key opens them', () => {
    const key = crypto.randomBytes(32);
    const sealed = secretBox(key).seal('s3cret');
    assert.ok(!sealed.includes('s3cret'));
    assert.equal(secretBox(key).open(sealed), 's3cret');
    assert.throws(() => secretBox(crypto.randomBytes(32)).open(sealed));
  });
});

describe('document codec', () => {
  it('round-trips nested typed arrays of every kind', () => {
    const doc = { a: new Float32Array([1.5, -2]), list: [{ b: new Uint16Array([1, 65535]), n: 'x' }, { c: new Uint8Array([7]) }], d: new Uint32Array([4e9]), empty: new Float32Array(0) };
    const back = decodeDocument<typeof doc>(encodeDocument(doc));
    assert.deepEqual(back, doc);
    assert.ok(back.a instanceof Float32Array && back.list[0]!.b instanceof Uint16Array);
    assert.throws(() => decodeDocument(new Uint8Array(16)));
  });
});

describe('digestSigner', () => it('gives the same digests as serviceDigest, key by key', () => {
  for (const method of ['sha256', 'sha1'] as const) {
    const sign = digestSigner(method, 'ak_1', 'sécret');
    for (const [nonce, uri] of [['n1', '/v2/profile'], ['n2', '/v2/avatar/ab%20c/status'], ['', '']]) {
      assert.equal(sign(nonce!, uri!), serviceDigest(method, 'ak_1', 'sécret', nonce!, uri!));
    }
  }
}));
