/** The base-colour textures of the parts (everything but the head), shared by the photo and the mesh paths. */
import type { RgbaImage } from '../geometry/render/image.ts';
import { bakeMouthPartTexture, bakeSolidTexture, type Rgb } from '../geometry/texture/bake-parts.ts';
import { bakeLashTexture } from '../geometry/texture/bake-lashes.ts';
import { LASH_CARD_UVS } from '../geometry/template/bound-parts.ts';
import type { TemplateView } from './template-view.ts';

export const PART_TEXTURE_SIZE = 256;
/** Strands a pixel or two wide need more texels than the solid parts. */
const LASH_TEXTURE_SIZE = 512;
/** Strands per card, per lid (per eye). */
const LASH_STRANDS = { upper: 70, lower: 35 };
const CARUNCLE_COLOUR: Rgb = [205, 128, 128];

/** Texture names whose alpha is coverage (kept when encoding). */
export const PART_ALPHA_TEXTURES: ReadonlySet<string> = new Set(['eyelashes_baseColor.png']);

/**
 * `<part>_baseColor.png` of every part that has one, `eye` (the baked eye texture, PART_TEXTURE_SIZE
 * square) for both eyeballs. The cornea and the tear line are clear and have none: their material's
 * colour and opacity say all.
 */
export function partTextures(tpl: TemplateView, eye: Uint8Array): Map<string, RgbaImage> {
  const images = new Map<string, RgbaImage>();
  const square = (size: number, rgba: Uint8Array): RgbaImage => ({ width: size, height: size, rgba });
  for (const m of tpl.meshes.slice(1)) {
    const image =
      m.name in tpl.eyes ? square(PART_TEXTURE_SIZE, eye)
      : m.name === 'teeth' || m.name === 'tongue' ? square(PART_TEXTURE_SIZE, bakeMouthPartTexture(PART_TEXTURE_SIZE, m.name, tpl.gumsBelowV))
      : m.name === 'eyelashes' ? square(LASH_TEXTURE_SIZE, bakeLashTexture(LASH_TEXTURE_SIZE, LASH_CARD_UVS.map((c) => ({ rect: c.rect, strands: LASH_STRANDS[c.lid] }))))
      : m.name === 'caruncle' ? square(PART_TEXTURE_SIZE, bakeSolidTexture(PART_TEXTURE_SIZE, CARUNCLE_COLOUR, 0.1))
      : undefined;
    if (image) images.set(`${m.name}_baseColor.png`, image);
  }
  return images;
}
