import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { linkSigner } from '../../../src/store/files/link-signer.ts';
import { localFiles, sweepTemporaryFiles } from '../../../src/store/files/local-files.ts';

describe('local files: temporary files left by crashed processes', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'files-sweep-'));
  const tmp = path.join(root, '.tmp');

  it('with an age, removes only the older temporary files and never a stored file', async () => {
    const files = localFiles(root, linkSigner(crypto.randomBytes(32)));
    await files.put('avatars/k/input', new Uint8Array([1, 2, 3]));
    fs.writeFileSync(path.join(tmp, 'old'), 'x');
    fs.writeFileSync(path.join(tmp, 'recent'), 'y');
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
    fs.utimesSync(path.join(tmp, 'old'), hourAgo, hourAgo);
    await sweepTemporaryFiles(root, 3_600_000);
    assert.deepEqual(fs.readdirSync(tmp), ['recent']);
    assert.deepEqual([...(await files.get('avatars/k/input'))!], [1, 2, 3]);
  });

  it('without an age (a lone process at start-up), removes all of them', async () => {
    await sweepTemporaryFiles(root);
    assert.deepEqual(fs.readdirSync(tmp), []);
  });
});
