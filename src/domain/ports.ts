/**
 * What the domain needs from storage and jobs. `store/` implements these for the embedded default
 * (SQLite + local files) and for PostgreSQL + S3; the domain never knows which.
 * Times are milliseconds since the epoch.
 */
import type { Readable } from 'node:stream';
import type { Feature, InputType, Platform, TemplateVersion } from '../model/product.ts';

export type AvatarStatus = 'pending' | 'processing' | 'error' | 'done';
export type ResultKind = 'blendshapes' | 'vertexdeform';
export type JobKind = 'avatar' | ResultKind;

/** The account that owns the sample avatars every account sees. */
export const SAMPLES_ACCOUNT = 'samples';

export interface Account {
  id: string;
  name: string;
  tierCode: string;
  tierLabel: string;
  features: string[];
  createdAt: number;
}

export interface AppKey {
  publicKey: string;
  accountId: string;
  secret: string;
  createdAt: number;
  revokedAt: number | null;
}

/** A portal sign-in: e-mail (lower case) and scrypt password hash of one account's user. */
export interface PortalLogin {
  email: string;
  accountId: string;
  passwordHash: string;
  createdAt: number;
}

/** A portal session; only the hash of its cookie value is stored. */
export interface PortalSession {
  idHash: string;
  email: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
}

export interface PointBatch {
  id: number;
  accountId: string;
  granted: number;
  remaining: number;
  expiresAt: number;
}

export interface Avatar {
  key: string;
  accountId: string;
  isPublic: boolean;
  isSample: boolean;
  errorCode: number;
  template: TemplateVersion;
  features: Feature[];
  platforms: Platform[];
  inputType: InputType;
  createdBy: string;
  percent: number;
  status: AvatarStatus;
  createdAt: number;
  updatedAt: number;
  /** Points taken at creation (0 for samples); refunded when the pipeline fails. */
  charged: number;
}

/** The output of an on-demand feature, addressed as `<avatar key>@<child key>`. */
export interface Result {
  avatarKey: string;
  childKey: string;
  kind: ResultKind;
  status: AvatarStatus;
  percent: number;
  errorCode: number;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface MetaEntry {
  name: string;
  value: string;
  /** Set on entries the pipeline wrote; absent on the client's own. */
  defined?: string;
}

export interface Job {
  id: number;
  kind: JobKind;
  avatarKey: string;
  childKey: string | null;
  attempts: number;
}

/** One page of keyset pagination over (is_sample, seq) descending. */
export interface ListPosition {
  sample: boolean;
  seq: number;
}

export interface ListPage {
  avatars: (Avatar & { position: ListPosition })[];
  hasMoreAfter: boolean;
  hasMoreBefore: boolean;
}

export interface Changes {
  avatars: Avatar[];
  removedKeys: string[];
  /** The change counter to hand out for the next update request. */
  until: number;
}

export interface NewAvatar {
  avatar: Avatar;
  /** Points to take, from the batches that expire first. */
  price: number;
}

/** Accounts, their application keys and their points. */
export interface AccountStore {
  createAccount(a: Account): Promise<void>;
  updateAccount(id: string, patch: Partial<Pick<Account, 'name' | 'tierCode' | 'tierLabel' | 'features'>>): Promise<void>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  addKey(k: AppKey): Promise<void>;
  getKey(publicKey: string): Promise<AppKey | undefined>;
  listKeys(accountId: string): Promise<AppKey[]>;
  revokeKey(publicKey: string, at: number): Promise<boolean>;
  grantPoints(accountId: string, points: number, expiresAt: number, now: number): Promise<void>;
  /** Unexpired batches with points left, earliest expiry first. */
  liveBatches(accountId: string, now: number): Promise<PointBatch[]>;
}

/** What admits a request: its nonce spent once, its key's requests counted per rate window. */
export interface AdmissionStore {
  /**
   * Spends the nonce of one authenticated request and counts the request in its key's rate window, in
   * one step: `fresh` is false when the nonce was used before; `hits` is the window's count so far.
   */
  admit(publicKey: string, nonce: string, now: number, windowStart: number): Promise<{ fresh: boolean; hits: number }>;
  /** Counts one request of the key in the window starting at `windowStart`; returns the window's count so far. */
  hitRate(publicKey: string, windowStart: number): Promise<number>;
  /** Forgets nonces and rate windows older than `time`. */
  forgetNoncesBefore(time: number): Promise<void>;
}

/** Portal sign-ins (e-mail and password of one account's user) and their sessions. */
export interface PortalSessionStore {
  /** Fails (unique violation) when the e-mail already has a login. */
  addPortalLogin(l: PortalLogin): Promise<void>;
  getPortalLogin(email: string): Promise<PortalLogin | undefined>;
  addPortalSession(s: PortalSession): Promise<void>;
  getPortalSession(idHash: string): Promise<PortalSession | undefined>;
  deletePortalSession(idHash: string): Promise<void>;
  deleteExpiredPortalSessions(now: number): Promise<void>;
}

/** Avatars with their meta and their on-demand results; creating either queues its job in the same step. */
export interface AvatarStore {
  /** Atomically: take the price from live batches (or throw notEnoughPoints), insert the avatar, queue its job. */
  createAvatar(n: NewAvatar, now: number): Promise<void>;
  getAvatar(key: string): Promise<Avatar | undefined>;
  /** The avatar and its meta (as getMeta orders it) in one read, for status polls. */
  getAvatarWithMeta(key: string): Promise<{ avatar: Avatar; meta: MetaEntry[] } | undefined>;
  /** Move an avatar's status; on `error` with `refund`, give its points back exactly once. */
  setAvatarProgress(key: string, patch: { status?: AvatarStatus; percent?: number; errorCode?: number; createdBy?: string }, now: number, refund?: boolean): Promise<void>;
  deleteAvatar(key: string, now: number): Promise<void>;
  listPage(accountId: string, after: ListPosition | null, before: ListPosition | null, limit: number): Promise<ListPage>;
  countList(accountId: string): Promise<{ total: number; samples: number }>;
  changesSince(accountId: string, since: number): Promise<Changes>;
  currentChange(): Promise<number>;

