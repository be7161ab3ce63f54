import fs from 'node:fs/promises';
import path from 'node:path';
import {
  AvatarApiError, AvatarClient, decodeVertices, encodeVertices, objPositions, pipelineError, replaceObjPositions,
  type Avatar, type Feature, type InputType, type Platform, type SpeechOutput, type Template, type VertexOptions,
} from '../../client/index.ts';
import { readConfigFile, saveConfig } from '../../client/node/config.ts';
import { prompter } from '../../client/node/prompt.ts';
import { NEW_AVATAR_DEFAULTS, PLATFORM_ALIASES } from '../../domain/catalog.ts';
import { AVATAR_FEATURES, INPUT_TYPES, PLATFORMS, TEMPLATES } from '../../model/product.ts';
import { guessInputType } from './input-type.ts';
import { UsageError, type Flags, type OptionSpecs } from './options.ts';
import type { ReportContext } from './report.ts';

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: Record<string, string | undefined>;
}

/** An error whose subject the command has already printed (with --json too): the report adds only its text on stderr. */
export class Reported extends Error {
  constructor(readonly error: Error) {
    super(error.message);
    this.name = 'Reported';
  }
}

/** Exit codes of the command line. */
export const EXIT = { ok: 0, error: 1, processing: 2 } as const;

export interface Context {
  name: string;
  args: string[];
  flags: Flags;
  io: Io;
  /** Filled in as the command learns the host and the key, for the hints of an error report. */
  report: ReportContext;
  client(): Promise<AvatarClient>;
  /** Prints `json` with --json, else the human text (nothing when it is empty). */
  out(json: unknown, text: string): void;
  /** Waits for an avatar or result with a progress bar on stderr. */
  wait(client: AvatarClient, key: string): Promise<Avatar>;
}

export interface CommandSpec {
  /** The arguments as the help shows them. */
  args: string;
  summary: string;
  options: OptionSpecs;
  /** Lines after the options in the command's help. */
  notes?: string[];
  run(ctx: Context): Promise<number>;
}

const str = (flags: Flags, name: string) => flags[name] as string | undefined;
const bool = (flags: Flags, name: string) => flags[name] === true;

const PLATFORM_NAMES = [...PLATFORMS, ...Object.keys(PLATFORM_ALIASES)];
const AUDIO_FORMATS: readonly SpeechOutput[] = ['mp3', 'wav', 'ogg', 'pcm'];

function oneOf<T extends string>(what: string, value: string, allowed: readonly string[], command: string): T {
  if (!allowed.includes(value)) throw new UsageError(`${what} "${value}" is not one of ${allowed.join(', ')}`, command);
  return value as T;
}

const commaList = (value: string) => value.split(',').map((v) => v.trim()).filter(Boolean);

function positional(ctx: Context, index: number, name: string): string {
  const value = ctx.args[index];
  if (value === undefined) throw new UsageError(`missing ${name}`, ctx.name);
  return value;
}

/** An argument that names an avatar or a result: kept for the hints of an error report. */
function keyArgument(ctx: Context, index: number): string {
  return (ctx.report.key = positional(ctx, index, 'KEY'));
}

async function readInput(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await fs.readFile(file));
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

const TIMEOUT = { type: 'string', value: 'SECONDS', help: 'give up waiting after this long, with exit code 2', default: 'no limit' } as const;

