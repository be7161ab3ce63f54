/**
 * Where things sit in the hair texture (UV, v up): card strand variants in columns on the left, the
 * opaque under-layer and the stubble on the right. Shared by the texture generator and the mesh generator.
 */
export const ATLAS = {
  /** Card columns: u from 0 to `cardsWidth`, `cardColumns` of them; roots at the top (v near 1). */
  cardColumns: 6,
  cardsWidth: 0.75,
  /** The last card column holds a few thin strands, for flyaways. */
  flyawayColumn: 5,
  /** The under-layer shell: dense strands, fully opaque above its feathered bottom band. */
  shell: { u0: 0.76, u1: 0.99, v0: 0.51, v1: 0.99, feather: 0.06 },
  /** Stubble of a shaved head: short dots of hair over transparent skin. */
  stubble: { u0: 0.76, u1: 0.99, v0: 0.01, v1: 0.49, feather: 0.06 },
} as const;

/** A shell's part of the texture; its bottom `feather` of v fades out in strand tips (the hairline). */
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
