/**
 * A photo whose face is not upright: turned by quarter turns where the camera was held sideways or upside down and
 * its orientation was lost (no EXIF, or stripped on the way), then levelled where the head or the camera is tilted,
 * before it is analysed; what the analysis reports is mapped back onto the photo as uploaded. Turns count clockwise.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { sampleBilinear } from '../../geometry/texture/sample.ts';
import { isPersonAt, matteCell, type PersonMatte } from './person-matte.ts';

/** How the analysed image was made from the photo as uploaded (EXIF orientation applied, shrunk). */
export interface PhotoOrientation {
  /** Quarter turns (clockwise, 0-3), lossless. */
  turns: number;
  /** Degrees the turned image was then rotated clockwise about its centre (`levelImage`), 0 for none. */
  level: number;
  /** Width and height of the image after the turns, before the levelling. */
  turnedSize: [number, number];
}

/** The top of the forehead and the bottom of the chin on the face's midline (landmark indices). */
const FOREHEAD = 10;
const CHIN = 152;

/**
 * The quarter turns (0-3, clockwise) that bring a face of this roll (degrees, as `estimatePose` gives it) nearest to
 * upright: a face read at -90 degrees lies turned clockwise, and turning the photo three quarters clockwise stands it up.
 */
export function quarterTurnsUpright(roll: number): number {
  return (((Math.round(roll / 90) % 4) + 4) % 4);
}

/** The face's roll in the photo as uploaded, from its roll in the photo turned `turns` quarters clockwise. */
export function rollBeforeTurns(roll: number, turns: number): number {
  const r = (roll + turns * 90) % 360;
  return r > 180 ? r - 360 : r <= -180 ? r + 360 : r;
}