const init: CommandSpec = {
  args: '',
  summary: 'save the service address, key and secret (checked against the service first)',
  options: {
    host: { type: 'string', value: 'URL', help: 'the service address', default: 'asked, offering the saved one or http://localhost:8080' },
    key: { type: 'string', value: 'KEY', help: 'the application key', default: 'asked' },
    secret: { type: 'string', value: 'SECRET', help: 'its secret (asked without echo when left out)', default: 'asked' },
    credentials: { type: 'string', value: 'FILE', help: 'read key and secret from a JSON file with "key" and "secret", such as DATA_DIR/demo-credentials.json' },
  },
  notes: [
    'The settings go to $XDG_CONFIG_HOME/avatar-service/config.json (else ~/.config/avatar-service/config.json),',
    'readable by you only. AVATAR_HOST, AVATAR_KEY and AVATAR_SECRET override the file.',
  ],
  async run(ctx) {
    const { flags, io, out } = ctx;
    const saved = await readConfigFile(io.env);
    const file = str(flags, 'credentials');
    const fromFile = file === undefined ? {} : await readCredentials(file, ctx.name);
    const ask = prompter(io.stdin, io.stderr);
    try {
      const host = str(flags, 'host') ?? (await ask.ask('Service URL', { fallback: saved.host ?? 'http://localhost:8080' }));
      const key = str(flags, 'key') ?? fromFile.key ?? (await ask.ask('Application key', { fallback: saved.key }));
      const secret = str(flags, 'secret') ?? fromFile.secret ?? (await ask.ask('Secret', { secret: true }));
      if (!host || !key || !secret) throw new UsageError('host, key and secret are all needed', ctx.name);
      try {
        new URL(host);
      } catch {
        throw new UsageError(`"${host}" is not a URL; give the service address such as http://localhost:8080`, ctx.name);
      }
      ctx.report.host = host;
      // Checked before saving, so that a typo never replaces working credentials.
      const profile = await new AvatarClient({ baseUrl: host, key, secret }).profile();
      const saveTo = await saveConfig({ host, key, secret }, io.env);
      out({ config: saveTo, host, key, points: profile.points, tier_code: profile.tier_code }, `saved ${saveTo}\n${profile.points} points, tier ${profile.tier_label}`);
      return EXIT.ok;
    } finally {
      ask.close();
    }
  },
};

async function readCredentials(file: string, command: string): Promise<{ key?: string; secret?: string }> {
  let parsed: { key?: unknown; secret?: unknown };
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8')) as typeof parsed;
  } catch (e) {
    throw new UsageError(`cannot read the credentials in ${file}: ${(e as Error).message}`, command);
  }
  if (typeof parsed.key !== 'string' || typeof parsed.secret !== 'string') throw new UsageError(`${file} has no "key" and "secret" strings`, command);
  return { key: parsed.key, secret: parsed.secret };
}

const account: CommandSpec = {
  args: '',
  summary: 'points, tier and features of the account',
  options: {},
  async run({ client, out }) {
    const p = await (await client()).profile();
    out(p, [
      `points: ${p.points}`,
      `tier: ${p.tier_label} (${p.tier_code})`,
      `next expiration: ${p.next_expiration_date ? `${p.next_expiration_points} points on ${p.next_expiration_date} UTC` : 'no points'}`,
      `features: ${p.available_features.join(', ')}`,
    ].join('\n'));
    return EXIT.ok;
  },
};

