import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { spawnService, testPhoto, type SpawnedService } from './spawned-service.ts';

const bin = new URL('../../bin/avatar.mjs', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

describe('avatar command line against the running service', () => {
  let service: SpawnedService;
  let work: string;
  let env: Record<string, string>;
  let photoFile: string;
  let key: string;

  /** Runs the installed bin as a user would, in the work folder, with `input` piped to stdin. */
  const avatar = (args: string[], { input = '', extraEnv = {} }: { input?: string; extraEnv?: Record<string, string> } = {}) =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: work, env: { ...env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code: code ?? -1, stdout, stderr, json });
      });
      child.stdin.end(input);
    });

  before(async () => {
    // Long enough that a second CLI process, started on a loaded machine, still finds the avatar processing.
    service = await spawnService({}, 4000);
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'avatar-cli-'));
    // Only what a user's shell would have: no AVATAR_* unless a test sets them, a config folder of its own.
    const { AVATAR_HOST, AVATAR_KEY, AVATAR_SECRET, ...rest } = process.env as Record<string, string>;
    env = { ...rest, XDG_CONFIG_HOME: path.join(work, 'config'), HOME: work };
    photoFile = path.join(work, 'me.jpg');
    await fs.writeFile(photoFile, await testPhoto());
  });
  after(async () => {
    await service?.stop();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('fails with exit 1 and says how to configure before init', async () => {
    const r = await avatar(['account', '--json']);
    assert.equal(r.code, 1);
    assert.match(r.json.error.text, /avatar init/);
  });

  it('init asks for what is left out, checks it, and saves it readable by the owner only', async () => {
    const wrong = await avatar(['init', '--host', service.url, '--key', service.key], { input: 'bad-secret\n' });
    assert.equal(wrong.code, 1, 'a wrong secret is refused');
    await assert.rejects(fs.stat(path.join(work, 'config', 'avatar-service', 'config.json')), 'nothing saved');

    const r = await avatar(['init'], { input: `${service.url}\n${service.key}\n${service.secret}\n` });
    assert.equal(r.code, 0, r.stderr);
    const file = path.join(work, 'config', 'avatar-service', 'config.json');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(await fs.readFile(file, 'utf8')), { host: service.url, key: service.key, secret: service.secret });
    assert.ok(!r.stdout.includes(service.secret), 'the secret is never printed');
  });

  it('account prints the profile, as text and as JSON', async () => {
    const text = await avatar(['account']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^points: \d+/m);
    const json = await avatar(['account', '--json']);
    assert.equal(typeof json.json.points, 'number');
  });

  it('init reads the key and secret from a credentials file such as DATA_DIR/demo-credentials.json', async () => {
    const r = await avatar(['init', '--host', service.url, '--credentials', path.join(service.dataDir, 'demo-credentials.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^saved .*config\.json$/m);
    const bad = await avatar(['init', '--host', service.url, '--credentials', path.join(work, 'missing.json')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /cannot read the credentials in .*missing\.json/);
  });

  it('a wrong secret is told with what to do, and where the key and secret came from', async () => {
    const r = await avatar(['account'], { extraEnv: { AVATAR_SECRET: 'wrong' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^avatar: 10032 authentication fail: digest does not match; check the application key and its secret$/m);
    assert.match(r.stderr, /the key and secret come from .*config\.json and AVATAR_SECRET: run "avatar init"/);
  });

  it('new --wait --download shows progress and saves each platform package', async () => {
    const r = await avatar(['new', photoFile, '--platforms', 'maya,unity', '--features', 'expressions', '--wait', '--download', 'out', '--timeout', '60', '--json']);
    assert.equal(r.code, 0, r.stderr);
    key = r.json.key;
    assert.equal(r.json.status, 'done');
    assert.deepEqual(r.json.files.map((f: { platform: string }) => f.platform), ['maya', 'unity']);
    for (const f of r.json.files) assert.ok(Object.keys(unzipSync(await fs.readFile(path.resolve(work, f.path)))).length > 0, f.path);
    assert.match(r.stderr, new RegExp(`${key} processing \\d+%`), 'progress lines on stderr');
    assert.match(r.stderr, new RegExp(`${key} done 100%`));
  });

  it('status exits 2 while processing and 0 when done', async () => {
    const created = await avatar(['new', photoFile]);
    assert.equal(created.code, 0, created.stderr);
    const fresh = created.stdout.trim();
    const r = await avatar(['status', fresh]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stdout, /pending|processing/);
    const done = await avatar(['status', key, '--json']);
    assert.equal(done.code, 0);
    assert.equal(done.json.status, 'done');
  });

  it('new with the defaults makes what the portal shows: a PNG photo, maya and webviewer, every feature', async () => {
    await sharp(await fs.readFile(photoFile)).png().toFile(path.join(work, 'me.png'));
    const r = await avatar(['new', 'me.png', '--wait', '--timeout', '60', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const made = await avatar(['status', r.json.key, '--json']);
    assert.equal(made.json.optional_features, 'basic,expressions,visemes');
    const viewer = await avatar(['download', r.json.key, '--type', 'webviewer', '--out', 'viewer.zip']);
    assert.equal(viewer.code, 0, viewer.stderr);
    assert.ok(Object.keys(unzipSync(await fs.readFile(path.join(work, 'viewer.zip')))).some((name) => name.endsWith('.glb')));
    const shapes = await avatar(['execute', 'blendshapes', r.json.key, '--wait', '--timeout', '60']);
    assert.equal(shapes.code, 0, shapes.stderr);
  });

  it('a photo over 8 MP is refused with a size that fits', async () => {
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 90, g: 90, b: 90 } } }).jpeg().toFile(path.join(work, 'big.jpg'));
    const r = await avatar(['new', 'big.jpg']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^avatar: 30014 image has more than 8388608 pixels \(4000 x 3000\); shrink the photo to at most 8 MP, for example 3344 x 2508, and upload it again$/m);
  });

  it('a photo without a face fails with the reason and what to do, in new --wait, status and list', async () => {
    // The scripted pipeline refuses a photo 17 px wide with 10001, as the real one refuses a photo without a face.
    await sharp({ create: { width: 17, height: 17, channels: 3, background: { r: 200, g: 180, b: 160 } } }).jpeg().toFile(path.join(work, 'noface.jpg'));
    const r = await avatar(['new', 'noface.jpg', '--wait', '--timeout', '60']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^avatar: 10001 error in pipeline: no face was found in the photo; use a front-facing photo of one person/m);
    assert.doesNotMatch(r.stderr, /HTTP 200/);
    const failed = (await avatar(['list', '--json'])).json.find((a: { status: string }) => a.status === 'error');
    const status = await avatar(['status', failed.key]);
    assert.equal(status.code, 1);
    assert.equal(status.stdout, `${failed.key}\terror\t${failed.percent}%\n`);
    assert.match(status.stderr, /^avatar: 10001 error in pipeline: no face was found/);
    const json = await avatar(['status', failed.key, '--json']);
    assert.equal(json.json.stt, 'NOK');
    assert.equal(json.json.error_code, 10001);
    const table = (await avatar(['list'])).stdout.split('\n');
    assert.match(table[0]!, /^KEY\s+STATUS\s+%\s+TYPE\s+TEMPLATE\s+CREATED \(UTC\)\s+NOTE$/);
    assert.match(table.find((line) => line.startsWith(failed.key))!, /\serror\s.*\serror 10001$/);
  });

  it('voices lists what tts accepts, and an unknown voice points to it', async () => {
    const en = await avatar(['voices', '--language', 'en']);
    assert.equal(en.code, 0, en.stderr);
    assert.match(en.stdout, /^rms\s+en-US\s+male\s+\(default\)$/m);
    assert.doesNotMatch(en.stdout, /^espeak-de/m);
    const cloud = await avatar(['voices', '--cloud', '--language', 'en-GB', '--json']);
    assert.deepEqual(cloud.json.find((v: { name: string }) => v.name === 'Brian'), { name: 'Brian', language: 'en-GB', gender: 'male', voice: 'awb' });
    const unknown = await avatar(['tts', 'Hello.', '--voice', 'nobody']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^avatar: 51300 unknown voice "nobody"; GET \/v2\/speech\/voices lists the voices/m);
    assert.match(unknown.stderr, /"avatar voices" lists the voices/);
  });

  it('list prints every avatar', async () => {
    const r = await avatar(['list', '--json']);
    assert.equal(r.code, 0);
    assert.ok(r.json.some((a: { key: string }) => a.key === key));
    const limited = await avatar(['list', '--limit', '1', '--json']);
    assert.equal(limited.json.length, 1);
  });

  it('download --out and preview --png write the files', async () => {
    const d = await avatar(['download', key, '--type', 'unity', '--out', 'unity.zip']);
    assert.equal(d.code, 0, d.stderr);
    assert.ok(Object.keys(unzipSync(await fs.readFile(path.join(work, 'unity.zip')))).length > 0);
    const p = await avatar(['preview', key, '--png', '--json']);
    assert.equal(p.code, 0, p.stderr);
    const png = await fs.readFile(path.resolve(work, p.json.path));
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const missing = await avatar(['download', key, '--type', 'webviewer']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /40460/);
  });

  it('meta set, get and unset', async () => {
    assert.equal((await avatar(['meta', 'set', key, 'colour', 'deep blue'])).code, 0);
    assert.equal((await avatar(['meta', 'set', key, 'a=1', 'b=x=y'])).code, 0);
    const got = await avatar(['meta', 'get', key]);
    assert.match(got.stdout, /^colour=deep blue$/m);
    assert.match(got.stdout, /^b=x=y$/m);
    assert.equal((await avatar(['meta', 'unset', key, 'a'])).code, 0);
    const after = await avatar(['meta', 'get', key, '--json']);
    assert.ok(!after.json.some((m: { name: string }) => m.name === 'a'));
  });

  it('execute vertexdeform converts metres and mirrored X both ways', async () => {
    const positions = new Float32Array([0.05, 0.02, 0.08, -0.03, 0.1, 0.04]);
    await fs.writeFile(path.join(work, 'in.bin'), new Uint8Array(positions.buffer));
    const r = await avatar(['execute', 'vertexdeform', key, 'in.bin', '--units', 'm', '--mirror-x', '--out', 'deformed.bin', '--timeout', '60', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.json.key.startsWith(`${key}@`));
    const bytes = await fs.readFile(path.join(work, 'deformed.bin'));
    const out = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    assert.equal(out.length, positions.length);
    // The result is in the caller's units: metres stay metres (a centimetre reply would be ~100x larger).
    out.forEach((v, i) => assert.ok(Math.abs(v) < 1, `value ${i} = ${v} looks like metres`));
  });

  it('execute vertexdeform reads an OBJ and writes it back with only the positions changed', async () => {
    const obj = ['# my mesh', 'v 0.05 0.02 0.08', 'vt 0 1', 'v -0.03 0.1 0.04', 'v 0 -0.06 0.09', 'f 1 2 3', ''].join('\n');
    await fs.writeFile(path.join(work, 'mesh.obj'), obj);
    const r = await avatar(['execute', 'vertexdeform', key, 'mesh.obj', '--units', 'm', '--out', 'deformed.obj', '--timeout', '60']);
    assert.equal(r.code, 0, r.stderr);
    const lines = (await fs.readFile(path.join(work, 'deformed.obj'), 'utf8')).split('\n');
    assert.deepEqual(lines.filter((l) => !l.startsWith('v ')), obj.split('\n').filter((l) => !l.startsWith('v ')));
    const vs = lines.filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    assert.equal(vs.length, 3);
    vs.flat().forEach((v) => assert.ok(Number.isFinite(v) && Math.abs(v) < 1, `${v} in metres`));
  });

  it('execute blendshapes --out saves the result package', async () => {
    const r = await avatar(['execute', 'blendshapes', key, '--out', 'shapes.zip', '--timeout', '60', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Object.keys(unzipSync(await fs.readFile(path.join(work, 'shapes.zip')))).length > 0);
  });

  it('tts writes the audio and the marks', async () => {
    const r = await avatar(['tts', 'Hello from the command line.', '--voice', 'slt', '--format', 'wav', '--out', 'hello', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await fs.readFile(path.join(work, 'hello.wav'))).subarray(0, 4).toString(), 'RIFF');
    const marks = (await fs.readFile(path.join(work, 'hello.marks.json'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(marks.some((m: { type: string }) => m.type === 'viseme'));
  });

  it('delete removes the avatar; its status is then an error', async () => {
    assert.equal((await avatar(['delete', key])).code, 0);
    const r = await avatar(['status', key, '--json']);
    assert.equal(r.code, 1);
    assert.equal(r.json.error.httpStatus, 404);
  });

  it('usage errors exit 1', async () => {
    assert.equal((await avatar(['new', photoFile, '--template', '9'])).code, 1);
    assert.equal((await avatar(['frobnicate'])).code, 1);
    assert.equal((await avatar(['--help'])).code, 0);
  });
});
