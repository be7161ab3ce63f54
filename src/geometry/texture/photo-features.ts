/**
 * What a photo pixel shows, as the photo's feature mask holds it (one byte per pixel, see featureMask): skin (0), or
 * a feature the albedo treats apart from skin.
 */
export const FEATURE = { skin: 0, brow: 1, eye: 2, lips: 3 } as const;
export type Feature = (typeof FEATURE)[keyof typeof FEATURE];

/**
 * Whether a feature's own highlights stay in the albedo: the eyes' white and catchlights and the lips' sheen do. A
 * brow is hair over skin, and its bright pixels are skin (a brow's grown outline takes in the skin around it): as
 * skin, their highlights are compressed.
 */
export function keepsShine(feature: number): boolean {
  return feature === FEATURE.eye || feature === FEATURE.lips;
}
