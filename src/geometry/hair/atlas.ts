/**
 * Where things sit in the hair texture (UV, v up): clump cards in columns on the left, the hanging sheet
 * beside them, the opaque under-layer and the stubble on the right. Shared by the texture generator and
 * the mesh generator.
 */
export const ATLAS = {
  /** Card columns: u from 0 to `cardsWidth`, `cardColumns` of them; roots at the top (v near 1), tapered tips at the bottom. */
  cardColumns: 4,
  cardsWidth: 0.4,
  /** The hanging sheet of long hair: u runs around the head, roots at the top, clumps ending in tips over its bottom `feather`. */
  sheet: { u0: 0.41, u1: 0.74, v0: 0.01, v1: 0.99, feather: 0.22 },
  /** The under-layer shell: dense strands, fully opaque above its feathered bottom band (the hairline). */
  shell: { u0: 0.76, u1: 0.99, v0: 0.51, v1: 0.99, feather: 0.06 },
  /** Stubble of a shaved head: short fine hairs over transparent skin. */
  stubble: { u0: 0.76, u1: 0.99, v0: 0.01, v1: 0.49, feather: 0.06 },
} as const;

/** A region of the texture; its bottom `feather` of v fades out in strand tips (a hairline, or a sheet's ends). */
export interface AtlasRegion {
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  feather: number;
}

/** Texture size of the hair material (pixels a side; the budget is 2048). */
export const HAIR_TEXTURE_SIZE = 1024;

/** u range of card column k, inset so bilinear filtering does not bleed from the neighbour. */
export function cardColumn(k: number): [number, number] {
  const w = ATLAS.cardsWidth / ATLAS.cardColumns;
  return [k * w + 0.004, (k + 1) * w - 0.004];
}
