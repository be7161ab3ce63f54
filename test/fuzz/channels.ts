import { strToU8, zipSync } from 'fflate';
import type { TestClient, Reply } from '../../tools/harness/service.ts';
import { mutate, NASTY, type Random } from './random.ts';

export interface FuzzContext {
  client: TestClient;
  url: string;
  /** A finished avatar of the fuzzing account. */
  key: string;
  photo: Uint8Array;
  meshZip: Uint8Array;
  obj: string;
  link: string;
  listCode: string;
}

export type Channel = (r: Random, c: FuzzContext) => Promise<Reply>;

const enc = (s: string) => new TextEncoder().encode(s);
const segment = (r: Random) => encodeURIComponent(r.pick(NASTY)).replace(/%2F/g, r.pick(['/', '%2F']));

/** A JPEG header that claims a size, followed by garbage. */
function claimingJpeg(r: Random) {
  const w = r.int(70000);
  const h = r.int(70000);
  return new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, ...r.bytes(r.int(200))]);
}

/** A zip whose local header declares an enormous entry (a bomb by its sizes). */
function bombZip() {
  const zip = zipSync({ 'mesh.obj': new Uint8Array(1 << 16), 'mesh.jpg': new Uint8Array(10) }, { level: 9 });
  const view = new DataView(zip.buffer);
  for (let i = 0; i + 4 < zip.length; i++) {
    if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, 0xfffffff0, true); // central directory: uncompressed size
    if (view.getUint32(i, true) === 0x04034b50) view.setUint32(i + 22, 0xfffffff0, true); // local header
  }
  return zip;
}

/** A zip with a symlink entry (Unix mode in the external attributes). */
function symlinkZip() {
  const zip = zipSync({ 'mesh.obj': strToU8('/etc/passwd'), 'mesh.jpg': new Uint8Array(4) }, { level: 0 });
  const view = new DataView(zip.buffer);
  for (let i = 0; i + 4 < zip.length; i++) {
    if (view.getUint32(i, true) === 0x02014b50) {
      view.setUint16(i + 4, (3 << 8) | 20, true); // made by Unix
      view.setUint32(i + 38, (0o120777 << 16) >>> 0, true);
    }
  }
  return zip;
}

