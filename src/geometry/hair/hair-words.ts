/** The words a hairstyle and a photo's hair are described in: the library's styles and the observation share them. */

/** Coarse length classes, from the longest hair tip relative to the face. */
export type HairLength = 'none' | 'shaved' | 'short' | 'ear' | 'chin' | 'shoulder' | 'long';

/** The side of the parting, the person's own: their left is the image's right. */
export type HairParting = 'none' | 'left' | 'centre' | 'right';
