/**
 * How curly the hair in the photo is, from its texture: straight hair lies in long parallel strands whose
 * brightness changes across them and not along them, so the local orientation (the structure tensor's) is
 * coherent; curls and waves turn the strands within a small patch, so it is not. The photo is read at a scale
 * fixed to the face (samples per face width), so the measure is the same for a small and a large face, and only
 * at samples whose neighbours are all hair, in patches mostly inside the hair region: the region's own edge (hair
 * against the backdrop or the forehead) is a long coherent line whatever the hair.
 *
 * The orientation is read twice, from single strands and from locks (the brightness smoothed over a few mm), and
 * the straighter reading kept. Pixel noise and JPEG blocks turn every way at the strands' scale, so smooth dark
 * hair reads curly there but straight at the locks'; a highlight band across straight hair is broad, so it turns
 * the locks' reading but not the strands'. Curls turn the hair at every scale up to their own, so both read curly.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import type { HairGrid } from './hair-grid.ts';
import type { FaceFrame } from './face-frame.ts';

/**
 * Samples across one face width: a sample is about 1 mm, so a strand bundle spans one or two and a curl ten;
 * finer, the JPEG's noise on smooth dark hair counts as much as the strands.
 */
const SAMPLES_PER_FACE_WIDTH = 160;
/**
 * The Gaussian (sigma in samples) that smooths single strands into locks: its gradient answers most to
 * structure some 2 pi sigma = 9 mm across, a lock and the gap beside it, while the noise of single pixels and of
 * JPEG blocks (8 pixels, 3-5 samples on a face 250-400 pixels wide) averages out. Within a curl's 1 cm patch.
 */
const LOCK_SCALE = 1.5;
/** Side of a patch whose orientation is measured, in samples (0.075 face widths, about 1 cm: a curl's size). */
const PATCH = 12;
/** A patch is measured when at least this share of its samples lies inside the hair. */
const INSIDE_SHARE = 0.75;
/** Patches with less gradient energy than this share of the hair's mean per patch are flat (shadow, a blown highlight) and left out. */
const FLAT_SHARE = 0.25;

/**
 * 1 less the energy-weighted coherence of the local orientation over the hair's patches, the lesser of the
 * strands' and the locks' readings: 0 straight, towards 1 curly; undefined when no patch lies mostly inside the hair (the photo shows too little of its inside to tell).
 */
export function hairCurl(photo: RgbImage, grid: HairGrid, hair: Uint8Array, frame: FaceFrame): number | undefined {
  const q = Math.max(1, frame.width / SAMPLES_PER_FACE_WIDTH);
  // The hair cells' bounding box, in photo pixels.
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let c = 0; c < hair.length; c++) {
    if (!hair[c]) continue;
    const x = (c % grid.columns) * grid.step, y = Math.floor(c / grid.columns) * grid.step;
    x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x + grid.step), y1 = Math.max(y1, y + grid.step);
  }
  if (x0 === Infinity) return undefined;
  x1 = Math.min(x1, photo.width), y1 = Math.min(y1, photo.height);
  const w = Math.floor((x1 - x0) / q), h = Math.floor((y1 - y0) / q);
  if (w < PATCH + 2 || h < PATCH + 2) return undefined;
  const [lum, inHair] = resample(photo, grid, hair, x0, y0, w, h, q);
  const fine = incoherence(lum, inHair, w, h);
  const coarse = incoherence(smoothWithin(lum, inHair, w, h, LOCK_SCALE), inHair, w, h);
  return fine === undefined || coarse === undefined ? fine ?? coarse : Math.min(fine, coarse);
}

/**
 * 1 less the energy-weighted coherence of the structure tensors of central differences, per patch, at samples
 * whose four neighbours are hair too; undefined when no patch lies mostly inside the hair.
 */
