/**
 * The smile crease beyond the mouth's corners taken out of the photo: a smiling mouth's seam runs on past the
 * landmark corners as a thin dark line in the skin. Un-warped onto the neutral head, that skin follows the corners'
 * way down only in part, so the line stays where the smile put it and the landmark detector sets the neutral's
 * corners on it, outside and above the mesh's (issues 19 and 20). The line is traced from each corner along the
 * seam's direction while it stays darker than the skin on both sides of it. A band around it, wide enough to take the
 * thin lip the seam often still has beside it past the detected corner, takes the skin beyond the band's edges, each
 * pixel mirrored across them (the skin's grain, not a smooth patch, which read as a lip-coloured blotch). The lips
 * themselves, inside their outer contour, are kept (the band over them too opened p01-b's lips on the preview, gap
 * 0.026 -> 0.041).
 */
import type { RgbImage } from './rgb-image.ts';
import { sampleBilinear } from './sample.ts';
import { insidePolygon } from '../spatial/inside-polygon.ts';
import { rec601Luma } from '../render/srgb.ts';

type Point = [number, number];

/** How far beyond a corner the crease is followed, in mouth widths (the corners' distance). */
const REACH = 0.15;
/** The skin each side of the crease is sampled this far from its middle (mouth widths; at least MIN_SIDE px). */
const SIDE = 0.025;
const MIN_SIDE = 2;
/**
 * The band replaced, in sides each way from the line; its outer half blends into the photo. The crease's pixels alone,
 * or the band of one side, filled from its edges (p06-a's far corner in mouthRight read 0.005 and 0.010 outwards, bar
 * 0.02 inwards): the thin lip beside the seam stayed and the detector kept its corner there.
 */
const BAND = 2;
/** A point is on the crease while its luminance is below both sides' by this share. */
const DIP = 0.05;
/** The darker side's luminance is at least this share of the brighter's on a crease in skin. */
const SIDES_ALIKE = 0.65;
/** Steps (1 px each) without a crease after which the trace ends. */
const MISSES = 2;
/** How far (px) each step may move sideways to stay on the crease's darkest line. */
const WANDER = [-1, -0.5, 0, 0.5, 1];

/** A mouth corner: the outer (lip contour) corner and the inner contour's corner beside it, in image pixels. */
export interface MouthCorner {
  outer: Point;
  inner: Point;
}

/**
 * A copy of `photo` with the crease beyond each corner filled, outside `lips` (the outer lip contour, image points),
 * or `photo` itself where no corner has one; `traced` gives each corner's crease line, the corner first (the corner
 * alone: none).
 */
export function fillCornerCreases(photo: RgbImage, corners: MouthCorner[], lips: Point[]): { photo: RgbImage; traced: Point[][] } {
  const width = Math.hypot(corners[0].outer[0] - corners[1].outer[0], corners[0].outer[1] - corners[1].outer[1]);
  const side = Math.max(MIN_SIDE, SIDE * width);
  const traced = corners.map((c) => traceCrease(photo, c, side, REACH * width));
  const lines = traced.filter((line) => line.length > 1);
  if (lines.length === 0) return { photo, traced };
  // The band's skin is read from the photo as it was, never from a part already filled.
  const out: RgbImage = { width: photo.width, height: photo.height, data: new Uint8Array(photo.data) };
  for (const line of lines) fillAlong(photo, out, line, side, lips);
  return { photo: out, traced };
}

const px = new Float32Array(3);
function lumaAt(img: RgbImage, p: Point): number {
  sampleBilinear(img, p[0], p[1], px);
  return rec601Luma(px);
}

const unit = (v: Point): Point => {
  const l = Math.hypot(v[0], v[1]) || 1;
  return [v[0] / l, v[1] / l];
};

/** Offsets across the band (-side..side) in half pixels. */
const spread = (side: number): number[] => Array.from({ length: 2 * Math.floor(2 * side) + 1 }, (_, k) => k / 2 - Math.floor(2 * side) / 2);

