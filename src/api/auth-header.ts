import type { DigestMethod } from '../protocol/digest.ts';

export interface AuthParams {
  method: DigestMethod;
  key: string;
  nonce: string;
  digest: string;
}

/**
 * Parses `ServiceDigest name="value", ...` leniently, as real clients write it: parameters in any
 * order, quoted or bare values, spaces around `=` and after `,` optional, unknown names ignored.
 * Returns undefined when the header is not a usable ServiceDigest header.
 */
export function parseAuthorization(header: string | undefined): AuthParams | undefined {
  if (!header) return undefined;
  const m = /^\s*ServiceDigest\s+(.*)$/is.exec(header);
  if (!m) return undefined;
  const params = new Map<string, string>();
  const rest = m[1]!;
  let i = 0;
  while (i < rest.length) {
    while (i < rest.length && (rest[i] === ' ' || rest[i] === ',' || rest[i] === '\t')) i++;
    if (i >= rest.length) break;
    const nameMatch = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*/.exec(rest.slice(i));
    if (!nameMatch) return undefined;
    i += nameMatch[0].length;
    let value: string;
    if (rest[i] === '"') {
      const end = rest.indexOf('"', i + 1);
      if (end < 0) return undefined;
      value = rest.slice(i + 1, end);
      i = end + 1;
    } else {
      const end = rest.slice(i).search(/[,\s]/);
      value = end < 0 ? rest.slice(i) : rest.slice(i, i + end);
      i += value.length;
    }
    params.set(nameMatch[1]!.toLowerCase(), value);
  }
  const method = (params.get('auth_method') ?? 'sha256').toLowerCase();
  const key = params.get('auth_key');
  const nonce = params.get('auth_nonce');
  const digest = params.get('auth_digest');
  if ((method !== 'sha256' && method !== 'sha1') || !key || !nonce || !digest) return undefined;
  return { method, key, nonce, digest: digest.toLowerCase() };
}
