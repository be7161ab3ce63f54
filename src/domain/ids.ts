import crypto from 'node:crypto';

/** 128 random bits as 32 lowercase hex digits: avatar keys, child keys, account ids. */
export const newKey = () => crypto.randomBytes(16).toString('hex');
export const isKey = (s: string) => /^[0-9a-f]{32}$/.test(s);

/** An application's public key and its secret. */
export const newAppKey = () => ({ publicKey: `ak_${crypto.randomBytes(12).toString('hex')}`, secret: crypto.randomBytes(32).toString('base64url') });

/** `YYYY-MM-DD hh:mm:ss` in UTC, the spec's timestamp format. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
