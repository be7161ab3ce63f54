import type { Accounts } from './accounts.ts';
import { PLATFORM_ALIASES, has } from './catalog.ts';
import { AVATAR_FEATURES, INPUT_TYPES, PLATFORMS, TEMPLATES, type Feature, type InputType, type Platform } from '../model/product.ts';
import { errors } from './errors.ts';
import { isKey, newKey } from './ids.ts';
import { inspectPhoto } from './input-check.ts';
import { readMeshInput } from '../formats/read/mesh-input.ts';
import { avatarDir, inputPath, modelPath, packagePath, previewPath, resultInputPath, resultPath } from './layout.ts';
import type { ListCodes } from './list-codes.ts';
import { parseVertexFile } from '../formats/read/vertex-file.ts';
import type { Account, Avatar, AvatarStore, Files, MetaEntry, Result } from './ports.ts';

export interface AvatarSettings {
  prices: Record<string, number>;
  linkTtl: number;
  pageSize: number;
  /** Seconds a client should wait between `update` calls. */
  updateTtl: number;
  /** Identifies this process in `created_by`. */
  instance: string;
  /**
   * Free bytes an upload must leave on the file store: the headroom that lets the database, the
   * jobs' outputs and deletions go on when the disk is nearly full.
   */
  minFreeBytes: number;
}

export interface NewAvatarRequest {
  inputType: string;
  platforms: string;
  template: string;
  features: string;
}

/** What a status or a list reports of an avatar: the avatar, its meta and, for a result key, the result. */
export interface AvatarReport {
  avatar: Avatar;
  meta: MetaEntry[];
  result?: Result;
}

/** A page of an account's avatar list, or its changes since an update code; the codes continue the list. */
export interface AvatarListing {
  total: number;
  samples: number;
  /** Seconds an update code stays good. */
  ttl: number;
  /** Code of the changes after this answer. */
  updateCode: string;
  /** Codes of the neighbouring pages (not in an update). */
  afterCode?: string;
  beforeCode?: string;
  avatars: AvatarReport[];
  /** Keys removed since the update code (only in an update). */
  removedKeys?: string[];
}

/** Comma separated list: trimmed, empty items dropped, duplicates kept once, order kept. */
const commaList = (s: string) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];

export const META_LIMITS = { nameLength: 64, valueLength: 1024, clientEntries: 100 } as const;
const META_NAME = /^[\p{L}\p{N}_.:\-]+$/u;

/** Avatars of an account: creation, status, listing, links, meta, on-demand requests and deletion. */
export class Avatars {
  constructor(
    private readonly store: Omit<AvatarStore, 'setAvatarProgress' | 'setResultProgress'>,
    private readonly files: Pick<Files, 'deletePrefix' | 'exists' | 'freeBytes' | 'link' | 'put'>,
    private readonly accounts: Accounts,
    private readonly codes: ListCodes,
    private readonly settings: AvatarSettings,
  ) {}

  /** Validates the request fully, stores the upload, takes the points and queues the job, in that order. */
  async create(account: Account, req: NewAvatarRequest, upload: Uint8Array | undefined, now = Date.now()): Promise<string> {
    const inputType = req.inputType;
    if (!has(INPUT_TYPES, inputType)) throw errors.uploadMode(inputType);
    const platforms = parsePlatforms(req.platforms);
    if (!has(TEMPLATES, req.template)) throw errors.invalidTemplate(req.template);
    const features = parseFeatures(req.features);
    this.accounts.requireFeature(account, inputType);
    for (const f of features) this.accounts.requireFeature(account, f);
    if (!upload) throw errors.noFile();
    await checkUpload(inputType, upload);

    if (this.files.freeBytes && (await this.files.freeBytes()) < upload.length + this.settings.minFreeBytes) throw errors.storageFull();
    const key = newKey();
    await this.files.put(inputPath(key), upload);
    const avatar: Avatar = {
      key, accountId: account.id, isPublic: false, isSample: false, errorCode: 0, template: req.template, features, platforms,
      inputType, createdBy: this.settings.instance, percent: 0, status: 'pending', createdAt: now, updatedAt: now, charged: 0,
    };
    try {
      await this.store.createAvatar({ avatar, price: this.settings.prices[inputType] ?? 0 }, now);
    } catch (e) {
      await this.files.deletePrefix(avatarDir(key));
      throw e;
    }
    return key;
  }

