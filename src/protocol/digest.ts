import crypto from 'node:crypto';
import { formatAuthorization, type DigestMethod } from './header.ts';

/** The `ServiceDigest` request signature of the spec, shared by the server and the client library. */
export type { DigestMethod };

const hex = (method: DigestMethod, text: string) => crypto.createHash(method).update(text, 'utf8').digest('hex');

/** digest = HMAC(secret, hash(key + secret) + hash(key + nonce + uri)), lowercase hexadecimal throughout. */
export function serviceDigest(method: DigestMethod, publicKey: string, secret: string, nonce: string, uri: string): string {
  const hash1 = hex(method, publicKey + secret);
  const hash2 = hex(method, publicKey + nonce + uri);
  return crypto.createHmac(method, secret).update(hash1 + hash2, 'utf8').digest('hex');
}

/** The Authorization header a client sends for one request; `uri` is the path as called, without host and query. */
export function authorizationHeader(publicKey: string, secret: string, uri: string, method: DigestMethod = 'sha256', nonce = crypto.randomBytes(16).toString('hex')): string {
  return formatAuthorization(method, publicKey, nonce, serviceDigest(method, publicKey, secret, nonce, uri));
}
