/**
 * Fills masked pixels of a photo from the pixels around them (a glasses frame, the teeth between a smile's
 * lips): pure, image in, image out.
 */
import type { RgbImage } from './rgb-image.ts';
import { pushPullFill, TexelSource } from './transfer-fill.ts';

/** Half-width (pixels) of the blur that splits the photo into shading and texture for the fill. */
const DETAIL_RADIUS = 3;
/** Most the mirrored texture changes a pixel, relative to its smooth colour. */
const TEXTURE_LIMIT = 0.12;
/** Farthest (pixels) the fill looks for skin beside a masked pixel. */
const MIRROR_REACH = 40;

/**
 * A copy of the photo with the masked pixels filled from the pixels around them: the smooth colour by
 * push-pull over the mask's box, and the texture (pores, stubble, lid creases: the photo minus its blur)
 * from the skin mirrored across the mask's nearest edge, so that a filled frame is not a blurred band.
 * `from`, when given, marks the pixels the fill may draw on (the lips, not the beard around them); by
 * default every pixel outside the mask.
 */
export function fillMasked(img: RgbImage, mask: Uint8Array, from?: Uint8Array): RgbImage {
  const { width, height } = img;
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  const data = Uint8Array.from(img.data);
  if (x1 < 0) return { width, height, data };
  const pad = MIRROR_REACH;
  [x0, y0] = [Math.max(0, x0 - pad), Math.max(0, y0 - pad)];
  const size = Math.max(Math.min(width - 1, x1 + pad) - x0, Math.min(height - 1, y1 + pad) - y0) + 1;
  const rgba = new Uint8Array(size * size * 4);
  const source = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [px, py] = [x0 + x, y0 + y];
      if (px >= width || py >= height) continue;
      const i = py * width + px;
      rgba.set(img.data.subarray(i * 3, i * 3 + 3), (y * size + x) * 4);
      source[y * size + x] = mask[i] ? TexelSource.fill : !from || from[i] ? TexelSource.scan : TexelSource.none;
    }
  }
  pushPullFill(rgba, source, size);
  const smooth = boxBlur(rgba, size, DETAIL_RADIUS);
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size && x0 + x < width && y0 + y < height;
  const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!inside(x, y) || source[y * size + x] !== TexelSource.fill) continue;
      const o = (y * size + x) * 4;
      // The nearest skin along the four directions, and the pixel as far beyond the edge as this one is before it.
      let mirror = -1;
      for (let d = 1; d <= MIRROR_REACH && mirror < 0; d++) {
        for (const [dx, dy] of dirs) {
          if (!inside(x + dx * d, y + dy * d) || source[(y + dy * d) * size + x + dx * d] !== TexelSource.scan) continue;
          const [mx, my] = [x + dx * (2 * d - 1), y + dy * (2 * d - 1)];
          if (inside(mx, my) && source[my * size + mx] === TexelSource.scan) {
            mirror = (my * size + mx) * 4;
            break;
          }
        }
      }
      const pixel = ((y0 + y) * width + x0 + x) * 3;
      for (let c = 0; c < 3; c++) {
        // Skin's texture is faint: a stronger one is a lash, a brow's edge or the frame's rim mirrored in.
        const limit = TEXTURE_LIMIT * smooth[o + c];
        const texture = mirror >= 0 ? Math.min(limit, Math.max(-limit, rgba[mirror + c] - smooth[mirror + c])) : 0;
        data[pixel + c] = Math.min(255, Math.max(0, Math.round(smooth[o + c] + texture)));
      }
    }
  }
  return { width, height, data };
}

/** Box blur (half-width r, separable) of an RGBA square, as floats. */
function boxBlur(rgba: Uint8Array, size: number, r: number): Float32Array {
  const rows = new Float32Array(rgba.length);
  const out = new Float32Array(rgba.length);
  const pass = (from: ArrayLike<number>, to: Float32Array, step: number, stride: number) => {
    for (let line = 0; line < size; line++) {
      for (let c = 0; c < 4; c++) {
        for (let k = 0; k < size; k++) {
          let sum = 0;
          const lo = Math.max(0, k - r), hi = Math.min(size - 1, k + r);
          for (let j = lo; j <= hi; j++) sum += from[line * stride + j * step + c];
          to[line * stride + k * step + c] = sum / (hi - lo + 1);
        }
      }
    }
  };
  pass(rgba, rows, 4, size * 4);
  pass(rows, out, size * 4, 4);
  return out;
}
