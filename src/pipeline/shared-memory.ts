/**
 * Arrays in SharedArrayBuffers: the pipeline's two threads (HelperThread) then hold them once, and a message
 * between the threads carries them without a copy (postMessage clones an ArrayBuffer's bytes, twice: into the
 * message and out of it; a SharedArrayBuffer's it shares).
 */
import type { RgbaImage } from '../geometry/render/image.ts';

type Shareable = Uint8Array | Float32Array | Int32Array | Float64Array;

/** Gives the SharedArrayBuffer of at least `bytes` that copies are made in. */
export type SharedAllocator = (bytes: number) => SharedArrayBuffer;

const fresh: SharedAllocator = (bytes) => new SharedArrayBuffer(bytes);

/** Each array copied into one SharedArrayBuffer (a new one unless `allocate` gives one), by the original (an array listed twice is copied once). */
export function sharedCopies<T extends Shareable>(arrays: Iterable<T>, allocate: SharedAllocator = fresh): Map<T, T> {
  const unique = [...new Set(arrays)];
  const starts: number[] = [];
  let bytes = 0;
  for (const a of unique) {
    // A typed array's view starts at a multiple of its element size.
    bytes = Math.ceil(bytes / a.BYTES_PER_ELEMENT) * a.BYTES_PER_ELEMENT;
    starts.push(bytes);
    bytes += a.byteLength;
  }
  const memory = allocate(bytes);
  const copies = new Map<T, T>();
  for (let k = 0; k < unique.length; k++) {
    const a = unique[k];
    const copy = new (a.constructor as new (buffer: SharedArrayBuffer, offset: number, length: number) => T)(memory, starts[k], a.length);
    copy.set(a);
    copies.set(a, copy);
  }
  return copies;
}

const isShared = (a: Shareable) => a.buffer instanceof SharedArrayBuffer;

/**
 * The same images with their pixels in shared memory: an image already there is kept (the same object, which
 * caches keyed by image still find), the others are copied (images that shared their pixels share the copy).
 */
export function imagesInSharedMemory(images: ReadonlyMap<string, RgbaImage>, allocate?: SharedAllocator): Map<string, RgbaImage> {
  const copies = sharedCopies([...images.values()].map((image) => image.rgba).filter((rgba) => !isShared(rgba)), allocate);
  return new Map([...images].map(([name, image]) => {
    const copy = copies.get(image.rgba);
    return [name, copy ? { ...image, rgba: copy } : image];
  }));
}

/**
 * A SharedArrayBuffer kept from one use to the next, lent to one at a time. A new buffer's pages are faulted in as they
 * are first written, which on the bench's host (a VM) costs about 20 µs a page: copying an avatar's 20 MiB of images
 * into a new one took the job's thread 4-119 ms (median 62 of 21 jobs at load 23-32), into one already written 0-8 ms.
 */
export class ReusedSharedMemory {
  private kept: SharedArrayBuffer | undefined;

  /**
   * `allocate` (called once) gives the kept buffer when it is free and large enough, else a new one; `giveBack`,
   * once nothing reads what was copied into it any more, keeps it for the next (the larger of it and the kept one).
   */
  lend(): { allocate: SharedAllocator; giveBack(): void } {
    let lent: SharedArrayBuffer | undefined;
    return {
      allocate: (bytes) => {
        const reuse = this.kept !== undefined && this.kept.byteLength >= bytes;
        lent = reuse ? this.kept! : new SharedArrayBuffer(bytes);
        if (reuse) this.kept = undefined;
        return lent;
      },
      giveBack: () => {
        if (lent && lent.byteLength > (this.kept?.byteLength ?? -1)) this.kept = lent;
        lent = undefined;
      },
    };
  }
}
