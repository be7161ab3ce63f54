import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Files } from '../../domain/ports.ts';
import type { LinkSigner } from './link-signer.ts';

/**
 * Files under one directory. Writes go to a temporary name in the same directory and are renamed
 * into place, so a reader (or a crash) never sees half a file.
 */
export function localFiles(root: string, signer: LinkSigner): Files {
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });

  const resolve = (rel: string) => {
    const full = path.resolve(root, rel);
    if (!full.startsWith(root + path.sep)) throw new Error(`path escapes the file store: ${rel}`);
    return full;
  };

  const place = async (rel: string, write: (tmp: string) => Promise<void>) => {
    const full = resolve(rel);
    await fsp.mkdir(path.dirname(full), { recursive: true });
    const tmp = path.join(tmpDir, crypto.randomBytes(8).toString('hex'));
    try {
      await write(tmp);
      await fsp.rename(tmp, full);
      // The rename lives in the directory: synced too, or a crash after the job is marked done could lose the file.
      const dir = await fsp.open(path.dirname(full), 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  };

  return {
    async put(rel, data) {
      await place(rel, async (tmp) => {
        const fh = await fsp.open(tmp, 'w');
        try {
          // One call: writeFile writes 512 KiB per call, each call a turn of the calling thread's event loop, so that
          // a large file was slow to write while that thread computed. Parts (a zip's headers and bodies) go as they
          // are, not copied into one array first: libuv writes them all, in as many system calls as the kernel
          // takes, and stops short only at an error after some of them were written.
          const parts = data instanceof Uint8Array ? [data] : data;
          const size = parts.reduce((sum, part) => sum + part.length, 0);
          const { bytesWritten } = await fh.writev(parts);
          if (bytesWritten !== size) throw new Error(`${rel}: ${bytesWritten} of ${size} bytes written`);
          await fh.sync();
        } finally {
          await fh.close();
        }
      });
    },
    async putFromFile(rel, localPath) {
      await place(rel, async (tmp) => {
        try {
          await fsp.rename(localPath, tmp);
        } catch {
          await fsp.copyFile(localPath, tmp);
          await fsp.rm(localPath, { force: true });
        }
      });
    },
    async get(rel) {
      try {
        return new Uint8Array(await fsp.readFile(resolve(rel)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async open(rel) {
      try {
        const full = resolve(rel);
        const st = await fsp.stat(full);
        return { size: st.size, stream: fs.createReadStream(full) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async exists(rel) {
      try {
        await fsp.access(resolve(rel));
        return true;
      } catch {
        return false;
      }
    },
    async deletePrefix(prefix) {
      await fsp.rm(resolve(prefix), { recursive: true, force: true });
    },
    // A folder's own time moves when an entry is added or removed; the files of one folder here are written together.
    async children(folder) {
      const out: { name: string; modifiedAt: number }[] = [];
      for (const name of await fsp.readdir(resolve(folder)).catch(() => [] as string[])) {
        const st = await fsp.stat(resolve(`${folder}/${name}`)).catch(() => undefined);
        if (st) out.push({ name, modifiedAt: st.mtimeMs });
      }
      return out;
    },
    async freeBytes() {
      const st = await fsp.statfs(root);
      return st.bavail * st.bsize;
    },
    async link(rel, { ttl, fileName, contentType, baseUrl }) {
      const expires = Math.floor(Date.now() / 1000) + ttl;
      return `${baseUrl}/files/${signer.sign({ path: rel, fileName, contentType, expires })}`;
    },
  };
}

/**
 * Removes temporary files a crash left behind. With no age, all of them: safe only while no write is
 * under way (an embedded service at start-up). With an age, only files older than that: for a
 * directory that several processes share, where another process may be writing right now.
 */
export async function sweepTemporaryFiles(root: string, olderThanMs?: number, now = Date.now()) {
  const dir = path.join(root, '.tmp');
  if (olderThanMs === undefined) {
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.mkdir(dir, { recursive: true });
    return;
  }
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const st = await fsp.stat(file).catch(() => undefined);
    if (st && now - st.mtimeMs > olderThanMs) await fsp.rm(file, { force: true });
  }
}
