/**
 * The avatar's textures as PNG files: fast settings (compression 4, no adaptive filtering), since the packages
 * are zipped again and a job's time counts more than a few per cent of size.
 */
import sharp from 'sharp';
import type { Texture } from '../model/avatar.ts';
import type { RgbaImage } from '../geometry/render/image.ts';

const PNG_OPTIONS = { compressionLevel: 4, adaptiveFiltering: false } as const;

/** PNG-encodes every image; those named in `withAlpha` (coverage of MASK and BLEND materials) keep their alpha channel. */
export async function encodeTextures(images: Map<string, RgbaImage>, withAlpha: ReadonlySet<string> = new Set()): Promise<Texture[]> {
  return Promise.all(
    [...images].map(async ([name, img]) => {
      const image = sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } });
      const png = await (withAlpha.has(name) ? image : image.removeAlpha()).png(PNG_OPTIONS).toBuffer();
      return { name, mimeType: 'image/png' as const, width: img.width, height: img.height, data: new Uint8Array(png.buffer, png.byteOffset, png.length) };
    }),
  );
}
