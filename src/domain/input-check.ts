import { errors } from './errors.ts';

/** The spec's photo limit: 8 MP whatever the geometry. */
export const MAX_PIXELS = 8388608;

export interface ImageHeader {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/**
 * Reads an uploaded photo's type and size from its header bytes alone (no decoding), so that a
 * file claiming huge dimensions is refused before anything allocates for it.
 */
export function inspectPhoto(b: Uint8Array): ImageHeader {
  let header: ImageHeader;
  if (startsWith(b, [0xff, 0xd8, 0xff])) header = jpegSize(b);
  else if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) header = pngSize(b);
  else if (otherImageFormat(b)) throw errors.imageFormat(`${otherImageFormat(b)} is not accepted; send a JPEG or PNG photo`);
  else throw errors.notImage();
  if (header.width <= 0 || header.height <= 0) throw errors.imageCorrupt('the image declares no pixels');
  const pixels = header.width * header.height;
  if (pixels > MAX_PIXELS) throw errors.tooManyPixels(header.width, header.height, MAX_PIXELS);
  return header;
}

function otherImageFormat(b: Uint8Array): string | undefined {
  if (ascii(b, 0, 4) === 'GIF8') return 'GIF';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'WebP';
  if (ascii(b, 0, 2) === 'BM') return 'BMP';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'TIFF';
  if (ascii(b, 4, 4) === 'ftyp') return 'HEIF/AVIF';
  return undefined;
}

function jpegSize(b: Uint8Array): ImageHeader {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw errors.imageCorrupt('JPEG marker expected');
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image or start of scan before any frame header
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    if (length < 2) throw errors.imageCorrupt('JPEG segment length');
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > b.length) break;
      return { format: 'jpeg', height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    }
    i += 2 + length;
  }
  throw errors.imageCorrupt('JPEG without a frame header (truncated or corrupt)');
}

function pngSize(b: Uint8Array): ImageHeader {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') throw errors.imageCorrupt('PNG without IHDR (truncated or corrupt)');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { format: 'png', width: view.getUint32(16), height: view.getUint32(20) };
}
