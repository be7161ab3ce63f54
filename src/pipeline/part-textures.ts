/** The base-colour textures of the parts (everything but the head), shared by the photo and the mesh paths. */
import type { Texture } from '../model/avatar.ts';
import type { RgbaImage } from '../geometry/render/image.ts';
import { bakeMouthPartTexture, bakeSolidTexture, type Rgb } from '../geometry/texture/bake-parts.ts';
import { bakeLashTexture } from '../geometry/texture/bake-lashes.ts';
import { LASH_CARD_UVS } from '../geometry/template/bound-parts.ts';
import type { TemplateView } from './template-view.ts';
import { encodeTextures } from './encode-textures.ts';
import { imagesInSharedMemory } from './shared-memory.ts';

export const PART_TEXTURE_SIZE = 256;
/** The eyes are looked at close up: their iris spans half the texture, 256 texels across. */
export const EYE_TEXTURE_SIZE = 512;
/** Strands a pixel or two wide need more texels than the solid parts. */
const LASH_TEXTURE_SIZE = 512;
/** Strands per card, per lid (per eye). */
const LASH_STRANDS = { upper: 70, lower: 35 };
const CARUNCLE_COLOUR: Rgb = [205, 128, 128];

/** Texture names whose alpha is coverage (kept when encoding). */
export const PART_ALPHA_TEXTURES: ReadonlySet<string> = new Set(['eyelashes_baseColor.png']);

/**
 * `<part>_baseColor.png` of every part that has one, `eye` (the baked eye texture, EYE_TEXTURE_SIZE
 * square) for both eyeballs; in the order of the template's meshes. The cornea and the tear line are clear
 * and have none: their material's colour and opacity say all.
 */
export function partTextures(tpl: TemplateView, eye: Uint8Array): Map<string, RgbaImage> {
  const own = templatePartTextures(tpl).images;
  const images = new Map<string, RgbaImage>();
  for (const m of tpl.meshes.slice(1)) {
    const name = `${m.name}_baseColor.png`;
    const image = m.name in tpl.eyes ? square(EYE_TEXTURE_SIZE, eye) : own.get(name);
    if (image) images.set(name, image);
  }
  return images;
}

const square = (size: number, rgba: Uint8Array): RgbaImage => ({ width: size, height: size, rgba });

/** The parts' textures that are the template's alone (all but the eyes'): decoded (for the preview) and PNG-encoded. */
interface PartTextureSet {
  images: Map<string, RgbaImage>;
  textures: Promise<Texture[]>;
}

const cache = new Map<string, PartTextureSet>();

/** The same for every avatar of a template: baked and encoded once per process. */
function templatePartTextures(tpl: TemplateView): PartTextureSet {
  let set = cache.get(tpl.version);
  if (!set) {
    const images = new Map<string, RgbaImage>();
    for (const m of tpl.meshes.slice(1)) {
      const image =
        m.name === 'teeth' || m.name === 'tongue' ? square(PART_TEXTURE_SIZE, bakeMouthPartTexture(PART_TEXTURE_SIZE, m.name, tpl.gumsBelowV))
        : m.name === 'eyelashes' ? square(LASH_TEXTURE_SIZE, bakeLashTexture(LASH_TEXTURE_SIZE, LASH_CARD_UVS.map((c) => ({ rect: c.rect, strands: LASH_STRANDS[c.lid] }))))
        : m.name === 'caruncle' ? square(PART_TEXTURE_SIZE, bakeSolidTexture(PART_TEXTURE_SIZE, CARUNCLE_COLOUR, 0.1))
        : undefined;
      if (image) images.set(`${m.name}_baseColor.png`, image);
    }
    // In shared memory: the helper thread draws the package's views from them without a copy per avatar.
    const shared = imagesInSharedMemory(images);
    set = { images: shared, textures: encodeTextures(shared, PART_ALPHA_TEXTURES) };
    set.textures.catch(() => undefined); // awaited by every run; this only keeps a failure from counting as unhandled here
    cache.set(tpl.version, set);
  }
  return set;
}

/**
 * encodeTextures of an avatar's images, with the template's own part textures among them taken from their
 * once-per-process encoding (when they are the same images, from partTextures); in the order of `images`.
 */
export async function encodeAvatarTextures(tpl: TemplateView, images: Map<string, RgbaImage>, withAlpha: ReadonlySet<string>): Promise<Texture[]> {
  const parts = templatePartTextures(tpl);
  const own = new Map([...images].filter(([name, image]) => parts.images.get(name) !== image));
  const [encoded, shared] = await Promise.all([encodeTextures(own, withAlpha), parts.textures]);
  const byName = new Map([...shared.filter((t) => !own.has(t.name)), ...encoded].map((t) => [t.name, t]));
  return [...images.keys()].map((name) => byName.get(name)!);
}
