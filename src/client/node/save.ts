import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

/** The bare file name of a Content-Disposition header, if it gives one. */
export function suggestedFileName(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/.exec(disposition);
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended[1].trim()) : (plain?.[1] ?? plain?.[2]);
  } catch {
    name = plain?.[1] ?? plain?.[2];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}

/**
 * Streams a response body to a file, written aside and renamed so that no partial file is left.
 * `target` is a file path, or a folder: the file then gets the name of the Content-Disposition, else `fallbackName`.
 */
export async function saveResponse(response: Response, target: string | { dir: string; fallbackName: string }): Promise<{ path: string; bytes: number }> {
  if (!response.body) throw new Error('the response has no body');
  const suggested = suggestedFileName(response.headers.get('content-disposition'));
  const filePath = typeof target === 'string' ? target : path.join(target.dir, suggested ?? target.fallbackName);
  const partial = `${filePath}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), createWriteStream(partial));
    await rename(partial, filePath);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return { path: filePath, bytes: (await stat(filePath)).size };
}