function incoherence(lum: Float32Array, inHair: Uint8Array, w: number, h: number): number | undefined {
  const tensors: [number, number, number][] = [];
  for (let py = 1; py + PATCH + 1 <= h; py += PATCH) {
    for (let px = 1; px + PATCH + 1 <= w; px += PATCH) {
      let jxx = 0, jxy = 0, jyy = 0, n = 0;
      for (let y = py; y < py + PATCH; y++) {
        for (let x = px; x < px + PATCH; x++) {
          const i = y * w + x;
          if (!(inHair[i] && inHair[i - 1] && inHair[i + 1] && inHair[i - w] && inHair[i + w])) continue;
          const gx = lum[i + 1] - lum[i - 1];
          const gy = lum[i + w] - lum[i - w];
          jxx += gx * gx, jxy += gx * gy, jyy += gy * gy;
          n++;
        }
      }
      if (n >= INSIDE_SHARE * PATCH * PATCH) tensors.push([jxx / n, jxy / n, jyy / n]);
    }
  }
  if (tensors.length === 0) return undefined;
  const meanEnergy = tensors.reduce((a, [xx, , yy]) => a + xx + yy, 0) / tensors.length;
  let oriented = 0, energy = 0;
  for (const [xx, xy, yy] of tensors) {
    if (xx + yy < FLAT_SHARE * meanEnergy) continue;
    oriented += Math.sqrt((xx - yy) ** 2 + 4 * xy * xy);
    energy += xx + yy;
  }
  return energy > 0 ? 1 - oriented / energy : undefined;
}

/**
 * The log of the photo's brightness over the box, averaged over q x q pixel squares: the gradients are then
 * relative contrast, alike for dark and light hair. And whether each sample's grid cell is hair.
 */
function resample(photo: RgbImage, grid: HairGrid, hair: Uint8Array, x0: number, y0: number, w: number, h: number, q: number): [Float32Array, Uint8Array] {
  const sum = new Float32Array(w * h);
  const count = new Uint16Array(w * h);
  const width = Math.min(photo.width - x0, Math.floor(w * q));
  // A loop, not Int32Array.from with a closure made per call (its code was compiled again every job).
  const column = new Int32Array(width);
  for (let x = 0; x < width; x++) column[x] = Math.min(w - 1, Math.floor(x / q));
  // Only the pixels of hair cells are read (long hair's box is most of the photo, the hair a third of it).
  for (let y = 0; y < Math.min(photo.height - y0, Math.floor(h * q)); y++) {
    const row = Math.min(h - 1, Math.floor(y / q)) * w;
    const cells = Math.floor((y0 + y) / grid.step) * grid.columns;
    for (let gx = Math.floor(x0 / grid.step); gx * grid.step < x0 + width; gx++) {
      if (!hair[cells + gx]) continue;
      const from = Math.max(0, gx * grid.step - x0), to = Math.min(width, (gx + 1) * grid.step - x0);
      let p = ((y0 + y) * photo.width + x0 + from) * 3;
      for (let x = from; x < to; x++, p += 3) {
        sum[row + column[x]] += photo.data[p] + photo.data[p + 1] + photo.data[p + 2];
        count[row + column[x]]++;
      }
    }
  }
  const lum = new Float32Array(w * h);
  const inHair = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      lum[i] = Math.log(sum[i] / Math.max(1, count[i]) + 24);
      const cx = Math.floor((x0 + (x + 0.5) * q) / grid.step), cy = Math.floor((y0 + (y + 0.5) * q) / grid.step);
      inHair[i] = cx < grid.columns && cy < grid.rows ? hair[cy * grid.columns + cx] : 0;
    }
  }
  return [lum, inHair];
}

/**
 * The brightness smoothed by a Gaussian of sigma samples over the hair samples alone (normalised by the weight that
 * falls on hair), so the backdrop or the forehead beyond the region's edge does not bleed in as a gradient.
 */
function smoothWithin(lum: Float32Array, inHair: Uint8Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.ceil(2.5 * sigma);
  const kernel = Float32Array.from({ length: 2 * r + 1 }, (_, k) => Math.exp(-((k - r) ** 2) / (2 * sigma * sigma)));
  // Along the rows, then the columns of that, row by row so the rows above and below are read in order.
  return smoothAlong(smoothAlong(lum, inHair, w, h, kernel, 'x'), inHair, w, h, kernel, 'y');
}

/** One pass of smoothWithin's separable Gaussian (`kernel`, radius its half length) along x or y. */
function smoothAlong(src: Float32Array, inHair: Uint8Array, w: number, h: number, kernel: Float32Array, axis: 'x' | 'y'): Float32Array {
  const r = (kernel.length - 1) / 2;
  const step = axis === 'x' ? 1 : w, extent = axis === 'x' ? w : h;
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!inHair[i]) continue;
      const at = axis === 'x' ? x : y;
      let v = 0, weight = 0;
      for (let k = Math.max(-r, -at), end = Math.min(r, extent - 1 - at); k <= end; k++) {
        const j = i + k * step;
        if (inHair[j]) (v += kernel[k + r] * src[j]), (weight += kernel[k + r]);
      }
      out[i] = v / weight;
    }
  }
  return out;
}
