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

/**
 * The PNG of each channel map by its source's bytes, channel and factor. A template's packed maps are the same
 * array for every avatar of it (encoded once per template and process), so their grey maps are encoded once too.
 */
const encoded = new WeakMap<Uint8Array, Map<string, Promise<Uint8Array>>>();

function encodeChannel(source: Uint8Array, channel: ChannelMap['channel'], factor: number): Promise<Uint8Array> {
  let bySource = encoded.get(source);
  if (!bySource) encoded.set(source, (bySource = new Map()));
  const key = `${channel} ${factor}`;
  let png = bySource.get(key);
  if (!png) {
    const picked = sharp(source).extractChannel(channel);
    png = (factor === 1 ? picked : picked.linear(factor, 0))
      .png({ compressionLevel: 4, adaptiveFiltering: false })
      .toBuffer()
      .then((b) => new Uint8Array(b.buffer, b.byteOffset, b.length));
    bySource.set(key, png);
    png.catch(() => bySource.delete(key)); // a failure is the caller's, not kept for the next
  }
  return png;
}

/** Encodes the maps channelMaps names (single-channel PNGs, linear values). */
export async function channelMapTextures(model: AvatarModel): Promise<Texture[]> {
  const sources = new Map(model.textures.map((t) => [t.name, t]));
  return Promise.all(channelMaps(model).map(async (map): Promise<Texture> => {
    const source = sources.get(map.source);
    if (!source) throw new Error(`material ${map.material} uses unknown texture ${map.source}`);
    return { name: map.name, mimeType: 'image/png', width: source.width, height: source.height, data: await encodeChannel(source.data, map.channel, map.factor) };
  }));
}
