import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { linkSigner } from '../../../src/store/files/link-signer.ts';
import { localFiles } from '../../../src/store/files/local-files.ts';

test('local files: put writes every byte of a large array (one write call where writeFile made 512 KiB ones), replaces a file whole, leaves no temporary file', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'files-put-'));
  const files = localFiles(root, linkSigner(crypto.randomBytes(32)));
  const large = crypto.randomBytes(5 * 2 ** 20 + 3);
  // A view into a larger buffer: only its own bytes are written.
  const view = new Uint8Array(large.buffer, large.byteOffset + 1, large.length - 2);
  await files.put('avatars/k/model.bin', view);
  assert.ok(Buffer.from((await files.get('avatars/k/model.bin'))!).equals(Buffer.from(view)));
  await files.put('avatars/k/model.bin', Uint8Array.of(7, 8));
  assert.deepEqual([...(await files.get('avatars/k/model.bin'))!], [7, 8]);
  await files.put('avatars/k/empty', new Uint8Array(0));
  assert.equal((await files.get('avatars/k/empty'))!.length, 0);
  assert.deepEqual(fs.readdirSync(path.join(root, '.tmp')), []);
  fs.rmSync(root, { recursive: true, force: true });
});

test('local files: a file put as its parts is their bytes in order, past the parts one write takes, empty parts and views included', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'files-parts-'));
  const files = localFiles(root, linkSigner(crypto.randomBytes(32)));
  const big = crypto.randomBytes(3 * 2 ** 20);
  // 2,500 parts (more than one gathered write takes), some empty, some views into a larger buffer.
  const parts = Array.from({ length: 2500 }, (_, k) => (k % 7 === 0 ? new Uint8Array(0) : big.subarray(k * 1000, k * 1000 + (k % 13) * 97 + 1)));
  parts.push(big.subarray(2 ** 20));
  await files.put('avatars/k/package.zip', parts);
  assert.ok(Buffer.from((await files.get('avatars/k/package.zip'))!).equals(Buffer.concat(parts)));
  await files.put('avatars/k/none', []);
  assert.equal((await files.get('avatars/k/none'))!.length, 0);
  assert.deepEqual(fs.readdirSync(path.join(root, '.tmp')), []);
  fs.rmSync(root, { recursive: true, force: true });
});
