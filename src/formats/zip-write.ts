import { zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** Already-compressed formats are stored; deflating them again costs time and saves nothing. */
const STORED = /\.(png|jpe?g|glb)$/i;
/** A fixed time stamp keeps a package byte-identical for the same avatar. */
const MTIME = new Date('2000-01-01T00:00:00Z');

export function writeZip(entries: ZipEntry[]): Uint8Array {
  const files: Zippable = {};
  for (const e of entries) {
    if (e.name in files) throw new Error(`duplicate zip entry ${e.name}`);
    files[e.name] = [e.data, { level: STORED.test(e.name) ? 0 : 6 }];
  }
  return zipSync(files, { mtime: MTIME });
}
