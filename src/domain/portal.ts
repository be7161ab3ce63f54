import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { Accounts } from './accounts.ts';
import { ServiceError } from './errors.ts';
import type { Account, AccountStore, AdmissionStore, AppKey, PortalSessionStore } from './ports.ts';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** scrypt cost: N = 2^15, r = 8 takes about 0.3 s and 32 MiB per check on this 2-core machine (OWASP asks 2^17 at 128 MiB; 2^15 keeps concurrent logins within memory and time). */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;
const scryptOptions = (N: number, r: number, p: number) => ({ N, r, p, maxmem: 256 * N * r });

export interface PortalSettings {
  /** Lifetime of a session, ms. */
  sessionMs: number;
  /** Login attempts are counted in fixed windows of this length, ms. */
  loginWindowMs: number;
  /** Attempts allowed per e-mail address and per client address in one window. */
  attemptsPerEmail: number;
  attemptsPerIp: number;
}

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = { sessionMs: 12 * 3600_000, loginWindowMs: 15 * 60_000, attemptsPerEmail: 10, attemptsPerIp: 50 };

/** The portal's errors, in the spec's vocabulary (docs/PORTAL.md lists them). */
export const portalErrors = {
  badCredentials: () =>
    new ServiceError(14730, 401, "incorrect credentials: unknown e-mail or wrong password; check both (the demo login is in the service's DATA_DIR/demo-credentials.json)"),
  notSignedIn: () => new ServiceError(11111, 401, 'user is not authenticated; sign in first'),
  sessionExpired: () => new ServiceError(11100, 401, 'error in session: the session has expired; sign in again'),
  csrf: () => new ServiceError(33201, 403, 'action not authorized: missing or wrong CSRF token; reload the page'),
  tooManyAttempts: (retryAfterSeconds: number) =>
    new ServiceError(14711, 429, `error authenticating user: too many sign-in attempts; retry in ${retryAfterSeconds} s`, retryAfterSeconds),
  keyNotInAccount: () => new ServiceError(33201, 400, 'action not authorized: the key is not one of this account'),
  invalidLogin: (why: string) => new ServiceError(14700, 400, `error creating user: ${why}`),
};

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SCRYPT.saltLength);
  const hash = await scrypt(password, salt, SCRYPT.keyLength, scryptOptions(SCRYPT.N, SCRYPT.r, SCRYPT.p));
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time check against a stored `scrypt$N$r$p$salt$hash`; the parameters travel with the hash so they can be raised later. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, scryptOptions(Number(n), Number(r), Number(p)));
  return crypto.timingSafeEqual(actual, expected);
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');
/** The CSRF token is derived from the session's secret id, so it needs no storage and dies with the session. */
export const csrfToken = (sessionId: string) => sha256(`csrf\0${sessionId}`);
const sessionHash = (sessionId: string) => sha256(`session\0${sessionId}`);
const normalEmail = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Hash checked when the e-mail is unknown, so that a wrong address takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;

export interface SignedIn {
  account: Account;
  email: string;
  csrf: string;
}

/** The parts of the store the portal uses. */
export interface PortalStores {
  accounts: Pick<AccountStore, 'getAccount' | 'getKey' | 'listKeys' | 'revokeKey'>;
  admissions: Pick<AdmissionStore, 'hitRate'>;
  portalSessions: PortalSessionStore;
}

/** Portal users (e-mail + password per account) and their sessions. Plain logic over the store's ports. */
export class Portal {
  constructor(
    private readonly store: PortalStores,
    private readonly accounts: Accounts,
    private readonly settings: PortalSettings = DEFAULT_PORTAL_SETTINGS,
  ) {}

  async createLogin(accountId: string, email: string, password: string, now = Date.now()) {
    const address = normalEmail(email);
    if (!EMAIL.test(address) || address.length > 254) throw portalErrors.invalidLogin(`not an e-mail address: ${email}`);
    if (password.length < 8 || password.length > 1024) throw portalErrors.invalidLogin('the password must have 8 to 1024 characters');
    if (!(await this.store.accounts.getAccount(accountId))) throw portalErrors.invalidLogin(`no account ${accountId}`);
    if (await this.store.portalSessions.getPortalLogin(address)) throw portalErrors.invalidLogin(`${address} already has a login`);
    await this.store.portalSessions.addPortalLogin({ email: address, accountId, passwordHash: await hashPassword(password), createdAt: now });
    return { email: address, accountId };
  }

  /** Counts the attempt against the e-mail and the client address, checks the password, and opens a session. */
  async login(email: string, password: string, clientIp: string, now = Date.now()): Promise<{ sessionId: string; expiresAt: number } & SignedIn> {
    const address = normalEmail(email);
    const w = this.settings.loginWindowMs;
    const windowStart = now - (now % w);
    const [byEmail, byIp] = await Promise.all([
      this.store.admissions.hitRate(`portal-login-email:${address}`, windowStart),
      this.store.admissions.hitRate(`portal-login-ip:${clientIp}`, windowStart),
    ]);
    if (byEmail > this.settings.attemptsPerEmail || byIp > this.settings.attemptsPerIp) {
      throw portalErrors.tooManyAttempts(Math.ceil((windowStart + w - now) / 1000));
    }
    const login = await this.store.portalSessions.getPortalLogin(address);
    const ok = await verifyPassword(password, login?.passwordHash ?? (await (decoyHash ??= hashPassword(crypto.randomUUID()))));
    const account = login && ok ? await this.store.accounts.getAccount(login.accountId) : undefined;
    if (!login || !account) throw portalErrors.badCredentials();
    await this.store.portalSessions.deleteExpiredPortalSessions(now);
    const sessionId = crypto.randomBytes(32).toString('base64url');
    const expiresAt = now + this.settings.sessionMs;
    await this.store.portalSessions.addPortalSession({ idHash: sessionHash(sessionId), email: address, accountId: account.id, createdAt: now, expiresAt });
    return { sessionId, expiresAt, account, email: address, csrf: csrfToken(sessionId) };
  }

  /** The signed-in user of a session cookie value. */
  async session(sessionId: string | undefined, now = Date.now()): Promise<SignedIn> {
    if (!sessionId) throw portalErrors.notSignedIn();
    const s = await this.store.portalSessions.getPortalSession(sessionHash(sessionId));
    if (!s) throw portalErrors.notSignedIn();
    if (s.expiresAt <= now) {
      await this.store.portalSessions.deletePortalSession(s.idHash);
      throw portalErrors.sessionExpired();
    }
    const account = await this.store.accounts.getAccount(s.accountId);
    if (!account) throw portalErrors.notSignedIn();
    return { account, email: s.email, csrf: csrfToken(sessionId) };
  }

  async logout(sessionId: string) {
    await this.store.portalSessions.deletePortalSession(sessionHash(sessionId));
  }

  /** The account's application keys without their secrets, newest first. */
  async keys(account: Account) {
    const keys = await this.store.accounts.listKeys(account.id);
    return keys.reverse().map((k) => ({ key: k.publicKey, created_at: k.createdAt, revoked_at: k.revokedAt }));
  }

  async createKey(account: Account, now = Date.now()): Promise<AppKey> {
    return this.accounts.createKey(account.id, now);
  }

  async revokeKey(account: Account, publicKey: string, now = Date.now()) {
    const key = await this.store.accounts.getKey(publicKey);
    if (!key || key.accountId !== account.id) throw portalErrors.keyNotInAccount();
    await this.store.accounts.revokeKey(publicKey, now);
  }
}