  /** A sample avatar: owned by the samples account, free, visible to everyone. */
  async createSample(samplesAccount: string, photo: Uint8Array, now = Date.now()): Promise<string> {
    const key = newKey();
    await this.files.put(inputPath(key), photo);
    await this.store.createAvatar({
      avatar: {
        key, accountId: samplesAccount, isPublic: true, isSample: true, errorCode: 0, template: '2.0', features: [...AVATAR_FEATURES],
        platforms: [...PLATFORMS], inputType: 'photo', createdBy: this.settings.instance, percent: 0, status: 'pending', createdAt: now, updatedAt: now, charged: 0,
      },
      price: 0,
    }, now);
    return key;
  }

  async status(account: Account, key: string): Promise<AvatarReport> {
    const { avatar, result, meta } = await this.find(account, key, 'read', true);
    return { avatar, meta: meta ?? [], ...(result ? { result } : {}) };
  }

  /** The platforms an avatar was made for (of a result key, its avatar's): what can be downloaded once it is done. */
  async platforms(account: Account, key: string): Promise<Platform[]> {
    return (await this.find(account, key, 'read')).avatar.platforms;
  }

  /** Points an avatar costs, by input type. */
  prices(): Readonly<Record<string, number>> {
    return this.settings.prices;
  }

  async remove(account: Account, key: string, now = Date.now()) {
    const { avatar, result } = await this.find(account, key, 'write');
    if (result) throw errors.forbidden('a result is deleted with its avatar');
    await this.store.deleteAvatar(avatar.key, now);
    await this.files.deletePrefix(avatarDir(avatar.key));
  }

  async list(account: Account, kind?: string, code?: string): Promise<AvatarListing> {
    const counts = await this.store.countList(account.id);
    const base = { total: counts.total, samples: counts.samples, ttl: this.settings.updateTtl };
    if (kind === 'update') {
      const u = code ? this.codes.readUpdate(code) : undefined;
      if (!u || u.account !== account.id) throw errors.invalidCursor();
      const changes = await this.store.changesSince(account.id, u.since);
      return {
        ...base,
        updateCode: this.codes.update({ account: account.id, since: changes.until }),
        avatars: await this.reports(changes.avatars),
        removedKeys: changes.removedKeys,
      };
    }
    let after = null;
    let before = null;
    if (kind === 'cursor') {
      const c = code ? this.codes.readCursor(code) : undefined;
      if (!c || c.account !== account.id) throw errors.invalidCursor();
      if (c.dir === 'after') after = c.at;
      else before = c.at;
    } else if (kind !== undefined) {
      throw errors.invalidListRequest(kind);
    }
    const since = await this.store.currentChange();
    const page = await this.store.listPage(account.id, after, before, this.settings.pageSize);
    const first = page.avatars[0]?.position;
    const last = page.avatars.at(-1)?.position;
    return {
      ...base,
      ...(page.hasMoreAfter && last ? { afterCode: this.codes.cursor({ account: account.id, dir: 'after', at: last }) } : {}),
      ...(page.hasMoreBefore && first ? { beforeCode: this.codes.cursor({ account: account.id, dir: 'before', at: first }) } : {}),
      updateCode: this.codes.update({ account: account.id, since }),
      avatars: await this.reports(page.avatars),
    };
  }

  /** Download link for a package (or for a result, whatever `type` says). Without `type`: the first platform the avatar was made for. */
  async downloadLink(account: Account, key: string, type: string | undefined, baseUrl: string) {
    const { avatar, result } = await this.find(account, key, 'read');
    if (result) {
      if (type !== undefined) parsePlatform(type);
      ready(result);
      const path = resultPath(avatar.key, result.childKey, result.kind);
      const fileName = result.kind === 'blendshapes' ? `${avatar.key}_blendshapes.zip` : `${avatar.key}_deformed.bin`;
      const contentType = result.kind === 'blendshapes' ? 'application/zip' : 'application/service-vertex';
      return this.link(path, fileName, contentType, baseUrl);
    }
    const platform = type === undefined ? (avatar.platforms[0] as Platform) : parsePlatform(type);
    if (!avatar.platforms.includes(platform)) throw errors.assetType(`${platform}: this avatar was made for ${avatar.platforms.join(', ')}; platforms are chosen when an avatar is made, so make a new one with ${platform}`);
    ready(avatar);
    return this.link(packagePath(avatar.key, platform), `${avatar.key}_${platform}.zip`, 'application/zip', baseUrl);
  }

