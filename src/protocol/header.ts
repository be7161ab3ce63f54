/** The spec's `auth_method`. */
export type DigestMethod = 'sha256' | 'sha1';

/** The Authorization header line of the spec, shared by every signer (node:crypto and WebCrypto). */
export function formatAuthorization(method: DigestMethod, publicKey: string, nonce: string, digest: string): string {
  return `ServiceDigest auth_method="${method}", auth_key="${publicKey}", auth_nonce="${nonce}", auth_digest="${digest}"`;
}