export const channels: Record<string, Channel> = {
  async 'auth header'(r, c) {
    const uri = '/v2/profile';
    const good = c.client.authFor(uri);
    const variants = [
      () => good.replace(/auth_digest="[^"]*"/, `auth_digest="${r.pick(NASTY)}"`),
      () => good.replace(/auth_key="[^"]*"/, `auth_key="${r.pick(NASTY)}"`),
      () => good.replace(/auth_nonce="[^"]*"/, `auth_nonce="${r.pick(NASTY)}"`),
      () => good.slice(0, r.int(good.length)),
      () => good.replace(/"/g, r.pick(['', "'", '""', '\\"'])),
      () => `${r.pick(['ServiceDigest', 'servicedigest', 'Basic', 'Bearer', ''])} ${r.pick(NASTY)}`,
      () => good + ', '.repeat(r.int(50)) + r.pick(NASTY),
      () => Buffer.from(r.bytes(r.int(300))).toString('latin1').replace(/[\r\n\0]/g, ' '),
    ];
    let header = r.pick(variants)();
    header = header.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
    return c.client.get(uri, { auth: header });
  },
  async 'path segments'(r, c) {
    const forms = [
      () => `/v2/avatar/${segment(r)}/status`,
      () => `/v2/avatar/${c.key}/download/${segment(r)}`,
      () => `/v2/avatar/${c.key}/preview/${segment(r)}`,
      () => `/v2/avatar/${c.key}@${segment(r)}/status`,
      () => `/v2/avatar/${c.key}/meta/get/${segment(r)}`,
      () => `/v2/avatar/${c.key}/meta/set/${segment(r)}/${segment(r)}`,
      () => `/v2/avatar/${c.key}/meta/unset/${segment(r)}`,
      () => `/v2/avatar/${segment(r)}/${segment(r)}/${segment(r)}`,
    ];
    return c.client.get(r.pick(forms)());
  },
  async 'photo upload'(r, c) {
    const bodies = [() => mutate(r, c.photo), () => claimingJpeg(r), () => r.bytes(r.int(2000)), () => mutate(r, mutate(r, c.photo))];
    const uri = `/v2/avatar/new/photo/${r.pick(['maya', 'unity', 'zip', segment(r)])}/${r.pick(['2.0', '1.6', segment(r)])}`;
    return c.client.upload(uri, r.pick(bodies)());
  },
  async 'zip and rar archives'(r, c) {
    const bodies = [
      () => mutate(r, c.meshZip),
      () => bombZip(),
      () => symlinkZip(),
      () => zipSync({ [r.pick(['../../evil.obj', '/abs/mesh.obj', 'C:\\mesh.obj', 'a/../../mesh.obj', 'mesh.obj\u0000.jpg'])]: strToU8(c.obj), 'mesh.jpg': c.photo }),
      () => new Uint8Array([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, r.int(2), 0, ...r.bytes(r.int(400))]),
      () => zipSync(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, new Uint8Array(1)]))),
    ];
    return c.client.upload(`/v2/avatar/new/${r.pick(['lofimesh_texture', 'hifimesh_texture_photo'])}/unity/2.0`, r.pick(bodies)(), 'file', 'head.zip');
  },
  async 'OBJ inside archives'(r, c) {
    const lines = c.obj.split('\n');
    const broken = [
      () => lines.map((l) => (r.next() < 0.1 ? r.pick(NASTY) : l)).join('\n'),
      () => lines.slice(0, r.int(lines.length)).join('\n'),
      () => `${c.obj}\nf ${r.int(1e9)} -${r.int(1e9)} ${r.pick(NASTY)}\n`,
      () => `v ${r.pick(NASTY)} 1 2\nf 1 1 1\n`,
      () => Buffer.from(mutate(r, enc(c.obj))).toString('latin1'),
    ];
    const zip = zipSync({ 'mesh.obj': enc(r.pick(broken)()), 'mesh.jpg': c.photo });
    return c.client.upload('/v2/avatar/new/lofimesh_texture/maya/2.0', zip, 'file', 'head.zip');
  },
  async 'vertex bodies'(r, c) {
    const n = r.int(40);
    const floats = new Float32Array(n * 3).map(() => r.pick([0, 1.5, -1e30, NaN, Infinity, -Infinity, r.next() * 100]));
    const bodies = [() => new Uint8Array(floats.buffer), () => r.bytes(r.int(100)), () => mutate(r, new Uint8Array(floats.buffer))];
    const type = r.pick(['application/service-vertex', 'application/octet-stream', 'text/plain', 'application/json', undefined]);
    return c.client.call('POST', `/v2/avatar/${c.key}/execute/vertexdeform`, { body: r.pick(bodies)(), type });
  },
  async 'meta JSON'(r, c) {
    const values = [() => r.pick(NASTY), () => r.int(100), () => null, () => [r.pick(NASTY)], () => ({ a: 1 }), () => true];
    const obj = Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(NASTY), r.pick(values)()]));
    const bodies = [() => JSON.stringify(obj), () => JSON.stringify(r.pick(values)()), () => JSON.stringify(obj).slice(0, r.int(40)), () => r.pick(NASTY)];
    return c.client.call('POST', `/v2/avatar/${c.key}/meta/set`, { body: r.pick(bodies)(), type: r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) });
  },
  async 'TTS JSON and SSML'(r, c) {
    const ssml = [
      () => `<speak>${r.pick(NASTY)}<break time="${r.pick(NASTY)}"/>hello</speak>`,
      () => `<speak><prosody rate="${r.pick(NASTY)}">hi</prosody><mark name="${r.pick(NASTY)}"/></speak>`,
      () => `<speak>${'<s>'.repeat(r.int(60))}deep`,
      () => `<speak><say-as interpret-as="${r.pick(NASTY)}">123</say-as><amazon:effect name="x">y</amazon:effect></speak>`,
      () => `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "${'b'.repeat(100)}">]><speak>&a;&a;&a;</speak>`,
      () => Buffer.from(mutate(r, enc('<speak>Hello <emphasis>there</emphasis>.</speak>'))).toString('utf8'),
    ];
    const body = r.pick([
      () => ({ text: r.pick(ssml)(), type: 'ssml' }),
      () => ({ text: r.pick(NASTY), type: r.pick(['text', 'ssml', 'html', 7]), voice: r.pick(['Joanna', 'Matthew', r.pick(NASTY), 3]) }),
      () => r.pick(NASTY),
      () => [1, 2],
    ])();
    const mode = r.pick(['json', 'mp3', 'wav,json', 'ogg,pcm', segment(r)]);
    return c.client.call('POST', `/v2/speech/tts/${mode}`, { body: JSON.stringify(body), type: 'application/json' });
  },
  async 'list cursors'(r, c) {
    const code = r.pick([() => r.pick(NASTY), () => c.listCode.slice(0, r.int(c.listCode.length)), () => Buffer.from(mutate(r, enc(c.listCode))).toString('latin1')])();
    return c.client.get(`/v2/avatar/list/${r.pick(['cursor', 'update', segment(r)])}/${encodeURIComponent(code) || 'x'}`);
  },
  async 'signed links'(r, c) {
    const token = c.link.split('/files/')[1]!;
    const bad = r.pick([() => token.slice(0, r.int(token.length)), () => Buffer.from(mutate(r, enc(token))).toString('latin1'), () => r.pick(NASTY)])();
    const res = await fetch(`${c.url}/files/${encodeURIComponent(bad) || 'x'}`);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* kept as text */
    }
    return { status: res.status, body, headers: res.headers };
  },
};
