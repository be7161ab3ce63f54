import type { DigestMethod } from '../protocol/digest.ts';

export interface AuthParams {
  method: DigestMethod;
  key: string;
  nonce: string;
  digest: string;
}

// One `name = value` parameter after optional separators; a value is quoted or bare (up to a comma or space).
const PARAM = /[ \t,]*([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"([^"]*)"|(?!")([^,\s]*))/y;
const SEPARATORS_ONLY = /^[ \t,]*$/;

/**
 * Parses `ServiceDigest name="value", ...` leniently, as real clients write it: parameters in any
 * order, quoted or bare values, spaces around `=` and after `,` optional, unknown names ignored.
 * Returns undefined when the header is not a usable ServiceDigest header.
 */
export function parseAuthorization(header: string | undefined): AuthParams | undefined {
  if (!header) return undefined;
  const m = /^\s*ServiceDigest\s+/i.exec(header);
  if (!m) return undefined;
  let method = 'sha256';
  let key: string | undefined;
  let nonce: string | undefined;
  let digest: string | undefined;
  PARAM.lastIndex = m[0].length;
  for (;;) {
    const at = PARAM.lastIndex;
    const p = PARAM.exec(header);
    if (!p) {
      if (!SEPARATORS_ONLY.test(header.slice(at))) return undefined;
      break;
    }
    const value = p[2] ?? p[3]!;
    switch (p[1]!.toLowerCase()) {
      case 'auth_method': method = value.toLowerCase(); break;
      case 'auth_key': key = value; break;
      case 'auth_nonce': nonce = value; break;
      case 'auth_digest': digest = value; break;
    }
  }
  if ((method !== 'sha256' && method !== 'sha1') || !key || !nonce || !digest) return undefined;
  return { method, key, nonce, digest: digest.toLowerCase() };
}
