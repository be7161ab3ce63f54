import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Synthesizer } from '../../src/domain/speech.ts';
import { authorizationHeader, type DigestMethod } from '../../src/protocol/digest.ts';
import { startService } from '../../src/runtime/service.ts';
import { createSpeechEngine, parseModes, voiceCatalog } from '../../src/speech/index.ts';

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** A signing client for the tests, written from the spec, over real HTTP. */
export class TestClient {
  constructor(
    readonly base: string,
    readonly key: string,
    readonly secret: string,
    readonly method: DigestMethod = 'sha256',
  ) {}

  authFor(uri: string, nonce?: string) {
    return authorizationHeader(this.key, this.secret, uri, this.method, nonce);
  }

  async call(verb: string, uri: string, opts: { body?: BodyInit | Uint8Array; type?: string; auth?: string | null; json?: unknown } = {}): Promise<Reply> {
    const headers: Record<string, string> = {};
    const auth = opts.auth === undefined ? this.authFor(uri.split('?')[0]!) : opts.auth;
    if (auth !== null) headers.authorization = auth;
    let body = opts.body as BodyInit | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    if (opts.type) headers['content-type'] = opts.type;
    const res = await fetch(this.base + uri, { method: verb, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: kept as text for the assertion to show */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get(uri: string, opts?: { auth?: string | null }) {
    return this.call('GET', uri, opts);
  }

  upload(uri: string, file: Uint8Array, name = 'file', fileName = 'photo.jpg') {
    const form = new FormData();
    form.append(name, new Blob([file as Uint8Array<ArrayBuffer>]), fileName);
    return this.call('POST', uri, { body: form });
  }

  async waitFor(key: string, timeoutMs = 30_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.get(`/v2/avatar/${key}/status`);
      if (r.body.status === 'done' || r.body.status === 'error') return r.body;
      if (Date.now() > end) throw new Error(`timed out waiting for ${key}: ${JSON.stringify(r.body)}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }
}

/** Speech is tested in its own suite; the service tests only need the route's envelope. */
const silentSynthesizer: Synthesizer = {
  parseModes: (mode) => ({ audio: mode.includes('wav') ? 'wav' : undefined, json: mode.includes('json') }),
  voiceCatalog,
  synthesize: async (_req, modes) => ({
    audio: modes.audio ? { mimeType: 'audio/wav', extension: 'wav', data: new Uint8Array(44) } : undefined,
    marks: modes.json ? { mimeType: 'application/x-json-stream', data: new Uint8Array(0) } : undefined,
  }),
};

export const scriptedPipeline = new URL('./scripted-pipeline.ts', import.meta.url).href;

export function tempDir(prefix = 'avatar-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The embedded service in this process with the scripted pipeline, on a free port. */
export async function startTestService(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = {}, speech: 'silent' | 'real' = 'silent') {
  const dataDir = overrides.dataDir ?? tempDir();
  const config: Config = {
    ...loadConfig({ ...env, DATA_DIR: dataDir }),
    port: 0,
    host: '127.0.0.1',
    pipelineModule: scriptedPipeline,
    createSamples: false,
    rateLimit: 0,
    logLevel: 'silent',
    minFreeBytes: 0,
    ...overrides,
  };
  const engine = speech === 'real' ? createSpeechEngine({ poolSize: 1 }) : undefined;
  const synthesizer: Synthesizer = engine ? { parseModes, voiceCatalog, synthesize: engine.synthesize } : silentSynthesizer;
  const service = await startService({ config, logger: false, synthesizer });
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  // The demo account is made only when the data directory has no account yet.
  const credentials = path.join(dataDir, 'demo-credentials.json');
  const demo = (fs.existsSync(credentials) ? JSON.parse(fs.readFileSync(credentials, 'utf8')) : { key: '', secret: '' }) as { key: string; secret: string };
  const stop = async () => {
    await service.stop();
    await engine?.close();
  };
  return { ...service, stop, url: address, dataDir, demo, client: new TestClient(address, demo.key, demo.secret) };
}

export async function jpeg(width: number, height: number) {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 180, g: 140, b: 120 } } }).jpeg().toBuffer());
}