const create: CommandSpec = {
  args: 'FILE',
  summary: 'make an avatar from a photo or a head-mesh archive',
  options: {
    type: { type: 'string', value: 'TYPE', help: INPUT_TYPES.join(', '), default: 'photo for .jpg, .jpeg, .png; for a .zip, told by its files' },
    platforms: { type: 'string', value: 'LIST', help: `${PLATFORMS.join(', ')} (aliases zip, unityzip)`, default: NEW_AVATAR_DEFAULTS.platforms.join(',') },
    template: { type: 'string', value: 'VERSION', help: TEMPLATES.join(' or '), default: NEW_AVATAR_DEFAULTS.template },
    features: { type: 'string', value: 'LIST', help: `${AVATAR_FEATURES.join(', ')}, or none`, default: NEW_AVATAR_DEFAULTS.features.join(',') },
    wait: { type: 'boolean', help: 'wait until it is done, with its progress on stderr, and print the key then' },
    download: { type: 'string', value: 'DIR', help: "wait, then save each platform's package in DIR" },
    timeout: TIMEOUT,
  },
  notes: [
    'FILE is a photo (JPEG or PNG, at most 8 MP, one face looking at the camera) or a zip: mesh.obj with',
    'mesh.jpg (lofimesh_texture), or mesh.obj, mesh.png and photo.jpg (hifimesh_texture_photo).',
    'The defaults are those of the portal\'s upload form: with webviewer the portal shows the avatar in 3D,',
    'and with expressions "avatar execute blendshapes" works on it. Without --wait it prints the key at once.',
    'It costs the points of its input type ("avatar account" shows how many are left).',
  ],
  async run(ctx) {
    const { flags, client, out, wait } = ctx;
    const file = positional(ctx, 0, 'FILE');
    const type = str(flags, 'type');
    const platforms = [...new Set(commaList(str(flags, 'platforms') ?? NEW_AVATAR_DEFAULTS.platforms.join(',')).map((p) => PLATFORM_ALIASES[p] ?? oneOf<Platform>('platform', p, PLATFORM_NAMES, ctx.name)))];
    if (platforms.length === 0) throw new UsageError('--platforms is empty: choose at least one platform', ctx.name);
    const template = oneOf<Template>('--template', str(flags, 'template') ?? NEW_AVATAR_DEFAULTS.template, TEMPLATES, ctx.name);
    const featureList = str(flags, 'features') ?? NEW_AVATAR_DEFAULTS.features.join(',');
    const features = featureList === 'none' ? [] : commaList(featureList).map((f) => oneOf<Feature>('feature', f, AVATAR_FEATURES, ctx.name));
    const bytes = await readInput(file);
    const inputType = type ? oneOf<InputType>('--type', type, INPUT_TYPES, ctx.name) : guessInputType(file, bytes);
    if (!inputType) {
      throw new UsageError(`cannot tell what ${path.basename(file)} is: give --type photo (a JPEG or PNG), lofimesh_texture or hifimesh_texture_photo (a zip)`, ctx.name);
    }
    const c = await client();
    const key = await c.create(bytes, { inputType, platforms, template, features, fileName: path.basename(file) });
    ctx.report.key = key;
    const downloadDir = str(flags, 'download');
    if (!bool(flags, 'wait') && downloadDir === undefined) {
      out({ key }, key);
      return EXIT.ok;
    }
    const avatar = await wait(c, key);
    const files = [];
    if (downloadDir !== undefined) {
      await fs.mkdir(downloadDir, { recursive: true });
      for (const platform of platforms) files.push({ platform, ...(await c.downloadToFile(key, platform, { dir: downloadDir })) });
    }
    out({ key, status: avatar.status, files }, [key, ...files.map((f) => f.path)].join('\n'));
    return EXIT.ok;
  },
};

const status: CommandSpec = {
  args: 'KEY',
  summary: 'status of an avatar or a result (exit 2 while it is being made)',
  options: {},
  notes: ['Prints KEY, status and percent; a failed avatar also its error code and what to do. Exit 0 done, 1 failed, 2 pending or processing.'],
  async run(ctx) {
    const a = await (await ctx.client()).status(keyArgument(ctx, 0));
    ctx.out(a, `${a.key}\t${a.status}\t${a.percent}%`);
    if (a.status === 'error') throw new Reported(pipelineError(a));
    return a.status === 'done' ? EXIT.ok : EXIT.processing;
  },
};

/** Columns of `list`: every row has all of them, the last one may be empty. */
const LIST_COLUMNS: [string, (a: Avatar) => string][] = [
  ['KEY', (a) => a.key],
  ['STATUS', (a) => a.status],
  ['%', (a) => String(a.percent)],
  ['TYPE', (a) => a.type],
  ['TEMPLATE', (a) => a.template_version],
  ['CREATED (UTC)', (a) => a.created_at],
  ['NOTE', (a) => (a.status === 'error' ? `error ${a.error_code}` : a.is_sample ? 'sample' : '')],
];

