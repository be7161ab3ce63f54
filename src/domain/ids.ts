import crypto from 'node:crypto';

/** 128 random bits as 32 lowercase hex digits: avatar keys, child keys, account ids. */
export const newKey = () => crypto.randomBytes(16).toString('hex');
export const isKey = (s: string) => /^[0-9a-f]{32}$/.test(s);

/** An application's public key and its secret. */
export const newAppKey = () => ({ publicKey: `ak_${crypto.randomBytes(12).toString('hex')}`, secret: crypto.randomBytes(32).toString('base64url') });

// Status polls format the same few timestamps over and over; Date formatting is a measurable part of one.
const formatted = new Map<number, string>();

/** `YYYY-MM-DD hh:mm:ss` in UTC, the spec's timestamp format. */
export function formatTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = formatted.get(second);
  if (text === undefined) {
    text = new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
    if (formatted.size >= 4096) formatted.clear();
    formatted.set(second, text);
  }
  return text;
}
