/**
 * What a photo shows of the person's hair: the contract between the photo analysis
 * (observe.ts) and the hairstyle choice and fit (geometry/hair). Positions are photo pixels of the
 * analysed image (FaceAnalysis.image), row 0 at the top.
 */
import type { Rgb } from '../../geometry/texture/rgb-image.ts';
import type { HairLength, HairParting } from '../../geometry/hair/hair-words.ts';

export type { HairLength, HairParting };

export interface HairObservation {
  /** No hair on the scalp (bald), or hair so short the scalp shows through it (shaved). */
  bald: boolean;
  length: HairLength;
  /**
   * Face heights above the chin (face-frame.ts) of the lowest hair the photo shows; undefined without hair, or
   * when the hair runs off the photo's bottom edge (it is longer than the photo shows).
   */
  tip?: number;
  /**
   * Hair pulled back from the face into a ponytail or a bun: hair that ends above the ears, with nothing on the
   * shoulders, and is centre-parted or shows its tail behind the neck (tail.ts).
   */
  tiedBack: boolean;
  /** Base colour (sRGB 0-255) and the darker and lighter ends of its variation. */
  colour: { base: Rgb; dark: Rgb; light: Rgb };
  /** Share of the forehead (brows to the hairline of a bare forehead) that hair covers, 0..1. */
  fringe: number;
  parting: HairParting;
  /**
   * How curly the hair's texture is (hair-curl.ts): 1 less the coherence of its strands' local orientation, 0
   * straight, towards 1 curly; 0 without hair or when the photo shows too little of the hair's inside to tell.
   */
  curl: number;
  /** Width of the hair silhouette at temple height over the width of the face at the same height. */
  volume: number;
  /** The hair region: one byte per pixel, 255 hair, 0 not hair; same size as the analysed image. */
  mask: { width: number; height: number; alpha: Uint8Array };
}
