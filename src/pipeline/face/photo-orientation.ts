/**
 * A photo whose face is not upright because the camera was held sideways or upside down and its orientation was lost
 * (no EXIF, or stripped on the way): turned by quarter turns before it is analysed, and what the analysis reports
 * mapped back onto the photo as uploaded. Turns count clockwise.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { isPersonAt, matteCell, type PersonMatte } from './person-matte.ts';

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

/** A box (x, y, width, height) of the image turned `turns` quarters clockwise, `width` x `height` as turned, in the image before the turns. */
export function boxBeforeTurns(box: readonly [number, number, number, number], turns: number, width: number, height: number): [number, number, number, number] {
  const [x, y, w, h] = box;
  const [ax, ay] = pointBeforeTurns(x, y, turns, width, height);
  const [bx, by] = pointBeforeTurns(x + w, y + h, turns, width, height);
  return [Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay)];
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