  async previewLink(account: Account, key: string, filetype: string | undefined, baseUrl: string) {
    const type = filetype ?? 'jpg';
    if (type !== 'jpg' && type !== 'png') throw errors.assetType(`preview ${type} (jpg or png)`);
    const { avatar } = await this.find(account, key, 'read');
    ready(avatar);
    return this.link(previewPath(avatar.key, type), `${avatar.key}_preview.${type}`, type === 'jpg' ? 'image/jpeg' : 'image/png', baseUrl);
  }

  async getMeta(account: Account, key: string, name?: string) {
    const { avatar } = await this.find(account, key, 'read');
    const meta = await this.store.getMeta(avatar.key);
    return name === undefined ? meta : meta.filter((m) => m.name === name);
  }

  async setMeta(account: Account, key: string, values: Record<string, unknown>, now = Date.now()) {
    const { avatar } = await this.find(account, key, 'write');
    const entries = Object.entries(values);
    if (entries.length === 0) throw errors.validation('no meta entries given');
    const current = await this.store.getMeta(avatar.key);
    for (const [name, value] of entries) {
      if (typeof value !== 'string') throw errors.validation(`meta value of "${name}" must be a string`);
      checkMetaName(name);
      if (value.length > META_LIMITS.valueLength) throw errors.validation(`meta value of "${name}" longer than ${META_LIMITS.valueLength} characters`);
      if (current.some((m) => m.name === name && m.defined !== undefined)) throw errors.forbidden(`meta "${name}" is written by the pipeline`);
    }
    const clientNames = new Set([...current.filter((m) => m.defined === undefined).map((m) => m.name), ...entries.map(([n]) => n)]);
    if (clientNames.size > META_LIMITS.clientEntries) throw errors.validation(`more than ${META_LIMITS.clientEntries} meta entries`);
    await this.store.setMeta(avatar.key, entries.map(([name, value]) => ({ name, value: value as string })), now);
  }

  async unsetMeta(account: Account, key: string, name: string, now = Date.now()) {
    const { avatar } = await this.find(account, key, 'write');
    const entry = (await this.store.getMeta(avatar.key)).find((m) => m.name === name);
    if (entry?.defined !== undefined) throw errors.forbidden(`meta "${name}" is written by the pipeline`);
    await this.store.unsetMeta(avatar.key, name, now);
  }

  async executeBlendshapes(account: Account, key: string, now = Date.now()) {
    this.accounts.requireFeature(account, 'blendshapes');
    const avatar = await this.executable(account, key);
    if (!avatar.features.includes('expressions')) throw errors.onDemandUnavailable('blendshapes need an avatar made with the expressions feature; make a new avatar with expressions');
    return this.queueResult(avatar, 'blendshapes', undefined, now);
  }

  async executeVertexDeform(account: Account, key: string, body: Uint8Array, now = Date.now()) {
    this.accounts.requireFeature(account, 'vertexdeform');
    const avatar = await this.executable(account, key);
    if (!(await this.files.exists(modelPath(avatar.key)))) throw errors.noDeformation();
    parseVertexFile(body);
    return this.queueResult(avatar, 'vertexdeform', body, now);
  }

  private async executable(account: Account, key: string) {
    const { avatar, result } = await this.find(account, key, 'write');
    if (result) throw errors.invalidKey();
    if (avatar.status !== 'done') throw errors.notDone(avatar.status);
    return avatar;
  }

