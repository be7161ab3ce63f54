import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../domain/errors.ts';
import type { Account, AccountStore, AdmissionStore, AppKey } from '../domain/ports.ts';
import { digestSigner, type DigestMethod } from '../protocol/digest.ts';
import { parseAuthorization } from './auth-header.ts';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account;
    appKey: string;
  }
}

const sameHex = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

function pathAsCalled(url: string) {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Requests are counted per application key in fixed windows of this many seconds (shared by every API process through the Repo). */
export const RATE_WINDOW_SECONDS = 10;

/** How long a looked-up key and its account are reused: a revocation takes effect within this time. */
export const CREDENTIAL_CACHE_MS = 1000;

interface Credentials {
  at: number;
  key: AppKey | undefined;
  account: Account | undefined;
  signers: Partial<Record<DigestMethod, (nonce: string, uri: string) => string>>;
}

/**
 * Verifies the ServiceDigest of a request. The nonce is spent only after the digest checks out, so
 * that nobody without the secret can burn a client's nonces.
 */
/** The parts of the store that admit a request. */
export interface AdmissionStores {
  accounts: Pick<AccountStore, 'getAccount' | 'getKey'>;
  admissions: Pick<AdmissionStore, 'admit'>;
}

export function authenticator(store: AdmissionStores, ratePerSecond: number) {
  const perWindow = ratePerSecond * RATE_WINDOW_SECONDS;
  // Status polls dominate the traffic: the key and account rows are read once a second per key, not per
  // request, and the key's part of the digest is computed once with them.
  const cache = new Map<string, Credentials>();
  const credentials = async (publicKey: string, now: number) => {
    const hit = cache.get(publicKey);
    if (hit && now - hit.at < CREDENTIAL_CACHE_MS) return hit;
    const key = await store.accounts.getKey(publicKey);
    const entry: Credentials = { at: now, key, account: key && (await store.accounts.getAccount(key.accountId)), signers: {} };
    if (cache.size >= 10_000) cache.clear();
    cache.set(publicKey, entry);
    return entry;
  };
  return async function authenticate(request: FastifyRequest) {
    const auth = parseAuthorization(request.headers.authorization);
    if (!auth) throw errors.noAuth();
    const now = Date.now();
    const entry = await credentials(auth.key, now);
    const { key, account } = entry;
    if (!key || !account) throw errors.unknownKey();
    if (key.revokedAt !== null) throw errors.revokedKey();
    const sign = (entry.signers[auth.method] ??= digestSigner(auth.method, auth.key, key.secret));
    const uri = pathAsCalled(request.raw.url ?? request.url);
    let ok = sameHex(sign(auth.nonce, uri), auth.digest);
    if (!ok) {
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(uri);
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined && decoded !== uri) ok = sameHex(sign(auth.nonce, decoded), auth.digest);
    }
    if (!ok) throw errors.authFail();
    const windowMs = RATE_WINDOW_SECONDS * 1000;
    const windowStart = now - (now % windowMs);
    const { fresh, hits } = await store.admissions.admit(auth.key, auth.nonce, now, windowStart);
    if (!fresh) throw errors.replay();
    if (perWindow > 0 && hits > perWindow) throw errors.rateLimited(perWindow, RATE_WINDOW_SECONDS, Math.ceil((windowStart + windowMs - now) / 1000));
    request.account = account;
    request.appKey = auth.key;
  };
}
