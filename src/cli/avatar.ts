/**
 * The `avatar` command line: every endpoint of the service from a shell. Results go to stdout (JSON with
 * --json), progress and errors to stderr. Exit codes: 0 success, 1 error, 2 still processing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  AvatarApiError, AvatarClient, AvatarWaitTimeout, decodeVertices, encodeVertices,
  type Avatar, type Feature, type InputType, type Platform, type SpeechOutput, type Template, type VertexOptions,
} from '../client/index.ts';
import { loadConfig, readConfigFile, saveConfig } from '../client/node/config.ts';
import { objPositions, replaceObjPositions } from '../client/obj-vertices.ts';
import { progressBar } from '../client/node/progress.ts';
import { prompter } from '../client/node/prompt.ts';

const USAGE = `avatar: command line of the avatar service

  avatar init [--host URL] [--key K] [--secret S]   save credentials (asks for what is left out)
  avatar account                                    points, tier, features
  avatar new FILE [--type photo|lofimesh_texture|hifimesh_texture_photo] [--platforms maya,unity,webviewer]
                  [--template 2.0|1.6] [--features basic,expressions,visemes] [--wait] [--download DIR]
  avatar status KEY                                 exit 2 while pending or processing
  avatar list [--limit N]
  avatar download KEY [--type maya|webviewer|unity] [--out FILE]
  avatar preview KEY [--png] [--out FILE]
  avatar meta get KEY [NAME] | meta set KEY NAME VALUE | meta set KEY NAME=VALUE... | meta unset KEY NAME
  avatar delete KEY
  avatar execute blendshapes KEY [--wait] [--out FILE]
  avatar execute vertexdeform KEY FILE.obj|FILE.bin [--units m|cm] [--mirror-x] [--wait] [--out FILE.obj|FILE.bin]
  avatar tts "TEXT" [--voice V] [--format mp3|wav|ogg|pcm] [--type text|ssml] [--out BASENAME]

Everywhere: --json (machine-readable stdout), --timeout SECONDS (for waits), --help.
Credentials: the file written by init (${'$'}XDG_CONFIG_HOME/avatar-service/config.json or ~/.config/...),
overridden by AVATAR_HOST, AVATAR_KEY, AVATAR_SECRET.
Exit codes: 0 success, 1 error, 2 still processing.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  host: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  type: { type: 'string' },
  platforms: { type: 'string' },
  template: { type: 'string' },
  features: { type: 'string' },
  wait: { type: 'boolean' },
  download: { type: 'string' },
  out: { type: 'string' },
  png: { type: 'boolean' },
  limit: { type: 'string' },
  units: { type: 'string' },
  'mirror-x': { type: 'boolean' },
  voice: { type: 'string' },
  format: { type: 'string' },
  timeout: { type: 'string' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: Record<string, string | undefined>;
}

class UsageError extends Error {}

/** Exit codes of the command line. */
const EXIT = { ok: 0, error: 1, processing: 2 } as const;

const INPUT_TYPES: readonly InputType[] = ['photo', 'lofimesh_texture', 'hifimesh_texture_photo'];
const PLATFORM_NAMES: Readonly<Record<string, Platform>> = { maya: 'maya', webviewer: 'webviewer', unity: 'unity', zip: 'maya', unityzip: 'unity' };
const TEMPLATES: readonly Template[] = ['1.6', '2.0'];
const FEATURES: readonly Feature[] = ['basic', 'expressions', 'visemes'];
const AUDIO_FORMATS: readonly SpeechOutput[] = ['mp3', 'wav', 'ogg', 'pcm'];

