import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Avatar } from '../../../src/domain/ports.ts';
import { sweepOldSpeech, sweepOrphanAvatars } from '../../../src/runtime/cleanup.ts';
import { linkSigner } from '../../../src/store/files/link-signer.ts';
import { localFiles } from '../../../src/store/files/local-files.ts';
import { s3Files } from '../../../src/store/files/s3-files.ts';

const HOUR = 3_600_000;
const known = (keys: string[]) => ({ getAvatar: async (key: string) => (keys.includes(key) ? ({ key } as Avatar) : undefined) });

/** Just enough of S3 for the sweeps: path-style ListObjectsV2 (two keys a page, to cross pages) and DeleteObject. */
function fakeS3(objects: Map<string, Date>) {
  return http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://s3');
    const [, bucket, ...key] = url.pathname.split('/');
    assert.equal(bucket, 'avatars');
    if (req.method === 'DELETE') {
      objects.delete(decodeURIComponent(key.join('/')));
      res.writeHead(204).end();
      return;
    }
    const prefix = url.searchParams.get('prefix') ?? '';
    const all = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    const from = Number(url.searchParams.get('continuation-token') ?? 0);
    const page = all.slice(from, from + 2);
    const more = from + 2 < all.length;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>avatars</Name><Prefix>${prefix}</Prefix>` +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>${more}</IsTruncated>${more ? `<NextContinuationToken>${from + 2}</NextContinuationToken>` : ''}` +
        page.map((k) => `<Contents><Key>${k}</Key><LastModified>${objects.get(k)!.toISOString()}</LastModified><Size>1</Size></Contents>`).join('') +
        '</ListBucketResult>',
    );
  });
}

describe('cleanup through the file store port', () => {
  const objects = new Map<string, Date>();
  const server = fakeS3(objects);
  let endpoint = '';
  before(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sweeps old speech from object storage, and keeps recent speech and every avatar file', async () => {
    const now = Date.now();
    objects.clear();
    for (const [key, age] of [
      ['speech/old1/speech.wav', 2 * HOUR], ['speech/old1/speech.marks', 2 * HOUR], ['speech/old2/speech.mp3', 3 * HOUR],
      ['speech/new1/speech.wav', 60_000], ['avatars/k1/input', 5 * HOUR],
    ] as const) objects.set(key, new Date(now - age));
    const files = s3Files({ endpoint, bucket: 'avatars', region: 'us-east-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', forcePathStyle: true });
    try {
      assert.equal(await sweepOldSpeech(files, HOUR, now), 2);
    } finally {
      files.close();
    }
    assert.deepEqual([...objects.keys()].sort(), ['avatars/k1/input', 'speech/new1/speech.wav']);
  });

  it('sweeps orphan avatar folders and old speech from the local store, and keeps the rest', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cleanup-'));
    const files = localFiles(root, linkSigner(crypto.randomBytes(32)));
    for (const p of ['avatars/kept/input', 'avatars/orphan/input', 'avatars/orphan/packages/maya.zip', 'speech/old/speech.wav', 'speech/new/speech.wav']) {
      await files.put(p, new Uint8Array([1]));
    }
    const old = (Date.now() - 2 * HOUR) / 1000;
    fs.utimesSync(path.join(root, 'speech/old'), old, old);

    assert.equal(await sweepOrphanAvatars(files, known(['kept'])), 1);
    assert.equal(await sweepOldSpeech(files, HOUR), 1);
    assert.deepEqual(fs.readdirSync(path.join(root, 'avatars')), ['kept']);
    assert.deepEqual(fs.readdirSync(path.join(root, 'speech')), ['new']);
    assert.equal(await sweepOldSpeech(localFiles(fs.mkdtempSync(path.join(os.tmpdir(), 'cleanup-empty-')), linkSigner(crypto.randomBytes(32))), HOUR), 0);
  });
});
