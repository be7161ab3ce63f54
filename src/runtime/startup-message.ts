import type { DemoAccount } from './bootstrap.ts';

const LOOPBACK_OR_ANY = ['0.0.0.0', '127.0.0.1', '[::]', '[::1]'];

/** The address a person on this machine opens: a wildcard or loopback address is reached as localhost. */
export function portalUrl(listening: string): string {
  const url = new URL(listening);
  if (LOOPBACK_OR_ANY.includes(url.hostname)) url.hostname = 'localhost';
  return url.href;
}

/**
 * What `npm start` tells the person who started it, beside the JSON log (LOG_FORMAT=text): the demo
 * account's credentials once, when this start made them, then where the portal is and how to sign in.
 */
export function startupLines(
  listening: string,
  { role, made, demo }: { role: 'api' | 'worker' | 'all'; made?: DemoAccount; demo?: { email: string; file: string } },
): string[] {
  const url = portalUrl(listening);
  if (role === 'worker') return [`Worker running jobs; health and metrics at ${url}healthz and ${url}metrics`];
  const lines = made
    ? [
        `Demo account ${made.accountId} with 1000 points.`,
        `  key:    ${made.key}`,
        `  secret: ${made.secret}`,
        `  portal: ${made.email} / ${made.password}`,
        `  (also in ${made.file})`,
      ]
    : [];
  const signIn = demo
    ? `sign in as ${demo.email} (the password is in ${demo.file})`
    : 'sign in with a login from "npm run admin -- create-login"';
  return [...lines, `Portal: ${url} - ${signIn}`];
}