/** The image turned `turns` quarters clockwise. */
export function turnImage(image: RgbImage, turns: number): RgbImage {
  const { width, height, data } = image;
  const t = ((turns % 4) + 4) % 4;
  if (t === 0) return image;
  const [w, h] = t === 2 ? [width, height] : [height, width];
  const out = new Uint8Array(data.length);
  for (let yo = 0; yo < h; yo++) {
    for (let xo = 0; xo < w; xo++) {
      // The source pixel of each output pixel: a clockwise quarter turn takes (x, y) to (height - 1 - y, x).
      const [x, y] = t === 1 ? [yo, height - 1 - xo] : t === 2 ? [width - 1 - xo, height - 1 - yo] : [width - 1 - yo, xo];
      const from = (y * width + x) * 3, to = (yo * w + xo) * 3;
      out[to] = data[from];
      out[to + 1] = data[from + 1];
      out[to + 2] = data[from + 2];
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * A point (x, y, pixel-edge coordinates) of the image turned `turns` quarters clockwise, `width` x `height` as turned,
 * in the image before the turns.
 */
export function pointBeforeTurns(x: number, y: number, turns: number, width: number, height: number): [number, number] {
  let [px, py, w, h] = [x, y, width, height];
  // Each step undoes one clockwise quarter turn, which took (x, y) of a w x h image to (h - y, x).
  for (let t = ((turns % 4) + 4) % 4; t > 0; t--) [px, py, w, h] = [py, w - px, h, w];
  return [px, py];
}

/**
 * The image rotated `degrees` clockwise about its centre, bilinearly, on a canvas that holds all of it; the corners
 * it leaves continue the photo's border pixels (clamped), so that nothing new, a flat colour or an edge, is drawn in.
 */
export function levelImage(image: RgbImage, degrees: number): RgbImage {
  const { width, height } = image;
  const [c, s] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  const w = Math.ceil(width * Math.abs(c) + height * Math.abs(s) - 1e-6);
  const h = Math.ceil(width * Math.abs(s) + height * Math.abs(c) - 1e-6);
  const data = new Uint8Array(w * h * 3);
  const px = new Float32Array(3);
  // Each pixel centre's source (rotateAbout by -degrees) steps by (c, -s) along a row: no point made per pixel.
  for (let y = 0, o = 0; y < h; y++) {
    const dy = y + 0.5 - h / 2;
    let sx = (0.5 - w / 2) * c + dy * s + width / 2;
    let sy = -(0.5 - w / 2) * s + dy * c + height / 2;
    for (let x = 0; x < w; x++, sx += c, sy -= s, o += 3) {
      sampleBilinear(image, sx, sy, px);
      data[o] = Math.round(px[0]);
      data[o + 1] = Math.round(px[1]);
      data[o + 2] = Math.round(px[2]);
    }
  }
  return { width: w, height: h, data };
}

/** A point of an image `from` (width, height) rotated `degrees` clockwise about the centre, in an image `to` of the same centre. */
function rotateAbout(x: number, y: number, degrees: number, from: [number, number], to: [number, number]): [number, number] {
  const [c, s] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  const [dx, dy] = [x - from[0] / 2, y - from[1] / 2];
  // Clockwise as seen, with y down: the top's middle (0, -1) goes to the right (1, 0) at 90 degrees.
  return [dx * c - dy * s + to[0] / 2, dx * s + dy * c + to[1] / 2];
}

/** A point of an image `size` (width, height) where `levelImage` puts it, levelled by `degrees` to `levelledSize`. */
export function levelledPoint(x: number, y: number, degrees: number, size: [number, number], levelledSize: [number, number]): [number, number] {
  return rotateAbout(x, y, degrees, size, levelledSize);
}

/** A point (pixel-edge coordinates) of the analysed image, `size` (width, height), in the photo as uploaded. */
export function pointAsUploaded(o: PhotoOrientation, x: number, y: number, size: [number, number]): [number, number] {
  const [tx, ty] = o.level === 0 ? [x, y] : rotateAbout(x, y, -o.level, size, o.turnedSize);
  return pointBeforeTurns(tx, ty, o.turns, o.turnedSize[0], o.turnedSize[1]);
}

/** The face's roll in the photo as uploaded, from its roll in the analysed image. */
export function rollAsUploaded(o: PhotoOrientation, roll: number): number {
  return rollBeforeTurns(roll + o.level, o.turns);
}

/** The box (x, y, width, height) round the first `count` points (x, y, z triples) of the analysed image, `size`, in the photo as uploaded. */
export function boxAsUploaded(o: PhotoOrientation, points: ArrayLike<number>, count: number, size: [number, number]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    const [x, y] = pointAsUploaded(o, points[i * 3], points[i * 3 + 1], size);
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return [x0, y0, x1 - x0, y1 - y0];
}

/**
 * Whether the person the photo shows lies above the face as its landmarks read it: the person matte runs on past the
 * forehead, away from the chin, further than past the chin, where it ends short of the photo's border. Read upright,
 * the neck and the body go on below the chin, to the border; on an upside-down face the landmark model reads the face
 * upright all the same (the mouth as eyes), and then the neck is past its forehead and the top of the head past its chin.
 */
export function personAboveFace(landmarks: ArrayLike<number>, matte: PersonMatte): boolean {
  const [fx, fy] = [landmarks[FOREHEAD * 3], landmarks[FOREHEAD * 3 + 1]];
  const [cx, cy] = [landmarks[CHIN * 3], landmarks[CHIN * 3 + 1]];
  const length = Math.hypot(cx - fx, cy - fy);
  if (!(length > 0)) return false;
  const [dx, dy] = [(cx - fx) / length, (cy - fy) / length];
  const below = personRun(matte, cx, cy, dx, dy);
  if (below.toBorder) return false;
  const above = personRun(matte, fx, fy, -dx, -dy);
  return above.toBorder || above.length > below.length;
}

/** How far (pixels) the person goes on from (x, y) in the direction (dx, dy), a matte cell a step, and whether to the border. */
function personRun(matte: PersonMatte, x: number, y: number, dx: number, dy: number): { length: number; toBorder: boolean } {
  const step = matteCell(matte);
  for (let s = step; ; s += step) {
    const [px, py] = [x + dx * s, y + dy * s];
    if (px < 0 || py < 0 || px > matte.width - 1 || py > matte.height - 1) return { length: s, toBorder: true };
    if (!isPersonAt(matte, px, py)) return { length: s, toBorder: false };
  }
}
