/** A decoded photo: packed RGB, 3 bytes per pixel, row 0 at the top. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Rgb = [number, number, number];
