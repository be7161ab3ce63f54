import sharp from 'sharp';
import type { AvatarModel } from '../../model/avatar.ts';
import type { RgbaImage } from './image.ts';

/** Decodes a PNG or JPEG (any format sharp reads) into RGBA, applying EXIF orientation. */
export async function decodeImage(bytes: Uint8Array): Promise<RgbaImage> {
  const { data, info } = await sharp(bytes).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** The base colour textures the model's materials use, decoded, by texture name. */
export async function decodeBaseColorTextures(model: AvatarModel): Promise<Map<string, RgbaImage>> {
  const used = new Set(model.materials.flatMap((m) => (m.baseColorTexture ? [m.baseColorTexture] : [])));
  const out = new Map<string, RgbaImage>();
  for (const tex of model.textures) if (used.has(tex.name)) out.set(tex.name, await decodeImage(tex.data));
  return out;
}
