import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The service's own secrets: the master key that seals application secrets, and the keys that sign links and list codes. */
export interface ServiceKeys {
  master: Buffer;
  links: Buffer;
  lists: Buffer;
}

/**
 * Read from MASTER_KEY / LINK_KEY / LIST_KEY (base64, 32 bytes) when set, which every process of a
 * scaled-out deployment must share; otherwise kept in DATA_DIR/keys.json (mode 0600), made on first start.
 */
export function loadKeys(dataDir: string, env: NodeJS.ProcessEnv = process.env): ServiceKeys {
  const file = path.join(dataDir, 'keys.json');
  let stored: Record<string, string> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  const fromEnv = { master: env.MASTER_KEY, links: env.LINK_KEY, lists: env.LIST_KEY };
  let changed = false;
  const pick = (name: keyof ServiceKeys) => {
    const value = fromEnv[name] ?? stored[name];
    if (value) {
      const key = Buffer.from(value, 'base64');
      if (key.length !== 32) throw new Error(`the ${name} key must be 32 bytes of base64`);
      return key;
    }
    const fresh = crypto.randomBytes(32);
    stored[name] = fresh.toString('base64');
    changed = true;
    return fresh;
  };
  const keys = { master: pick('master'), links: pick('links'), lists: pick('lists') };
  if (changed) fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return keys;
}