function oneOf<T extends string>(what: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${what} "${value}" is not one of ${allowed.join(', ')}`);
  return value as T;
}

const commaList = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

function platformsOf(value: string | undefined): Platform[] {
  const names = commaList(value ?? 'maya').map((p) => PLATFORM_NAMES[p] ?? oneOf('platform', p, Object.keys(PLATFORM_NAMES) as Platform[]));
  return [...new Set(names)];
}

function positional(args: string[], index: number, name: string): string {
  const value = args[index];
  if (value === undefined) throw new UsageError(`missing ${name}`);
  return value;
}

function vertexOptions(flags: Flags): VertexOptions {
  const units = flags.units ?? 'cm';
  if (units !== 'm' && units !== 'cm') throw new UsageError(`--units must be m or cm, got "${units}"`);
  return { unitsPerMeter: units === 'm' ? 1 : 100, mirrorX: flags['mirror-x'] ?? false };
}

function timeoutMs(flags: Flags): number | undefined {
  if (flags.timeout === undefined) return undefined;
  const seconds = Number(flags.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got "${flags.timeout}"`);
  return seconds * 1000;
}

/** A failed avatar's status carries `msg` (code and text); a listed one only its code. */
const statusLine = (a: Avatar & { msg?: string }) => `${a.key}\t${a.status}\t${a.percent}%${a.status === 'error' ? `\t${a.msg ?? `error ${a.error_code}`}` : ''}`;
const statusExit = (a: Avatar) => (a.status === 'done' ? EXIT.ok : a.status === 'error' ? EXIT.error : EXIT.processing);

interface Context {
  args: string[];
  flags: Flags;
  io: Io;
  client(): Promise<AvatarClient>;
  /** Prints `json` with --json, else the human text (nothing when it is empty). */
  out(json: unknown, text: string): void;
  /** Waits for an avatar or result with a progress bar on stderr. */
  wait(client: AvatarClient, key: string): Promise<Avatar>;
}

type Command = (ctx: Context) => Promise<number>;

const init: Command = async ({ flags, io, out }) => {
  const saved = await readConfigFile(io.env);
  const ask = prompter(io.stdin, io.stderr);
  try {
    const host = flags.host ?? (await ask.ask('Service URL', { fallback: saved.host ?? 'http://localhost:8080' }));
    const key = flags.key ?? (await ask.ask('Application key', { fallback: saved.key }));
    const secret = flags.secret ?? (await ask.ask('Secret', { secret: true }));
    if (!host || !key || !secret) throw new UsageError('host, key and secret are all needed');
    new URL(host);
    // Checked before saving, so that a typo never replaces working credentials.
    const profile = await new AvatarClient({ baseUrl: host, key, secret }).profile();
    const file = await saveConfig({ host, key, secret }, io.env);
    out({ config: file, host, key, points: profile.points, tier_code: profile.tier_code }, `saved ${file}\n${profile.points} points, tier ${profile.tier_label}`);
    return EXIT.ok;
  } finally {
    ask.close();
  }
};

const account: Command = async ({ client, out }) => {
  const p = await (await client()).profile();
  out(p, [
    `points: ${p.points}`,
    `tier: ${p.tier_label} (${p.tier_code})`,
    `next expiration: ${p.next_expiration_points} points on ${p.next_expiration_date}`,
    `features: ${p.available_features.join(', ')}`,
  ].join('\n'));
  return EXIT.ok;
};

const create: Command = async ({ args, flags, client, out, wait }) => {
  const file = positional(args, 0, 'FILE');
  const ext = path.extname(file).toLowerCase();
  const inputType = flags.type ? oneOf('--type', flags.type, INPUT_TYPES) : ext === '.jpg' || ext === '.jpeg' ? 'photo' : undefined;
  if (!inputType) throw new UsageError(`cannot tell the input type of ${file}: give --type`);
  const platforms = platformsOf(flags.platforms);
  const template = oneOf('--template', flags.template ?? '2.0', TEMPLATES);
  const features = commaList(flags.features).map((f) => oneOf('feature', f, FEATURES));
  const c = await client();
  const key = await c.create(await fs.readFile(file), { inputType, platforms, template, features, fileName: path.basename(file) });
  if (!flags.wait && flags.download === undefined) {
    out({ key }, key);
    return EXIT.ok;
  }
  const avatar = await wait(c, key);
  const files = [];
  if (flags.download !== undefined) {
    await fs.mkdir(flags.download, { recursive: true });
    for (const platform of platforms) files.push({ platform, ...(await c.downloadToFile(key, platform, { dir: flags.download })) });
  }
  out({ key, status: avatar.status, files }, [key, ...files.map((f) => f.path)].join('\n'));
  return EXIT.ok;
};

