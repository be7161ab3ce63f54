import type { ArchiveEntry } from './archive-entry.ts';
import { InputCodes, InputError } from './input-error.ts';
import { listZip } from './zip-read.ts';

export interface ArchiveLimits {
  /** Most entries (files and folders) an archive may list. */
  maxEntries: number;
  /** Most bytes all files may unpack to, by their declared sizes; unpacking also stops there. */
  maxTotalBytes: number;
}

/** Mesh inputs are an OBJ and one or two images: generous, but far from what a bomb needs. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxEntries: 256, maxTotalBytes: 512 * 1024 * 1024 };

/** Unpacked files by lower-case `/`-separated path, relative to the one top-level folder if all share one. */
export type ArchiveFiles = Map<string, Uint8Array>;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];
const RAR = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07];
const MAX_NAME = 255;

const invalid = (why: string) => new InputError(InputCodes.badArchive, `archive is empty or invalid: ${why}`);
const badName = (name: string, why: string) =>
  new InputError(InputCodes.badFileName, `invalid file name ${JSON.stringify(name)}: ${why}`);

/**
 * Reads a zip or RAR archive in memory. Refuses (InputError): 30006 not a zip or RAR; 30005 empty,
 * corrupt, encrypted, too many entries or too large unpacked (checked on the declared sizes before
 * unpacking, and unpacking stops at them); 40101 absolute paths, `..`, links, control characters,
 * over-long or clashing names. macOS metadata (`__MACOSX/`, `.DS_Store`) is left out.
 */
export async function readArchive(data: Uint8Array, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ArchiveFiles> {
  const entries = await listArchive(data);
  if (entries.length > limits.maxEntries) throw invalid(`more than ${limits.maxEntries} entries`);
  const files = entries.filter((e) => {
    const path = checkedPath(e.name);
    if (e.link) throw badName(e.name, 'links are not accepted');
    return !e.directory && !isMetadata(path);
  });
  if (files.length === 0) throw invalid('no files');
  const total = files.reduce((sum, e) => sum + e.size, 0);
  if (total > limits.maxTotalBytes) throw invalid(`unpacks to ${total} bytes, over the limit of ${limits.maxTotalBytes}`);

  const paths = stripCommonFolder(files.map((e) => checkedPath(e.name)));
  const out: ArchiveFiles = new Map();
  for (const [i, entry] of files.entries()) {
    const key = paths[i].toLowerCase();
    if (out.has(key)) throw badName(entry.name, 'another entry has the same name');
    out.set(key, await entry.read());
  }
  return out;
}

/** The archive kind from its signature, or a refusal. */
export function archiveKind(data: Uint8Array): 'zip' | 'rar' {
  if (startsWith(data, ZIP)) return 'zip';
  if (startsWith(data, ZIP_EMPTY) || data.length === 0) throw invalid('no files');
  if (startsWith(data, RAR)) return 'rar';
  throw new InputError(InputCodes.notArchive, 'archive must be zip or rar');
}

async function listArchive(data: Uint8Array): Promise<ArchiveEntry[]> {
  if (archiveKind(data) === 'zip') return listZip(data);
  const { listRar } = await import('./rar-read.ts');
  return listRar(data);
}

function startsWith(data: Uint8Array, sig: number[]): boolean {
  return data.length >= sig.length && sig.every((b, i) => data[i] === b);
}

/** The entry name as a relative `/` path, or a refusal (40101). */
function checkedPath(name: string): string {
  if (name.length === 0 || name.length > MAX_NAME) throw badName(name, 'empty or too long');
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badName(name, 'control characters');
  const path = name.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) throw badName(name, 'absolute path');
  const parts = path.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..')) throw badName(name, 'climbs out of the archive');
  if (parts.some((p) => p === '' || p === '.')) throw badName(name, 'empty path segment');
  return parts.join('/');
}

function isMetadata(path: string): boolean {
  return path.startsWith('__MACOSX/') || path.split('/').pop() === '.DS_Store';
}

/** Drops the first folder when every file is inside the same one. */
function stripCommonFolder(paths: string[]): string[] {
  const first = paths[0].split('/')[0].toLowerCase();
  const shared = paths.every((p) => p.includes('/') && p.split('/')[0].toLowerCase() === first);
  return shared ? paths.map((p) => p.slice(p.indexOf('/') + 1)) : paths;
}
