import crypto from 'node:crypto';

/**
 * Application secrets must be readable to verify HMAC digests, so they are kept encrypted
 * (AES-256-GCM under the service's master key) rather than hashed: a copy of the database alone
 * does not reveal them.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function secretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  // Every authenticated request opens its key's secret: remember what was opened (bounded).
  const opened = new Map<string, string>();
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', masterKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      const plain = openSealed(masterKey, sealed);
      if (opened.size >= 10_000) opened.clear();
      opened.set(sealed, plain);
      return plain;
    },
  };
}

function openSealed(masterKey: Buffer, sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('unreadable sealed secret');
  const decipher = crypto.createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
