import type * as NodeDigest from '../protocol/digest.ts';
import { importNodeOnly } from './node-only.ts';

import { formatAuthorization, type DigestMethod } from '../protocol/header.ts';

export type { DigestMethod };

/** Produces the `Authorization` header for one request; `uri` is the path as called, without host and query. */
export type Signer = (uri: string) => Promise<string>;

export interface Credentials {
  key: string;
  secret: string;
  method?: DigestMethod;
}

const isNode = typeof globalThis.process === 'object' && typeof globalThis.process.versions?.node === 'string';

/** In Node the header comes from the server's own implementation in src/protocol/digest.ts (node:crypto). */
export function nodeSigner({ key, secret, method = 'sha256' }: Credentials): Signer {
  let digest: Promise<typeof NodeDigest> | undefined;
  return async (uri) => {
    digest ??= importNodeOnly<typeof NodeDigest>('../protocol/digest.ts');
    return (await digest).authorizationHeader(key, secret, uri, method);
  };
}

const encoder = new TextEncoder();
const webHash = { sha256: 'SHA-256', sha1: 'SHA-1' } as const;
const toHex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The same recipe as serviceDigest in src/protocol/digest.ts, on WebCrypto (asynchronous, available in
 * browsers and in Node 20): HMAC(secret, hash(key + secret) + hash(key + nonce + uri)), lowercase hex.
 * test/unit/client/sign.test.ts checks it against the Node implementation.
 */
export async function webCryptoDigest(method: DigestMethod, key: string, secret: string, nonce: string, uri: string): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const hash = async (text: string) => toHex(await subtle.digest(webHash[method], encoder.encode(text)));
  const hmacKey = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: webHash[method] }, false, ['sign']);
  const message = (await hash(key + secret)) + (await hash(key + nonce + uri));
  return toHex(await subtle.sign('HMAC', hmacKey, encoder.encode(message)));
}

export function webCryptoSigner({ key, secret, method = 'sha256' }: Credentials): Signer {
  return async (uri) => {
    const nonce = toHex(globalThis.crypto.getRandomValues(new Uint8Array(16)).buffer);
    return formatAuthorization(method, key, nonce, await webCryptoDigest(method, key, secret, nonce, uri));
  };
}

/** node:crypto in Node, WebCrypto elsewhere. */
export function defaultSigner(credentials: Credentials): Signer {
  return isNode ? nodeSigner(credentials) : webCryptoSigner(credentials);
}
