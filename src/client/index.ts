/**
 * Client library of the avatar service: signs every request with ServiceDigest and returns typed results.
 * Runs in Node 20 and in browsers (only `fetch` and WebCrypto at the top level; Node modules load lazily).
 */
import { AvatarApiError, AvatarWaitTimeout, errorFromResponse, pipelineError, unreachable } from './errors.ts';
import { defaultSigner, type DigestMethod, type Signer } from './sign.ts';
import type {
  Avatar, AvatarStatusBody, CreateOptions, DownloadType, Link, ListPage, ListUpdate, MetaEntry, PreviewType, Profile, SpeechLinks, SpeechMark,
  TtsOptions, VertexOptions, VoiceList, WaitOptions,
} from './types.ts';
import { decodeVertices, encodeVertices } from './vertices.ts';
import { importNodeOnly } from './node-only.ts';
import { parseMarks } from './marks.ts';
import { segment, underV2 } from './uris.ts';
import type * as NodeSave from './node/save.ts';

export * from './types.ts';
export { AvatarApiError, AvatarWaitTimeout, parseMsg, pipelineError } from './errors.ts';
export { defaultSigner, nodeSigner, webCryptoSigner, webCryptoDigest, type DigestMethod, type Signer } from './sign.ts';
export { encodeVertices, decodeVertices } from './vertices.ts';
export { objPositions, replaceObjPositions } from './obj-vertices.ts';
export { parseMarks } from './marks.ts';
export { underV2 } from './uris.ts';

export interface AvatarClientOptions {
  /** Where the service answers, e.g. `http://localhost:8080` (a path prefix is kept: `https://host/avatars`). */
  baseUrl: string;
  key: string;
  secret: string;
  /** Digest algorithm, default sha256. */
  method?: DigestMethod;
  /** Replaces the default signer (node:crypto in Node, WebCrypto in browsers). */
  signer?: Signer;
  fetch?: typeof globalThis.fetch;
}

type Ok<T> = T & { stt: 'OK' };