  private async queueResult(avatar: Avatar, kind: Result['kind'], input: Uint8Array | undefined, now: number) {
    const childKey = newKey();
    if (input) await this.files.put(resultInputPath(avatar.key, childKey), input);
    await this.store.createResult({
      avatarKey: avatar.key, childKey, kind, status: 'pending', percent: 0, errorCode: 0, createdBy: this.settings.instance, createdAt: now, updatedAt: now,
    });
    return `${avatar.key}@${childKey}`;
  }

  private async link(path: string, fileName: string, contentType: string, baseUrl: string) {
    if (!(await this.files.exists(path))) throw errors.assetNotReady();
    const ttl = this.settings.linkTtl;
    return { ttl, location: await this.files.link(path, { ttl, fileName, contentType, baseUrl }) };
  }

  private async reports(avatars: Avatar[]): Promise<AvatarReport[]> {
    const meta = await this.store.getMetaOf(avatars.map((a) => a.key));
    return avatars.map((avatar) => ({ avatar, meta: meta.get(avatar.key)! }));
  }

  /**
   * Resolves an avatar or result key for an account. Samples can be read by everyone but changed by
   * no one; another account's avatar is reported as not in this account. With `withMeta`, the avatar's
   * meta comes in the same read.
   */
  private async find(account: Account, key: string, access: 'read' | 'write', withMeta = false): Promise<{ avatar: Avatar; result?: Result; meta?: MetaEntry[] }> {
    const [avatarKey, childKey, extra] = key.split('@');
    if (!avatarKey || !isKey(avatarKey) || extra !== undefined || (childKey !== undefined && !isKey(childKey))) throw errors.invalidKey();
    const found: { avatar?: Avatar; meta?: MetaEntry[] } = (withMeta ? await this.store.getAvatarWithMeta(avatarKey) : { avatar: await this.store.getAvatar(avatarKey) }) ?? {};
    const { avatar, meta } = found;
    if (!avatar) throw errors.avatarNotFound();
    if (avatar.accountId !== account.id) {
      if (!avatar.isSample) throw errors.notInAccount();
      if (access === 'write') throw errors.forbidden('sample avatars cannot be changed');
    }
    if (childKey === undefined) return { avatar, meta };
    const result = await this.store.getResult(avatarKey, childKey);
    if (!result) throw errors.avatarNotFound();
    return { avatar, result, meta };
  }
}

/** The files of an avatar or result exist once it is done: not yet while it is pending or processing, never after an error. */
function ready(made: Pick<Avatar, 'status' | 'errorCode'>) {
  if (made.status === 'error') throw errors.assetNeverMade(`processing failed with ${made.errorCode}, so nothing was made`);
  if (made.status !== 'done') throw errors.assetNotReady();
}

function parsePlatform(p: string): Platform {
  const name = PLATFORM_ALIASES[p] ?? p;
  if (!has(PLATFORMS, name)) throw errors.assetType(p);
  return name;
}

function parseFeatures(s: string): Feature[] {
  return commaList(s).map((f) => {
    if (!has(AVATAR_FEATURES, f)) throw errors.unknownFeature(f);
    return f;
  });
}

function parsePlatforms(s: string): Platform[] {
  const list = commaList(s);
  if (list.length === 0) throw errors.malformed('target_platform is empty; choose at least one of maya, webviewer, unity');
  const out: Platform[] = [];
  for (const p of list) {
    const name = PLATFORM_ALIASES[p] ?? p;
    if (!has(PLATFORMS, name)) throw errors.malformed(`unknown target_platform "${p}" (maya, webviewer, unity, zip, unityzip)`);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** Everything about the upload that can be known without running the pipeline. */
async function checkUpload(inputType: InputType, file: Uint8Array) {
  if (file.length === 0) throw errors.fileInput('the file part is empty');
  if (inputType === 'photo') {
    inspectPhoto(file);
    return;
  }
  const input = await readMeshInput(inputType, file);
  inspectPhoto(input.texture);
  if (input.photo) inspectPhoto(input.photo);
}

function checkMetaName(name: string) {
  if (name.length === 0 || name.length > META_LIMITS.nameLength || !META_NAME.test(name)) {
    throw errors.validation(`meta name "${name.slice(0, 80)}" must be 1-${META_LIMITS.nameLength} letters, digits or _ . : -`);
  }
}
