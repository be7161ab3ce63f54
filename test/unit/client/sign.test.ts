import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serviceDigest } from '../../../src/protocol/digest.ts';
import { nodeSigner, webCryptoDigest, webCryptoSigner, type Signer } from '../../../src/client/sign.ts';

const HEADER = /^ServiceDigest auth_method="(sha256|sha1)", auth_key="([^"]+)", auth_nonce="([0-9a-f]+)", auth_digest="([0-9a-f]+)"$/;

for (const method of ['sha256', 'sha1'] as const) {
  test(`WebCrypto digest equals the Node implementation (${method})`, async () => {
    for (const uri of ['/v2/profile', '/v2/avatar/abc@def/status', '/prefix/v2/avatar/k/meta/set/n%C3%A4me/v%20alue']) {
      assert.equal(await webCryptoDigest(method, 'pub', 's3cr3t', 'nonce-1', uri), serviceDigest(method, 'pub', 's3cr3t', 'nonce-1', uri));
    }
  });
}

const signers: [string, (c: { key: string; secret: string; method?: 'sha256' | 'sha1' }) => Signer][] = [
  ['node', nodeSigner],
  ['webcrypto', webCryptoSigner],
];

for (const [name, make] of signers) {
  test(`${name} signer writes the spec's header with a verifiable digest and a fresh nonce`, async () => {
    const sign = make({ key: 'APPKEY', secret: 'SECRET', method: 'sha1' });
    const first = HEADER.exec(await sign('/v2/profile'));
    const second = HEADER.exec(await sign('/v2/profile'));
    assert.ok(first && second, 'header matches the spec format');
    assert.equal(first[1], 'sha1');
    assert.equal(first[2], 'APPKEY');
    assert.notEqual(first[3], second[3], 'every request gets its own nonce');
    assert.equal(first[4], serviceDigest('sha1', 'APPKEY', 'SECRET', first[3], '/v2/profile'));
  });

  test(`${name} signer defaults to sha256`, async () => {
    const match = HEADER.exec(await make({ key: 'k', secret: 's' })('/v2/x'));
    assert.ok(match);
    assert.equal(match[1], 'sha256');
    assert.equal(match[4], serviceDigest('sha256', 'k', 's', match[3], '/v2/x'));
  });
}
