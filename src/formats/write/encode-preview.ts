import sharp from 'sharp';
import type { RgbaImage } from '../../geometry/render/image.ts';

/** The solid background of JPEG previews (sRGB), a light neutral grey. */
export const PREVIEW_BACKGROUND: [number, number, number] = [226, 228, 232];

/**
 * Encodes a render: PNG keeps the transparency, JPEG is flattened onto a solid background.
 * `size` scales it to that many pixels across first (a square render stays square).
 */
export async function encodePreview(
  image: RgbaImage,
  format: 'jpg' | 'png',
  opts: { size?: number; background?: [number, number, number] } = {},
): Promise<Uint8Array> {
  const [r, g, b] = opts.background ?? PREVIEW_BACKGROUND;
  const raw = sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
  const sized = opts.size === undefined ? raw : raw.resize(opts.size);
  const out =
    format === 'png'
      ? await sized.png({ compressionLevel: 6 }).toBuffer()
      : await sized.flatten({ background: { r, g, b } }).jpeg({ quality: 90 }).toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