/** Rows as text columns two spaces apart, each as wide as its widest cell (the last one unpadded). */
function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export function listTable(avatars: Avatar[]): string {
  return columns([LIST_COLUMNS.map(([title]) => title), ...avatars.map((a) => LIST_COLUMNS.map(([, cell]) => cell(a)))]);
}

const list: CommandSpec = {
  args: '',
  summary: "the account's avatars, newest first, then the samples",
  options: { limit: { type: 'string', value: 'N', help: 'at most N avatars', default: 'all of them' } },
  notes: ['A failed avatar shows "error CODE" in NOTE; "avatar status KEY" says what happened and what to do.'],
  async run(ctx) {
    const raw = str(ctx.flags, 'limit');
    const limit = raw === undefined ? Infinity : Number(raw);
    if (!(limit >= 0)) throw new UsageError(`--limit must be a number, got "${raw}"`, ctx.name);
    const avatars: Avatar[] = [];
    if (limit > 0) {
      for await (const a of (await ctx.client()).list()) {
        avatars.push(a);
        if (avatars.length >= limit) break;
      }
    }
    ctx.out(avatars, avatars.length ? listTable(avatars) : 'no avatars yet: "avatar new PHOTO" makes one');
    return EXIT.ok;
  },
};

const download: CommandSpec = {
  args: 'KEY',
  summary: 'save a package (maya, webviewer, unity) or a result',
  options: {
    type: { type: 'string', value: 'PLATFORM', help: `${PLATFORMS.join(', ')} (a result key takes any)`, default: 'maya' },
    out: { type: 'string', value: 'FILE', help: 'where to save it', default: 'the name the service gives, in the current folder' },
  },
  async run(ctx) {
    const key = keyArgument(ctx, 0);
    const type = str(ctx.flags, 'type') ?? 'maya';
    const saved = await (await ctx.client()).downloadToFile(key, PLATFORM_ALIASES[type] ?? type, str(ctx.flags, 'out') ?? { dir: '.' });
    ctx.out(saved, saved.path);
    return EXIT.ok;
  },
};

const preview: CommandSpec = {
  args: 'KEY',
  summary: 'save the front render (jpg, or png with a transparent background)',
  options: {
    png: { type: 'boolean', help: 'the png with a transparent background instead of the jpg' },
    out: { type: 'string', value: 'FILE', help: 'where to save it', default: 'the name the service gives, in the current folder' },
  },
  async run(ctx) {
    const key = keyArgument(ctx, 0);
    const fileType = bool(ctx.flags, 'png') ? 'png' : 'jpg';
    const c = await ctx.client();
    const link = await c.preview(key, fileType);
    const saved = await c.saveLinkToFile(link.location, str(ctx.flags, 'out') ?? { dir: '.', fallbackName: `${key.replace('@', '_')}-preview.${fileType}` });
    ctx.out({ ...saved, location: link.location, ttl: link.ttl }, saved.path);
    return EXIT.ok;
  },
};

const META_USAGE = 'get KEY [NAME] | set KEY NAME VALUE | set KEY NAME=VALUE... | unset KEY NAME';

const meta: CommandSpec = {
  args: META_USAGE,
  summary: "get, set and unset an avatar's meta entries",
  options: {},
  notes: ['get prints name=value lines; entries the pipeline wrote are marked (pipeline) and cannot be changed.'],
  async run(ctx) {
    const [action, key, ...rest] = ctx.args;
    if (!key || !['get', 'set', 'unset'].includes(action!)) throw new UsageError(`usage: avatar meta ${META_USAGE}`, ctx.name);
    ctx.report.key = key;
    const c = await ctx.client();
    if (action === 'get') {
      const entries = await c.meta.get(key, rest[0]);
      ctx.out(entries, entries.map((m) => `${m.name}=${m.value}${m.defined === undefined ? '' : `\t(${m.defined})`}`).join('\n'));
    } else if (action === 'set' && rest.length > 0 && rest.every((pair) => pair.includes('='))) {
      await c.meta.setMany(key, Object.fromEntries(rest.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])));
      ctx.out({ stt: 'OK' }, '');
    } else if (action === 'set' && rest.length === 2) {
      await c.meta.set(key, rest[0]!, rest[1]!);
      ctx.out({ stt: 'OK' }, '');
    } else if (action === 'unset' && rest.length === 1) {
      await c.meta.unset(key, rest[0]!);
      ctx.out({ stt: 'OK' }, '');
    } else {
      throw new UsageError(`usage: avatar meta ${META_USAGE}`, ctx.name);
    }
    return EXIT.ok;
  },
};

