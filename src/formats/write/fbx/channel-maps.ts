import sharp from 'sharp';
import type { AvatarModel, Texture } from '../../../model/avatar.ts';

/**
 * A grey map the FBX needs that the model holds only as one channel of a packed texture: FBX
 * readers take a map's whole colour for a scalar (Blender converts it to grey), so glTF's
 * metallic-roughness packing (roughness green, metallic blue) is split for them.
 */
export interface ChannelMap {
  /** File name in the package: `<material>_<slot>.png`. */
  name: string;
  material: string;
  slot: 'roughness' | 'metallic';
  /** The packed texture it is taken from, and the channel. */
  source: string;
  channel: 'green' | 'blue';
  /** The material's factor, which multiplies the channel. */
  factor: number;
}

/**
 * The grey maps the FBX of a model references: roughness wherever a material has a
 * metallic-roughness texture, metallic only where its factor is not 0 (else the channel is moot).
 * Pure: names only, so that the FBX can be written while the maps are encoded.
 */
export function channelMaps(model: AvatarModel): ChannelMap[] {
  const taken = new Set(model.textures.map((t) => t.name));
  const out: ChannelMap[] = [];
  for (const m of model.materials) {
    const source = m.metallicRoughnessTexture;
    if (source === undefined) continue;
    const maps: ChannelMap[] = [{ name: `${m.name}_roughness.png`, material: m.name, slot: 'roughness', source, channel: 'green', factor: m.roughness }];
    if (m.metallic > 0) maps.push({ name: `${m.name}_metallic.png`, material: m.name, slot: 'metallic', source, channel: 'blue', factor: m.metallic });
    for (const map of maps) {
      if (taken.has(map.name)) throw new Error(`the FBX's ${map.slot} map ${map.name} would replace a texture of that name`);
      taken.add(map.name);
    }
    out.push(...maps);
  }
  return out;
}

/** Encodes the maps channelMaps names (single-channel PNGs, linear values). */
export async function channelMapTextures(model: AvatarModel): Promise<Texture[]> {
  const sources = new Map(model.textures.map((t) => [t.name, t]));
  return Promise.all(channelMaps(model).map(async (map): Promise<Texture> => {
    const source = sources.get(map.source);
    if (!source) throw new Error(`material ${map.material} uses unknown texture ${map.source}`);
    const channel = sharp(source.data).extractChannel(map.channel);
    const png = await (map.factor === 1 ? channel : channel.linear(map.factor, 0)).png({ compressionLevel: 4, adaptiveFiltering: false }).toBuffer();
    return { name: map.name, mimeType: 'image/png', width: source.width, height: source.height, data: new Uint8Array(png.buffer, png.byteOffset, png.length) };
  }));
}
