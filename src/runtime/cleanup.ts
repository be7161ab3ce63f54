import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AvatarStore } from '../domain/ports.ts';

/**
 * Embedded start-up: an avatar directory without an avatar row is what a crash leaves between storing
 * an upload and recording the avatar (or between deleting the row and the files). Returns how many went.
 */
export async function sweepOrphanAvatars(filesRoot: string, avatars: Pick<AvatarStore, 'getAvatar'>): Promise<number> {
  const dir = path.join(filesRoot, 'avatars');
  let removed = 0;
  for (const key of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (await avatars.getAvatar(key)) continue;
    await fsp.rm(path.join(dir, key), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Speech results are only reachable through their links: remove them once every link has expired. */
export async function sweepOldSpeech(filesRoot: string, olderThanMs: number, now = Date.now()): Promise<number> {
  const dir = path.join(filesRoot, 'speech');
  let removed = 0;
  for (const id of await fsp.readdir(dir).catch(() => [] as string[])) {
    const st = await fsp.stat(path.join(dir, id)).catch(() => undefined);
    if (!st || now - st.mtimeMs < olderThanMs) continue;
    await fsp.rm(path.join(dir, id), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