const remove: CommandSpec = {
  args: 'KEY',
  summary: 'delete an avatar with its results and files',
  options: {},
  async run(ctx) {
    await (await ctx.client()).delete(keyArgument(ctx, 0));
    ctx.out({ stt: 'OK' }, '');
    return EXIT.ok;
  },
};

const isObj = (file: string) => path.extname(file).toLowerCase() === '.obj';

/** A vertex FILE: an OBJ mesh (its `v` lines), or the caller's positions as little-endian float32 triples. */
async function readVertexFile(file: string): Promise<{ positions: Float32Array; obj?: string }> {
  const bytes = await readInput(file);
  if (!isObj(file)) return { positions: decodeVertices(bytes) };
  const obj = new TextDecoder().decode(bytes);
  return { positions: objPositions(obj), obj };
}

const EXECUTE_USAGE = 'blendshapes KEY | vertexdeform KEY FILE.obj|FILE.bin';

const execute: CommandSpec = {
  args: EXECUTE_USAGE,
  summary: 'blendshape export or vertex deformation on a finished avatar',
  options: {
    units: { type: 'string', value: 'UNIT', help: 'm or cm: the units of the vertex file (and of the result)', default: 'cm' },
    'mirror-x': { type: 'boolean', help: 'your engine mirrors the X axis' },
    wait: { type: 'boolean', help: 'wait until the result is done, then print its key' },
    out: { type: 'string', value: 'FILE', help: 'wait, then save the result (.obj keeps the input OBJ with new positions)' },
    timeout: TIMEOUT,
  },
  notes: [
    'blendshapes needs an avatar made with the expressions feature (the default of "avatar new").',
    'Without --wait or --out it prints the result key (KEY@CHILD), which works with status and download.',
  ],
  async run(ctx) {
    const { flags, out, wait } = ctx;
    const [what] = ctx.args;
    if (what !== 'blendshapes' && what !== 'vertexdeform') throw new UsageError(`usage: avatar execute ${EXECUTE_USAGE}`, ctx.name);
    const key = keyArgument(ctx, 1);
    const units = str(flags, 'units') ?? 'cm';
    if (units !== 'm' && units !== 'cm') throw new UsageError(`--units must be m or cm, got "${units}"`, ctx.name);
    const options: VertexOptions = { unitsPerMeter: units === 'm' ? 1 : 100, mirrorX: bool(flags, 'mirror-x') };
    const target = str(flags, 'out');
    const input = what === 'vertexdeform' ? await readVertexFile(positional(ctx, 2, 'FILE')) : undefined;
    if (input && target !== undefined && isObj(target) && !input.obj) throw new UsageError('an .obj result needs an .obj input', ctx.name);
    const c = await ctx.client();
    const resultKey = input ? await c.executeVertexDeform(key, input.positions, options) : await c.executeBlendshapes(key);
    ctx.report.key = resultKey;
    if (!bool(flags, 'wait') && target === undefined) {
      out({ key: resultKey }, resultKey);
      return EXIT.ok;
    }
    const result = await wait(c, resultKey);
    if (target === undefined) {
      out({ key: resultKey, status: result.status }, resultKey);
    } else if (input) {
      const positions = await c.vertexDeformResult(resultKey, options);
      await fs.writeFile(target, input.obj && isObj(target) ? replaceObjPositions(input.obj, positions) : encodeVertices(positions));
      out({ key: resultKey, status: result.status, path: target }, `${resultKey}\n${target}`);
    } else {
      const saved = await c.downloadToFile(resultKey, 'maya', target);
      out({ key: resultKey, status: result.status, ...saved }, `${resultKey}\n${saved.path}`);
    }
    return EXIT.ok;
  },
};