const status: Command = async ({ args, client, out }) => {
  const avatar = await (await client()).status(positional(args, 0, 'KEY'));
  out(avatar, statusLine(avatar));
  return statusExit(avatar);
};

const list: Command = async ({ flags, client, out }) => {
  const limit = flags.limit === undefined ? Infinity : Number(flags.limit);
  if (!(limit >= 0)) throw new UsageError(`--limit must be a number, got "${flags.limit}"`);
  const avatars: Avatar[] = [];
  if (limit > 0) {
    for await (const a of (await client()).list()) {
      avatars.push(a);
      if (avatars.length >= limit) break;
    }
  }
  out(avatars, avatars.map((a) => `${statusLine(a)}\t${a.type}\t${a.template_version}\t${a.created_at}${a.is_sample ? '\tsample' : ''}`).join('\n'));
  return EXIT.ok;
};

const download: Command = async ({ args, flags, client, out }) => {
  const type = flags.type ?? 'maya';
  const saved = await (await client()).downloadToFile(positional(args, 0, 'KEY'), PLATFORM_NAMES[type] ?? type, flags.out ?? { dir: '.' });
  out(saved, saved.path);
  return EXIT.ok;
};

const preview: Command = async ({ args, flags, client, out }) => {
  const key = positional(args, 0, 'KEY');
  const fileType = flags.png ? 'png' : 'jpg';
  const c = await client();
  const link = await c.preview(key, fileType);
  const saved = await c.saveLinkToFile(link.location, flags.out ?? { dir: '.', fallbackName: `${key.replace('@', '_')}-preview.${fileType}` });
  out({ ...saved, location: link.location, ttl: link.ttl }, saved.path);
  return EXIT.ok;
};

