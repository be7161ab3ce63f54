import { AVATARS, SPEECH, avatarDir, speechDir } from '../domain/layout.ts';
import type { AvatarStore, Files } from '../domain/ports.ts';

type Sweepable = Pick<Files, 'children' | 'deletePrefix'>;

/**
 * Embedded start-up: an avatar folder without an avatar row is what a crash leaves between storing
 * an upload and recording the avatar (or between deleting the row and the files). Returns how many went.
 */
export async function sweepOrphanAvatars(files: Sweepable, avatars: Pick<AvatarStore, 'getAvatar'>): Promise<number> {
  let removed = 0;
  for (const { name: key } of await files.children(AVATARS)) {
    if (await avatars.getAvatar(key)) continue;
    await files.deletePrefix(avatarDir(key));
    removed++;
  }
  return removed;
}

/** Speech results are only reachable through their links: remove them once every link has expired, on any file store. */
export async function sweepOldSpeech(files: Sweepable, olderThanMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const { name: id, modifiedAt } of await files.children(SPEECH)) {
    if (now - modifiedAt < olderThanMs) continue;
    await files.deletePrefix(speechDir(id));
    removed++;
  }
  return removed;
}