const tts: CommandSpec = {
  args: '"TEXT"',
  summary: 'text to speech: an audio file and its viseme marks',
  options: {
    voice: { type: 'string', value: 'NAME', help: 'a voice of "avatar voices"', default: "the service's default voice" },
    format: { type: 'string', value: 'FORMAT', help: AUDIO_FORMATS.join(', '), default: 'mp3' },
    type: { type: 'string', value: 'TYPE', help: 'text or ssml', default: 'text' },
    out: { type: 'string', value: 'BASENAME', help: 'writes BASENAME.FORMAT and BASENAME.marks.json', default: 'speech' },
  },
  notes: ['The marks are JSON lines: sentence, word and viseme marks with times in milliseconds.'],
  async run(ctx) {
    const { flags, out } = ctx;
    const text = positional(ctx, 0, 'TEXT');
    const format = oneOf<SpeechOutput>('--format', str(flags, 'format') ?? 'mp3', AUDIO_FORMATS, ctx.name);
    const rawType = str(flags, 'type');
    const type = rawType === undefined ? undefined : oneOf<'text' | 'ssml'>('--type', rawType, ['text', 'ssml'], ctx.name);
    const base = str(flags, 'out') ?? 'speech';
    const c = await ctx.client();
    const links = await c.tts(text, { mode: [format, 'json'], type, voice: str(flags, 'voice') });
    const audioLink = links.audio_location ?? links.audioURL;
    const marksLink = links.visemes_location ?? links.marksURL;
    if (!audioLink || !marksLink) throw new AvatarApiError(-1, 'the service returned no audio or no marks link', 200);
    const audio = await c.saveLinkToFile(audioLink, `${base}.${format}`);
    const marks = await c.saveLinkToFile(marksLink, `${base}.marks.json`);
    out({ audio: audio.path, audio_type: links.audio_type, marks: marks.path, visemes_type: links.visemes_type }, `${audio.path}\n${marks.path}`);
    return EXIT.ok;
  },
};

const voices: CommandSpec = {
  args: '',
  summary: 'the voices tts accepts',
  options: {
    language: { type: 'string', value: 'TAG', help: 'only voices of this language, e.g. en, en-GB, de', default: 'every language' },
    cloud: { type: 'boolean', help: "list the cloud voice names (Amazon Polly's) that are accepted too, and the voice each speaks with" },
  },
  notes: ['Names are case-insensitive. The default voice is marked (default).'],
  async run(ctx) {
    const list = await (await ctx.client()).voices();
    const language = str(ctx.flags, 'language')?.toLowerCase();
    const matches = (tag: string) => !language || tag.toLowerCase() === language || tag.toLowerCase().startsWith(`${language}-`);
    const cloud = bool(ctx.flags, 'cloud');
    const found = (cloud ? list.cloud_names : list.voices).filter((v) => matches(v.language));
    const note = (v: (typeof found)[number]) => ('voice' in v ? `speaks with ${v.voice}` : v.name === list.default_voice ? '(default)' : '');
    ctx.out(found, found.length ? columns(found.map((v) => [v.name, v.language, v.gender, note(v)])) : `no voice for language "${language}"`);
    return found.length ? EXIT.ok : EXIT.error;
  },
};

/** Every command, in the order the help lists them. */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  init, account, new: create, status, list, download, preview, meta, delete: remove, execute, tts, voices,
};