  // meta
  getMeta(key: string): Promise<MetaEntry[]>;
  /** getMeta of many avatars at once, keyed by avatar key (an avatar without meta: an empty list). */
  getMetaOf(keys: string[]): Promise<Map<string, MetaEntry[]>>;
  /** Replaces entries of the same names in one transaction. */
  setMeta(key: string, entries: MetaEntry[], now: number): Promise<void>;
  unsetMeta(key: string, name: string, now: number): Promise<boolean>;

  // on-demand results
  createResult(r: Result): Promise<void>;
  getResult(avatarKey: string, childKey: string): Promise<Result | undefined>;
  setResultProgress(avatarKey: string, childKey: string, patch: { status?: AvatarStatus; percent?: number; errorCode?: number }, now: number): Promise<void>;
}

/** The queue of jobs the workers claim under a lease. */
export interface JobQueue {
  /** Takes the oldest job that is queued or whose lease ran out. */
  claimJob(worker: string, now: number, leaseMs: number): Promise<Job | undefined>;
  renewJob(id: number, worker: string, now: number, leaseMs: number): Promise<boolean>;
  /** Puts a job this worker holds back in the queue without counting the run as an attempt. */
  releaseJob(id: number, worker: string): Promise<void>;
  finishJob(id: number): Promise<void>;
  /** Makes every running job claimable at once (embedded start-up: no other worker can be alive). */
  releaseAllJobs(): Promise<void>;
  /** Jobs still queued or running (for readiness and metrics). */
  queueDepth(): Promise<number>;
}

/** The whole store, as the composition root opens it; every other consumer takes only the parts (or methods) it uses. */
export interface Repo {
  accounts: AccountStore;
  admissions: AdmissionStore;
  portalSessions: PortalSessionStore;
  avatars: AvatarStore;
  jobs: JobQueue;
  close(): Promise<void>;
}

export interface StoredFile {
  size: number;
  stream: Readable;
}

/** A file's bytes: whole, or the parts it is made of in order (a zip archive as its headers and bodies, never copied into one array). */
export type FileBytes = Uint8Array | readonly Uint8Array[];

/** Files of avatars: uploads, packages, previews, results. Paths are relative, `/`-separated. */
export interface Files {
  /** Writes atomically: readers see the whole file or nothing. */
  put(path: string, data: FileBytes): Promise<void>;
  /** Moves a finished local file in (atomically). */
  putFromFile(path: string, localPath: string): Promise<void>;
  get(path: string): Promise<Uint8Array | undefined>;
  open(path: string): Promise<StoredFile | undefined>;
  exists(path: string): Promise<boolean>;
  /** Removes every file under the prefix. */
  deletePrefix(prefix: string): Promise<void>;
  /** The names directly under a folder, each with the last time a file under it was written (ms): what the sweeps go through. */
  children(folder: string): Promise<{ name: string; modifiedAt: number }[]>;
  /** Bytes still free for new files; absent for stores without a practical limit (object storage). */
  freeBytes?(): Promise<number>;
  /** A pre-authorized URL for the file that works without the Authorization header until it expires. */
  link(path: string, opts: { ttl: number; fileName: string; contentType: string; baseUrl: string }): Promise<string>;
}

/** What a signed link grants: one stored file, until a time, served under a name and type. */
export interface LinkGrant {
  path: string;
  fileName: string;
  contentType: string;
  /** Seconds since the epoch. */
  expires: number;
}

export type LinkCheck = { ok: true; grant: LinkGrant } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks the links of a file store whose links this service serves itself (the embedded one). */
export interface LinkVerifier {
  verify(token: string, nowSeconds: number): LinkCheck;
}
