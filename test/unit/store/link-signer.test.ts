import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { linkSigner } from '../../../src/store/files/link-signer.ts';

describe('signed links', () => {
  it('signs links with an expiry', () => {
    const signer = linkSigner(crypto.randomBytes(32));
    const token = signer.sign({ path: 'a/b.zip', fileName: 'b.zip', contentType: 'application/zip', expires: 1000 });
    assert.deepEqual(signer.verify(token, 999), { ok: true, grant: { path: 'a/b.zip', fileName: 'b.zip', contentType: 'application/zip', expires: 1000 } });
    assert.deepEqual(signer.verify(token, 1000), { ok: false, reason: 'expired' });
    assert.deepEqual(signer.verify(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 0), { ok: false, reason: 'invalid' });
  });
});
