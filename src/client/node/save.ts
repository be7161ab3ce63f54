import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

/**
 * Streams a response body to a file, written aside and renamed so that no partial file is left.
 * `target` is a file path, or a folder with the name to use when `suggested` is absent.
 */
export async function saveBody(body: globalThis.ReadableStream<Uint8Array>, target: string | { dir: string; fallbackName: string }, suggested: string | undefined): Promise<{ path: string; bytes: number }> {
  const filePath = typeof target === 'string' ? target : path.join(target.dir, suggested ?? target.fallbackName);
  const partial = `${filePath}.part`;
  try {
    await pipeline(Readable.fromWeb(body as ReadableStream<Uint8Array>), createWriteStream(partial));
    await rename(partial, filePath);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return { path: filePath, bytes: (await stat(filePath)).size };
}
