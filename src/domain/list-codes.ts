import crypto from 'node:crypto';
import type { ListPosition } from './ports.ts';

/**
 * The codes inside the list's `next`, `previous` and `update` URIs. They carry a position (or a change
 * counter) and the account they were issued to, signed so that a client can neither forge nor reuse
 * another account's code. Positions are keys of the ordering, not offsets, so pages stay correct when
 * avatars are added or deleted between requests.
 */
export type CursorCode = { account: string; dir: 'after' | 'before'; at: ListPosition };
export type UpdateCode = { account: string; since: number };

export function listCodes(key: Buffer) {
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url').slice(0, 22);
  const encode = (fields: (string | number)[]) => {
    const body = Buffer.from(fields.join('~')).toString('base64url');
    return `${body}.${mac(body)}`;
  };
  const decode = (code: string): string[] | undefined => {
    const [body, sig] = code.split('.');
    if (!body || !sig) return undefined;
    const given = Buffer.from(sig);
    const expected = Buffer.from(mac(body));
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    return Buffer.from(body, 'base64url').toString('utf8').split('~');
  };
  return {
    cursor: (c: CursorCode) => encode(['c', c.account, c.dir, c.at.sample ? 1 : 0, c.at.seq]),
    update: (u: UpdateCode) => encode(['u', u.account, u.since]),
    readCursor(code: string): CursorCode | undefined {
      const f = decode(code);
      if (!f || f.length !== 5 || f[0] !== 'c' || (f[2] !== 'after' && f[2] !== 'before')) return undefined;
      const seq = Number(f[4]);
      if (!Number.isSafeInteger(seq)) return undefined;
      return { account: f[1]!, dir: f[2], at: { sample: f[3] === '1', seq } };
    },
    readUpdate(code: string): UpdateCode | undefined {
      const f = decode(code);
      if (!f || f.length !== 3 || f[0] !== 'u') return undefined;
      const since = Number(f[2]);
      if (!Number.isSafeInteger(since)) return undefined;
      return { account: f[1]!, since };
    },
  };
}

export type ListCodes = ReturnType<typeof listCodes>;
