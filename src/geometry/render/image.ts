/** A raw image: RGBA bytes with straight (not premultiplied) alpha, rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}
