import crypto from 'node:crypto';
import type { LinkCheck, LinkGrant, LinkVerifier } from '../../domain/ports.ts';

/**
 * Links for the embedded file store: the grant travels in the URL, signed with HMAC-SHA256 under a
 * key only the service holds, so any change to it (path, expiry, name) breaks the signature.
 */
export function linkSigner(key: Buffer): LinkVerifier & { sign(grant: LinkGrant): string } {
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  return {
    sign(grant: LinkGrant): string {
      const body = Buffer.from(JSON.stringify([grant.path, grant.fileName, grant.contentType, grant.expires])).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    verify(token: string, nowSeconds: number): LinkCheck {
      const dot = token.indexOf('.');
      if (dot <= 0) return { ok: false, reason: 'invalid' };
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(body));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
      let fields: unknown;
      try {
        fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      if (!Array.isArray(fields) || fields.length !== 4) return { ok: false, reason: 'invalid' };
      const [path, fileName, contentType, expires] = fields as [string, string, string, number];
      if (expires <= nowSeconds) return { ok: false, reason: 'expired' };
      return { ok: true, grant: { path, fileName, contentType, expires } };
    },
  };
}

export type LinkSigner = ReturnType<typeof linkSigner>;
