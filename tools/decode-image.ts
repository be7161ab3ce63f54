import sharp from 'sharp';
import type { AvatarModel } from '../src/model/avatar.ts';
import type { RgbaImage } from '../src/geometry/render/image.ts';
import type { RgbImage } from '../src/geometry/texture/rgb-image.ts';

/** Decodes a PNG or JPEG (any format sharp reads) into RGBA, applying EXIF orientation. */
export async function decodeImage(bytes: Uint8Array): Promise<RgbaImage> {
  const { data, info } = await sharp(bytes).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Decodes a PNG or JPEG into RGB without alpha, as it is stored (no EXIF orientation applied). */
export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Every texture the model's materials use (base colour and maps), decoded, by texture name. */
export async function decodeMaterialTextures(model: AvatarModel): Promise<Map<string, RgbaImage>> {
  const used = new Set(model.materials.flatMap((m) => [m.baseColorTexture, m.normalTexture, m.occlusionTexture, m.metallicRoughnessTexture]));
  const decoded = await Promise.all(model.textures.filter((t) => used.has(t.name)).map(async (t) => [t.name, await decodeImage(t.data)] as const));
  return new Map(decoded);
}