const uploadTypes = { photo: ['image/jpeg', 'photo.jpg'], lofimesh_texture: ['application/x-zip', 'input.zip'], hifimesh_texture_photo: ['application/x-zip', 'input.zip'] } as const;
const MAX_POLL_FACTOR = 10;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class AvatarClient {
  private readonly origin: string;
  private readonly prefix: string;
  private readonly sign: Signer;
  private readonly fetch: typeof globalThis.fetch;

  constructor(options: AvatarClientOptions) {
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.prefix = base.pathname.replace(/\/+$/, '');
    this.sign = options.signer ?? defaultSigner(options);
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * Signs the path as called (prefix included, no host, no query) and returns the parsed OK body, or a
   * NOK body of HTTP 200 that `answers` accepts as an answer rather than a failure.
   */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: { data: BodyInit; type?: string }, answers?: (nok: object) => boolean): Promise<Ok<T>> {
    const uri = this.prefix + path;
    const headers: Record<string, string> = { authorization: await this.sign(uri), accept: 'application/json' };
    if (body?.type) headers['content-type'] = body.type;
    const response = await this.send(this.origin + uri, { method, headers, body: body?.data });
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(response.status, text, response.headers);
    let parsed: { stt?: string };
    try {
      parsed = JSON.parse(text) as { stt?: string };
    } catch {
      throw errorFromResponse(response.status, text, response.headers);
    }
    if (parsed.stt !== 'OK' && !(response.status === 200 && answers?.(parsed))) throw errorFromResponse(response.status, text, response.headers);
    return parsed as Ok<T>;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, init);
    } catch (e) {
      throw unreachable(new URL(url).origin, e as Error);
    }
  }

  profile(): Promise<Ok<Profile>> {
    return this.call<Profile>('GET', '/v2/profile');
  }

  /** Uploads a photo (JPEG) or a zip archive and returns the new avatar's key. */
  async create(input: Blob | Uint8Array, options: CreateOptions): Promise<string> {
    const [contentType, defaultName] = uploadTypes[options.inputType];
    const platforms = options.platforms?.length ? options.platforms.join(',') : 'maya';
    const features = options.features?.length ? `/${segment(options.features.join(','))}` : '';
    const path = `/v2/avatar/new/${segment(options.inputType)}/${segment(platforms)}/${segment(options.template)}${features}`;
    const form = new FormData();
    const file = input instanceof Blob && input.type ? input : new Blob([input as Uint8Array<ArrayBuffer>], { type: contentType });
    form.append('file', file, options.fileName ?? defaultName);
    return (await this.call<{ key: string }>('POST', path, { data: form })).key;
  }

  /** The avatar or result; one that failed is returned too (`status` "error", `stt` "NOK", `msg`), not thrown. */
  status(key: string): Promise<AvatarStatusBody> {
    return this.call<Avatar>('GET', `/v2/avatar/${segment(key)}/status`, undefined, (nok) => (nok as Partial<Avatar>).status === 'error');
  }

  /**
   * Polls the status of an avatar or an on-demand result until it is done; throws AvatarApiError when the
   * pipeline failed and AvatarWaitTimeout after `timeoutMs`. The interval grows by half while nothing moves
   * and returns to `pollMs` on progress; rate limits and server errors are waited out (for as long as a
   * `Retry-After` asks, at least), not thrown.
   */
  async waitFor(key: string, { onProgress, pollMs = 1000, timeoutMs, signal }: WaitOptions = {}): Promise<Avatar> {
    const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    let interval = pollMs;
    let last: Avatar | undefined;
    for (;;) {
      let current: Avatar | undefined;
      let asked = 0;
      try {
        current = await this.status(key);
      } catch (e) {
        if (!(e instanceof AvatarApiError && e.transient)) throw e;
        asked = e.retryAfterMs ?? 0;
      }
      if (current) {
        onProgress?.(current);
        if (current.status === 'done') return current;
        if (current.status === 'error') throw pipelineError(current);
        const moved = !last || last.percent !== current.percent || last.status !== current.status;
        interval = moved ? pollMs : Math.min(interval * 1.5, pollMs * MAX_POLL_FACTOR);
        last = current;
      } else {
        interval = Math.min(interval * 2, pollMs * MAX_POLL_FACTOR);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        if (last) throw new AvatarWaitTimeout(last);
        throw new AvatarApiError(-1, `no status of ${key} before the wait timed out`, 0);
      }
      await sleep(Math.min(Math.max(interval, asked), left), signal);
    }
  }

  async createAndWait(input: Blob | Uint8Array, options: CreateOptions, wait: WaitOptions = {}): Promise<Avatar> {
    return this.waitFor(await this.create(input, options), wait);
  }

  /** The first page, or the page at a `next`/`previous` URI of an earlier page. */
  listPage(uri?: string): Promise<Ok<ListPage>> {
    return this.call<ListPage>('GET', uri === undefined ? '/v2/avatar/list' : underV2(uri));
  }

  /** Every avatar of the account, page after page, following `next`. */
  async *list(): AsyncGenerator<Avatar, void, undefined> {
    let page: ListPage = await this.listPage();
    for (;;) {
      yield* page.models;
      if (!page.next) return;
      page = await this.listPage(page.next);
    }
  }

  /** Changes of the list since the page (or update) that gave this `update` URI. */
  updates(uri: string): Promise<Ok<ListUpdate>> {
    return this.call<ListUpdate>('GET', underV2(uri));
  }

  downloadLink(key: string, type: DownloadType = 'maya'): Promise<Ok<Link>> {
    return this.call<Link>('GET', `/v2/avatar/${segment(key)}/download/${segment(type)}`);
  }

  preview(key: string, fileType: PreviewType = 'jpg'): Promise<Ok<Link>> {
    return this.call<Link>('GET', `/v2/avatar/${segment(key)}/preview/${segment(fileType)}`);
  }

  /** GETs a pre-authorized link (no Authorization header); a relative link is taken relative to the service. */
  async fetchLink(location: string): Promise<Response> {
    const url = new URL(location, this.origin + this.prefix + '/').href;
    const response = await this.send(url, { method: 'GET' });
    if (!response.ok) throw errorFromResponse(response.status, await response.text(), response.headers);
    return response;
  }

  async fetchBytes(location: string): Promise<Uint8Array> {
    return new Uint8Array(await (await this.fetchLink(location)).arrayBuffer());
  }

  async download(key: string, type: DownloadType = 'maya'): Promise<Uint8Array> {
    return this.fetchBytes((await this.downloadLink(key, type)).location);
  }

  /**
   * Node only: streams a pre-authorized link to a file, written aside and renamed so that no partial file is left.
   * `target` is a file path, or `{ dir }` to use the name the service suggests (Content-Disposition) in that folder.
   */
  async saveLinkToFile(location: string, target: string | { dir: string; fallbackName: string }): Promise<{ path: string; bytes: number }> {
    const { saveResponse } = await importNodeOnly<typeof NodeSave>('./node/save.ts');
    return saveResponse(await this.fetchLink(location), target);
  }

  /** Node only: the package (or result) of `key` to a file path, or into a folder under the service's file name. */
  async downloadToFile(key: string, type: DownloadType, target: string | { dir: string }): Promise<{ path: string; bytes: number }> {
    const location = (await this.downloadLink(key, type)).location;
    return this.saveLinkToFile(location, typeof target === 'string' ? target : { dir: target.dir, fallbackName: `${key.replace('@', '_')}-${type}` });
  }

  async delete(key: string): Promise<void> {
    await this.call('GET', `/v2/avatar/${segment(key)}/delete`);
  }

  readonly meta = {
    get: async (key: string, name?: string): Promise<MetaEntry[]> => {
      const path = `/v2/avatar/${segment(key)}/meta/get${name === undefined ? '' : `/${segment(name)}`}`;
      const body = await this.call<{ meta?: MetaEntry[]; models?: MetaEntry[] }>('GET', path);
      return body.meta ?? body.models ?? [];
    },
    set: async (key: string, name: string, value: string): Promise<void> => {
      await this.call('GET', `/v2/avatar/${segment(key)}/meta/set/${segment(name)}/${segment(value)}`);
    },
    setMany: async (key: string, entries: Record<string, string>): Promise<void> => {
      await this.call('POST', `/v2/avatar/${segment(key)}/meta/set`, { data: JSON.stringify(entries), type: 'application/json' });
    },
    unset: async (key: string, name: string): Promise<void> => {
      await this.call('GET', `/v2/avatar/${segment(key)}/meta/unset/${segment(name)}`);
    },
  };

  /** Starts the blendshape export; returns the result key `<avatar>@<child>`. */
  async executeBlendshapes(key: string): Promise<string> {
    return (await this.call<{ key: string }>('GET', `/v2/avatar/${segment(key)}/execute/blendshapes`)).key;
  }

  /** Sends the caller's vertex positions (converted to the pipeline's centimetres and X axis); returns the result key. */
  async executeVertexDeform(key: string, positions: Float32Array, options: VertexOptions = {}): Promise<string> {
    const data = encodeVertices(positions, options);
    const path = `/v2/avatar/${segment(key)}/execute/vertexdeform`;
    return (await this.call<{ key: string }>('POST', path, { data, type: 'application/service-vertex' })).key;
  }

  /** Downloads a deformation result and converts it back to the caller's units and X axis. */
  async vertexDeformResult(resultKey: string, options: VertexOptions & { downloadType?: DownloadType } = {}): Promise<Float32Array> {
    return decodeVertices(await this.download(resultKey, options.downloadType ?? 'maya'), options);
  }

  /** The whole deformation workflow of the spec: send, wait, download, convert back. Same vertex order as sent. */
  async deformVertices(key: string, positions: Float32Array, options: VertexOptions & WaitOptions & { downloadType?: DownloadType } = {}): Promise<Float32Array> {
    const resultKey = await this.executeVertexDeform(key, positions, options);
    await this.waitFor(resultKey, options);
    return this.vertexDeformResult(resultKey, options);
  }

  /** The voices `tts` accepts, its default, and the cloud voice names it maps to them. */
  voices(): Promise<Ok<VoiceList>> {
    return this.call<VoiceList>('GET', '/v2/speech/voices');
  }

  /** Text to speech: links to the audio and/or the visemes file. */
  tts(text: string, { mode = ['mp3', 'json'], type, voice }: TtsOptions = {}): Promise<Ok<SpeechLinks>> {
    const body = JSON.stringify({ text, ...(type && { type }), ...(voice && { voice }) });
    return this.call<SpeechLinks>('POST', `/v2/speech/tts/${segment(mode.join(','))}`, { data: body, type: 'application/json' });
  }

  /** Text to speech, fetched: the audio bytes and the parsed marks, each when requested. */
  async speak(text: string, options: TtsOptions = {}): Promise<{ audio?: { type: string; bytes: Uint8Array }; marks?: SpeechMark[] }> {
    const links = await this.tts(text, options);
    const audioUrl = links.audio_location ?? links.audioURL;
    const marksUrl = links.visemes_location ?? links.marksURL;
    const [audio, marks] = await Promise.all([
      audioUrl ? this.fetchBytes(audioUrl).then((bytes) => ({ type: links.audio_type ?? 'application/octet-stream', bytes })) : undefined,
      marksUrl ? this.fetchLink(marksUrl).then(async (r) => parseMarks(await r.text())) : undefined,
    ]);
    return { ...(audio && { audio }), ...(marks && { marks }) };
  }
}
