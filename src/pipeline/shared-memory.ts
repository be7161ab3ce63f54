/**
 * Arrays in SharedArrayBuffers: the pipeline's two threads (HelperThread) then hold them once, and a message
 * between the threads carries them without a copy (postMessage clones an ArrayBuffer's bytes, twice: into the
 * message and out of it; a SharedArrayBuffer's it shares).
 */
import type { RgbaImage } from '../geometry/render/image.ts';

type Shareable = Uint8Array | Float32Array | Int32Array | Float64Array;

/** Each array copied into one new SharedArrayBuffer, by the original (an array listed twice is copied once). */
export function sharedCopies<T extends Shareable>(arrays: Iterable<T>): Map<T, T> {
  const unique = [...new Set(arrays)];
  const starts: number[] = [];
  let bytes = 0;
  for (const a of unique) {
    // A typed array's view starts at a multiple of its element size.
    bytes = Math.ceil(bytes / a.BYTES_PER_ELEMENT) * a.BYTES_PER_ELEMENT;
    starts.push(bytes);
    bytes += a.byteLength;
  }
  const memory = new SharedArrayBuffer(bytes);
  return new Map(unique.map((a, k) => {
    const copy = new (a.constructor as new (buffer: SharedArrayBuffer, offset: number, length: number) => T)(memory, starts[k], a.length);
    copy.set(a);
    return [a, copy];
  }));
}

const isShared = (a: Shareable) => a.buffer instanceof SharedArrayBuffer;

/**
 * The same images with their pixels in shared memory: an image already there is kept (the same object, which
 * caches keyed by image still find), the others are copied (images that shared their pixels share the copy).
 */
export function imagesInSharedMemory(images: ReadonlyMap<string, RgbaImage>): Map<string, RgbaImage> {
  const copies = sharedCopies([...images.values()].map((image) => image.rgba).filter((rgba) => !isShared(rgba)));
  return new Map([...images].map(([name, image]) => {
    const copy = copies.get(image.rgba);
    return [name, copy ? { ...image, rgba: copy } : image];
  }));
}
