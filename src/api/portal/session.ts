import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { portalErrors, type Portal, type SignedIn } from '../../domain/portal.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    portalUser: SignedIn;
    portalSessionId: string;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const same = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A browser names the page that sent a request in `Origin`; one from another site is refused even
 * before the session is looked at (defence in depth next to SameSite and the CSRF token).
 */
export function checkOrigin(request: FastifyRequest) {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) throw portalErrors.csrf();
}

/** onRequest hook of the signed-in routes: the session from the cookie, and the CSRF token on every state-changing request. */
export function sessionGuard(portal: Portal) {
  return async function guard(request: FastifyRequest) {
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    const user = await portal.session(id);
    if (!SAFE_METHODS.has(request.method)) {
      checkOrigin(request);
      const token = request.headers[CSRF_HEADER];
      if (typeof token !== 'string' || !same(token, user.csrf)) throw portalErrors.csrf();
    }
    request.portalUser = user;
    request.portalSessionId = id!;
  };
}