/** The crease's middle line from the corner outwards (the corner first), or just the corner when no crease follows it. */
function traceCrease(img: RgbImage, corner: MouthCorner, side: number, reach: number): Point[] {
  let dir = unit([corner.outer[0] - corner.inner[0], corner.outer[1] - corner.inner[1]]);
  let pos: Point = corner.outer;
  const line: Point[] = [pos];
  let misses = 0;
  for (let s = 0; s < reach && misses < MISSES; s++) {
    const normal: Point = [-dir[1], dir[0]];
    const ahead: Point = [pos[0] + dir[0], pos[1] + dir[1]];
    let best = ahead, bestLuma = Infinity;
    // The detected corner may lie a few pixels off the seam: the first step looks for it across the whole band.
    for (const o of line.length === 1 ? spread(side) : WANDER) {
      const q: Point = [ahead[0] + normal[0] * o, ahead[1] + normal[1] * o];
      const l = lumaAt(img, q);
      if (l < bestLuma) [best, bestLuma] = [q, l];
    }
    const a = lumaAt(img, [best[0] + normal[0] * side, best[1] + normal[1] * side]);
    const b = lumaAt(img, [best[0] - normal[0] * side, best[1] - normal[1] * side]);
    // A crease is darker than the skin on both sides, and the two sides are alike: an edge (lip to skin, the mouth's
    // inside to lip) lies between unlike sides.
    if (bestLuma < (1 - DIP) * Math.min(a, b) && Math.min(a, b) > SIDES_ALIKE * Math.max(a, b)) {
      misses = 0;
      line.push(best);
      // The seam curves up (or down) beyond the corner: the direction follows it, smoothed over a few steps.
      dir = unit([dir[0] + (best[0] - pos[0]) * 0.5, dir[1] + (best[1] - pos[1]) * 0.5]);
      pos = best;
    } else {
      misses++;
      pos = ahead;
    }
  }
  // Steps after the last crease point were misses.
  return line;
}

/**
 * The pixels within the band around the line (and beyond its first point, the corner) take the skin mirrored across
 * the band's edges: a pixel `o` across the line, the pixels at o - 2 band and o + 2 band, blended by where it lies across
 * the band; fully within `side` of the line, fading out to the band's edge.
 */
function fillAlong(src: RgbImage, out: RgbImage, line: Point[], side: number, lips: Point[]): void {
  const band = BAND * side;
  const xs = line.map((p) => p[0]), ys = line.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - band)), x1 = Math.min(src.width - 1, Math.ceil(Math.max(...xs) + band));
  const y0 = Math.max(0, Math.floor(Math.min(...ys) - band)), y1 = Math.min(src.height - 1, Math.ceil(Math.max(...ys) + band));
  const a = new Float32Array(3), b = new Float32Array(3);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const near = nearestOnLine(line, x + 0.5, y + 0.5);
      // At the corner the band is one side wide, widening to BAND sides over one side along the line: the lips' ends
      // beside the corner stay (the full band from the corner on took p03-a's mouthFunnel from 0.078 narrower to 0.016,
      // bar 0.02; widening over BAND sides kept p06-a's thin lip past its far corner, mouthRight 0.010 inwards).
      const half = side + (band - side) * Math.min(1, (near?.from ?? 0) / side);
      if (!near || Math.abs(near.offset) >= half || insidePolygon(lips, x + 0.5, y + 0.5)) continue;
      const { normal, offset } = near;
      sampleBilinear(src, x + 0.5 - normal[0] * 2 * band, y + 0.5 - normal[1] * 2 * band, a);
      sampleBilinear(src, x + 0.5 + normal[0] * 2 * band, y + 0.5 + normal[1] * 2 * band, b);
      const t = (offset + band) / (2 * band);
      const w = Math.min(1, (half - Math.abs(offset)) / Math.max(1, half - side));
      const i = (y * src.width + x) * 3;
      for (let c = 0; c < 3; c++) out.data[i + c] = Math.round(src.data[i + c] + (a[c] + (b[c] - a[c]) * t - src.data[i + c]) * w);
    }
  }
}

/**
 * The unit normal of the polyline where it is nearest (x, y), the signed distance across it and the length along it from
 * its start; undefined behind its start or past its end.
 */
function nearestOnLine(line: Point[], x: number, y: number): { normal: Point; offset: number; from: number } | undefined {
  let best: { normal: Point; offset: number; from: number } | undefined;
  let bestDistance = Infinity;
  for (let k = 0, from = 0; k + 1 < line.length; from += Math.hypot(line[k + 1][0] - line[k][0], line[k + 1][1] - line[k][1]), k++) {
    const [p, q] = [line[k], line[k + 1]];
    const dir = unit([q[0] - p[0], q[1] - p[1]]);
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
    const along = (x - p[0]) * dir[0] + (y - p[1]) * dir[1];
    // Behind the corner are the lips; past the trace's end, skin the crease did not reach.
    if ((k === 0 && along < 0) || (k === line.length - 2 && along > len)) continue;
    const s = Math.min(len, Math.max(0, along));
    const at: Point = [p[0] + dir[0] * s, p[1] + dir[1] * s];
    const distance = Math.hypot(x - at[0], y - at[1]);
    if (distance < bestDistance) {
      const normal: Point = [-dir[1], dir[0]];
      bestDistance = distance;
      best = { normal, offset: (x - at[0]) * normal[0] + (y - at[1]) * normal[1], from: from + s };
    }
  }
  return best;
}
