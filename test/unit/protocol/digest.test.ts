import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { digestSigner, serviceDigest } from '../../../src/protocol/digest.ts';

describe('ServiceDigest', () => {
  it('follows the spec recipe: HMAC(secret, hash(key+secret) + hash(key+nonce+uri))', () => {
    const h = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const expected = crypto.createHmac('sha256', 'S').update(h('KS') + h('KN/v2/profile')).digest('hex');
    assert.equal(serviceDigest('sha256', 'K', 'S', 'N', '/v2/profile'), expected);
    assert.notEqual(serviceDigest('sha1', 'K', 'S', 'N', '/v2/profile'), expected);
    assert.equal(serviceDigest('sha1', 'K', 'S', 'N', '/v2/profile').length, 40);
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
