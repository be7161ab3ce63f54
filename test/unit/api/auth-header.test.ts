import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAuthorization } from '../../../src/api/auth-header.ts';

describe('ServiceDigest header', () => {
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
