import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import Database from 'better-sqlite3';
import { exited, readCredentials, startServerProcess } from '../../tools/harness/process.ts';
import { jpeg, scriptedPipeline, tempDir, TestClient } from '../../tools/harness/service.ts';

const codeOf = (body: { msg?: string }) => Number(body.msg?.slice(0, 5));

/** A photo that compresses badly: about `px`² x 1.5 bytes of JPEG. */
async function noisyJpeg(px: number) {
  const raw = Buffer.alloc(px * px * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return new Uint8Array(await sharp(raw, { raw: { width: px, height: px, channels: 3 } }).jpeg({ quality: 100 }).toBuffer());
}

function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('faults', () => {
  it('refuses cleanly when the disk is full, corrupts nothing, and recovers once space is freed', async (t) => {
    const dir = tempDir('avatar-enospc-');
    if (!mountTmpfs(dir, '24m')) return t.skip('cannot mount a tmpfs here (needs root)');
    const env = { DATA_DIR: dir, PIPELINE_MODULE: scriptedPipeline, SAMPLES: '0', RATE_LIMIT: '0', SCRIPTED_PIPELINE_MS: '10', MIN_FREE_BYTES: String(6 << 20) };
    let server = await startServerProcess(env);
    try {
      const creds = readCredentials(dir);
      const c = new TestClient(server.url, creds.key, creds.secret);
      const photo = await noisyJpeg(1100);
      const made: string[] = [];
      let full: { status: number; body: { msg?: string } } | undefined;
      for (let i = 0; i < 40 && !full; i++) {
        const r = await c.upload('/v2/avatar/new/photo/maya/2.0', photo);
        if (r.status === 200) made.push(r.body.key);
        else full = r;
      }
      assert.ok(full, 'the disk filled up');
      assert.equal(full.status, 507, JSON.stringify(full.body));
      assert.equal(codeOf(full.body), 99998);
      const points = (await c.get('/v2/profile')).body.points;
      assert.equal(points, 1000 - made.length * 10, 'the refused upload took no points');
      // every accepted avatar ends somewhere (done, or error with a refund when its packages did not fit)
      for (const k of made) assert.ok(['done', 'error'].includes((await c.waitFor(k, 60_000)).status));
      for (const k of made.slice(0, Math.ceil(made.length / 2))) await c.get(`/v2/avatar/${k}/delete`);
      const again = await c.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 64));
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((await c.waitFor(again.body.key)).status, 'done');
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
      const db = new Database(path.join(dir, 'service.db'), { readonly: true });
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
      execFileSync('umount', [dir]);
    }
  });

  it('loses nothing and charges nothing when killed during an upload', async () => {
    const dir = tempDir('avatar-upload-kill-');
    const env = { DATA_DIR: dir, PIPELINE_MODULE: scriptedPipeline, SAMPLES: '0' };
    let server = await startServerProcess(env);
    const creds = readCredentials(dir);
    let c = new TestClient(server.url, creds.key, creds.secret);
    const done = (await c.upload('/v2/avatar/new/photo/maya/2.0', await jpeg(64, 64))).body.key;
    await c.waitFor(done);
    // half of a multipart upload, then the process dies
    const uri = '/v2/avatar/new/photo/maya/2.0';
    const photo = await noisyJpeg(800);
    const boundary = 'xXx';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const req = http.request(`${server.url}${uri}`, {
      method: 'POST',
      headers: { authorization: c.authFor(uri), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + photo.length + 8 + boundary.length },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write(photo.subarray(0, photo.length >> 1));
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGKILL');
    await exited(server.child);
    req.destroy();

    server = await startServerProcess(env);
    c = new TestClient(server.url, creds.key, creds.secret);
    try {
      const list = (await c.get('/v2/avatar/list')).body;
      assert.deepEqual(list.models.map((m: { key: string }) => m.key), [done]);
      assert.equal((await c.get('/v2/profile')).body.points, 990);
      assert.deepEqual(fs.readdirSync(path.join(dir, 'files', 'avatars')), [done], 'no orphan files');
      assert.deepEqual(fs.readdirSync(path.join(dir, 'files', '.tmp')), []);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });
});