const meta: Command = async ({ args, client, out }) => {
  const [action, key, ...rest] = args;
  if (!key) throw new UsageError('usage: avatar meta get|set|unset KEY ...');
  const c = await client();
  if (action === 'get') {
    const entries = await c.meta.get(key, rest[0]);
    out(entries, entries.map((m) => `${m.name}=${m.value}${m.defined === undefined ? '' : `\t(${m.defined})`}`).join('\n'));
  } else if (action === 'set' && rest.length > 0 && rest.every((pair) => pair.includes('='))) {
    const entries = Object.fromEntries(rest.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    await c.meta.setMany(key, entries);
    out({ stt: 'OK' }, '');
  } else if (action === 'set' && rest.length === 2) {
    await c.meta.set(key, rest[0], rest[1]);
    out({ stt: 'OK' }, '');
  } else if (action === 'unset' && rest.length === 1) {
    await c.meta.unset(key, rest[0]);
    out({ stt: 'OK' }, '');
  } else {
    throw new UsageError('usage: avatar meta get KEY [NAME] | meta set KEY NAME VALUE | meta set KEY NAME=VALUE... | meta unset KEY NAME');
  }
  return EXIT.ok;
};

const remove: Command = async ({ args, client, out }) => {
  await (await client()).delete(positional(args, 0, 'KEY'));
  out({ stt: 'OK' }, '');
  return EXIT.ok;
};

const isObj = (file: string) => path.extname(file).toLowerCase() === '.obj';

/** A vertex FILE: an OBJ mesh (its `v` lines), or the caller's positions as little-endian float32 triples. */
async function readVertexFile(file: string): Promise<{ positions: Float32Array; obj?: string }> {
  if (!isObj(file)) return { positions: decodeVertices(await fs.readFile(file)) };
  const obj = await fs.readFile(file, 'utf8');
  return { positions: objPositions(obj), obj };
}

const execute: Command = async ({ args, flags, client, out, wait }) => {
  const [what, key] = args;
  if (!key || (what !== 'blendshapes' && what !== 'vertexdeform')) throw new UsageError('usage: avatar execute blendshapes KEY | execute vertexdeform KEY FILE');
  const c = await client();
  const options = vertexOptions(flags);
  const input = what === 'vertexdeform' ? await readVertexFile(positional(args, 2, 'FILE')) : undefined;
  if (input && flags.out !== undefined && isObj(flags.out) && !input.obj) throw new UsageError('an .obj result needs an .obj input');
  const resultKey = input ? await c.executeVertexDeform(key, input.positions, options) : await c.executeBlendshapes(key);
  if (!flags.wait && flags.out === undefined) {
    out({ key: resultKey }, resultKey);
    return EXIT.ok;
  }
  const result = await wait(c, resultKey);
  if (flags.out === undefined) {
    out({ key: resultKey, status: result.status }, resultKey);
  } else if (input) {
    const positions = await c.vertexDeformResult(resultKey, options);
    await fs.writeFile(flags.out, input.obj && isObj(flags.out) ? replaceObjPositions(input.obj, positions) : encodeVertices(positions));
    out({ key: resultKey, status: result.status, path: flags.out }, `${resultKey}\n${flags.out}`);
  } else {
    const saved = await c.downloadToFile(resultKey, 'maya', flags.out);
    out({ key: resultKey, status: result.status, ...saved }, `${resultKey}\n${saved.path}`);
  }
  return EXIT.ok;
};

const tts: Command = async ({ args, flags, client, out }) => {
  const text = positional(args, 0, 'TEXT');
  const format = oneOf('--format', flags.format ?? 'mp3', AUDIO_FORMATS);
  const type = flags.type === undefined ? undefined : oneOf('--type', flags.type, ['text', 'ssml'] as const);
  const base = flags.out ?? 'speech';
  const c = await client();
  const links = await c.tts(text, { mode: [format, 'json'], type, voice: flags.voice });
  const audioLink = links.audio_location ?? links.audioURL;
  const marksLink = links.visemes_location ?? links.marksURL;
  if (!audioLink || !marksLink) throw new AvatarApiError(-1, 'the service returned no audio or no marks link', 200);
  const audio = await c.saveLinkToFile(audioLink, `${base}.${format}`);
  const marks = await c.saveLinkToFile(marksLink, `${base}.marks.json`);
  out({ audio: audio.path, audio_type: links.audio_type, marks: marks.path, visemes_type: links.visemes_type }, `${audio.path}\n${marks.path}`);
  return EXIT.ok;
};

const COMMANDS: Record<string, Command> = { init, account, new: create, status, list, download, preview, meta, delete: remove, execute, tts };

/** Runs one command line (without `node` and the script) and returns the exit code. */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { values: flags, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    json = flags.json ?? false;
    const [name, ...args] = positionals;
    if (flags.help || name === undefined || name === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return name === undefined && !flags.help ? EXIT.error : EXIT.ok;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}" (see avatar --help)`);
    const ctx: Context = {
      args,
      flags,
      io,
      client: async () => {
        const config = await loadConfig(io.env);
        return new AvatarClient({ baseUrl: config.host, key: config.key, secret: config.secret });
      },
      out: (value, text) => {
        if (json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
        else if (text) io.stdout.write(`${text}\n`);
      },
      wait: async (client, key) => {
        const bar = progressBar(io.stderr, key);
        try {
          return await client.waitFor(key, { onProgress: (a) => bar.update(a), timeoutMs: timeoutMs(flags) });
        } finally {
          bar.end();
        }
      },
    };
    return await command(ctx);
  } catch (e) {
    return report(e, json, io);
  }
}

function report(e: unknown, json: boolean, io: Io): number {
  const code = e instanceof AvatarWaitTimeout ? EXIT.processing : EXIT.error;
  const error =
    e instanceof AvatarApiError ? { code: e.code, text: e.text, httpStatus: e.httpStatus }
    : e instanceof AvatarWaitTimeout ? { key: e.last.key, status: e.last.status, percent: e.last.percent, text: e.message }
    : { text: (e as Error).message ?? String(e) };
  io.stderr.write(`avatar: ${e instanceof Error ? e.message : String(e)}\n`);
  if (e instanceof UsageError || (e as NodeJS.ErrnoException).code?.startsWith?.('ERR_PARSE_ARGS')) io.stderr.write('see avatar --help\n');
  if (json) io.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
