import sharp from 'sharp';
import type { RgbaImage } from './image.ts';

/** The solid background of JPEG previews (sRGB), a light neutral grey. */
export const PREVIEW_BACKGROUND: [number, number, number] = [226, 228, 232];

/** Encodes a render: PNG keeps the transparency, JPEG is flattened onto a solid background. */
export async function encodePreview(
  image: RgbaImage,
  format: 'jpg' | 'png',
  background: [number, number, number] = PREVIEW_BACKGROUND,
): Promise<Uint8Array> {
  const raw = sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
  const out =
    format === 'png'
      ? await raw.png({ compressionLevel: 6 }).toBuffer()
      : await raw.flatten({ background: { r: background[0], g: background[1], b: background[2] } }).jpeg({ quality: 90 }).toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
