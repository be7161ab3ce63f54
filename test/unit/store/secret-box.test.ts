import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { secretBox } from '../../../src/store/secret-box.ts';

describe('sealed secrets', () => {
  it('seals secrets so that only the master key opens them', () => {
    const key = crypto.randomBytes(32);
    const sealed = secretBox(key).seal('s3cret');
    assert.ok(!sealed.includes('s3cret'));
    assert.equal(secretBox(key).open(sealed), 's3cret');
    assert.throws(() => secretBox(crypto.randomBytes(32)).open(sealed));
  });
});
