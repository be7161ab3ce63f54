import crypto from 'node:crypto';
import { formatAuthorization, type DigestMethod } from './header.ts';

/** The `ServiceDigest` request signature of the spec, shared by the server and the client library. */
export type { DigestMethod };

const hex = (method: DigestMethod, text: string) => crypto.createHash(method).update(text, 'utf8').digest('hex');

const finish = (method: DigestMethod, hmacKey: string | crypto.KeyObject, hash1: string, publicKey: string, nonce: string, uri: string) =>
  crypto.createHmac(method, hmacKey).update(hash1 + hex(method, publicKey + nonce + uri), 'utf8').digest('hex');

/** digest = HMAC(secret, hash(key + secret) + hash(key + nonce + uri)), lowercase hexadecimal throughout. */
export function serviceDigest(method: DigestMethod, publicKey: string, secret: string, nonce: string, uri: string): string {
  return finish(method, secret, hex(method, publicKey + secret), publicKey, nonce, uri);
}

/**
 * serviceDigest for many requests of one key: the first hash and the HMAC key depend on the key alone,
 * so a verifier computes them once.
 */
export function digestSigner(method: DigestMethod, publicKey: string, secret: string): (nonce: string, uri: string) => string {
  const hash1 = hex(method, publicKey + secret);
  const hmacKey = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  return (nonce, uri) => finish(method, hmacKey, hash1, publicKey, nonce, uri);
}

/** The Authorization header a client sends for one request; `uri` is the path as called, without host and query. */
export function authorizationHeader(publicKey: string, secret: string, uri: string, method: DigestMethod = 'sha256', nonce = crypto.randomBytes(16).toString('hex')): string {
  return formatAuthorization(method, publicKey, nonce, serviceDigest(method, publicKey, secret, nonce, uri));
}
