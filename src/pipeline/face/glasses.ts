/**
 * Glasses in a face photo: found by their frame, a thin dark line where bare skin shades smoothly (across
 * the nose bridge between the eyes, and under each eye over the cheekbone), and removed from the photo
 * before the albedo is baked: the frame's pixels around the eyes are filled from the skin, lids and brows
 * around them (push-pull, as the texture transfer fills gaps). Pure computations on the image and landmarks.
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { pushPullFill, TexelSource } from '../../geometry/texture/transfer-fill.ts';
import { rankFilter } from './rank-filter.ts';
import { EYE_CONTOURS, BROWS, landmarkPoint, fillPolygon, polygonRuns, scaleAboutCentroid, type Point } from './face-regions.ts';
import { rec601Luma } from '../../geometry/render/srgb.ts';

export interface GlassesFinding {
  present: boolean;
  /** How strongly each place shows a frame line: the nose bridge, under the right eye, under the left (image left to right). */
  evidence: { bridge: number; under: [number, number] };
}

/** Contrast (depth of a dark line relative to the skin beside it) from which a place counts as showing a frame. */
const LINE_CONTRAST = 0.35;
/** Outer/inner eye corners and lower-lid middles, subject's right eye first (as EYE_CONTOURS). */
const EYE_CORNERS = [
  [33, 133],
  [263, 362],
];
const LOWER_LID = [145, 374];
/** Nose bridge between the eyes, and the glabella above it. */
const BRIDGE = 168;
const GLABELLA = 9;

function luminanceAt(img: RgbImage, x: number, y: number): number {
  const xi = Math.min(img.width - 1, Math.max(0, Math.round(x)));
  const yi = Math.min(img.height - 1, Math.max(0, Math.round(y)));
  const i = (yi * img.width + xi) * 3;
  return rec601Luma(img.data, i);
}

/**
 * Depth of the darkest thin line across a strip: the strip runs from `from` to `to` (points), `halfWidth`
 * pixels to either side; each step along it averages its cross-section, and the line's depth is how much
 * darker the darkest short run is than the brighter of the two sides around it (relative).
 */
export function lineContrast(img: RgbImage, from: Point, to: Point, halfWidth: number): number {
  const len = Math.hypot(to[0] - from[0], to[1] - from[1]);
  const steps = Math.max(8, Math.round(len));
  const [dx, dy] = [(to[0] - from[0]) / steps, (to[1] - from[1]) / steps];
  const [nx, ny] = [-dy / Math.hypot(dx, dy), dx / Math.hypot(dx, dy)];
  const profile: number[] = [];
  for (let s = 0; s <= steps; s++) {
    let sum = 0;
    let n = 0;
    for (let w = -halfWidth; w <= halfWidth; w++) {
      sum += luminanceAt(img, from[0] + dx * s + nx * w, from[1] + dy * s + ny * w);
      n++;
    }
    profile.push(sum / n);
  }
  // A frame is thin: compare each point with the profile a frame's width or two to either side.
  const gap = Math.max(2, Math.round(steps * 0.12));
  let best = 0;
  for (let s = gap; s + gap < profile.length; s++) {
    const side = Math.min(Math.max(...profile.slice(s - gap, s)), Math.max(...profile.slice(s + 1, s + gap + 1)));
    if (side > 0) best = Math.max(best, (side - profile[s]) / side);
  }
  return best;
}

export function detectGlasses(img: RgbImage, lm: ArrayLike<number>): GlassesFinding {
  const p = (i: number) => landmarkPoint(lm, i);
  const unit = eyeUnit(lm);
  // The bridge: from the nose bridge up to the glabella (the frame's bridge crosses it).
  const bridge = lineContrast(img, p(BRIDGE), p(GLABELLA), Math.max(1, Math.round(unit * 0.12)));
  // Under each eye: from the lower lid's middle straight down (away from the brows) by one eye width.
  const under = LOWER_LID.map((lid, e) => {
    const [outer, inner] = EYE_CORNERS[e].map(p);
    const along: Point = [inner[0] - outer[0], inner[1] - outer[1]];
    const l = Math.hypot(along[0], along[1]);
    const down: Point = [-along[1] / l, along[0] / l];
    // Down is away from the brows whichever way the eye's corners are ordered.
    const sign = Math.sign((p(lid)[0] - p(GLABELLA)[0]) * down[0] + (p(lid)[1] - p(GLABELLA)[1]) * down[1]) || 1;
    const start: Point = [p(lid)[0] + sign * down[0] * unit * 0.15, p(lid)[1] + sign * down[1] * unit * 0.15];
    const end: Point = [start[0] + sign * down[0] * unit, start[1] + sign * down[1] * unit];
    return lineContrast(img, start, end, Math.max(1, Math.round(unit * 0.2)));
  }) as [number, number];
  const places = [bridge, ...under].filter((c) => c > LINE_CONTRAST).length;
  return { present: places >= 2, evidence: { bridge, under } };
}

/**
 * Lenses the eyes cannot be seen through (sunglasses): round each eye, over a lens's reach (OPAQUE_REACH), the median
 * luminance is under this share of the skin's. Bare eyes are mostly lids and skin there: 0.37-0.99 of the skin on the
 * test photos (p08-a's, behind clear glasses in a dark frame, 0.37; p11-a's shaded far eye 0.39), most 0.6-0.9. Dark
 * lenses drawn over the same photos (a gradient, a reflection, a frame; `glasses.test.ts`) read 0.14-0.24. A lighter tint
 * is not found, and its eyes are taken as the photo shows them.
 */
const OPAQUE_LENS = 0.3;
/** Where the skin's luminance is read for the lenses: the cheeks below them and the forehead's middle, which no lens covers. */
const LENS_SKIN = [205, 425, 151];
/** A pixel of an opaque lens or its frame is darker than this share of the skin's luminance. */
const LENS_DARK = 0.6;
/** How far an opaque lens reaches round its eye's centre (an ellipse), in eye widths along and across the eye. */
const OPAQUE_REACH = [0.95, 0.7] as const;
/** Pale islands inside a lens (its reflections) smaller than this many eye widths squared are the lens's too. */
const REFLECTION = 0.6;

/** Whether both eyes are behind opaque lenses (OPAQUE_LENS): then nothing of the eyes can be taken from the photo. */
export function opaqueLenses(img: RgbImage, lm: ArrayLike<number>): boolean {
  const skin = skinLuminance(img, lm);
  return EYE_CORNERS.every(([a, b]) => {
    const runs = polygonRuns(img.width, img.height, lensEllipse(landmarkPoint(lm, a), landmarkPoint(lm, b), 1));
    // The median by a histogram of whole luminance levels: some 7,000 pixels a lens at the analysis size.
    const histogram = new Uint32Array(256);
    let count = 0;
    for (let r = 0; r < runs.length; r += 3) {
      for (let x = runs[r + 1]; x <= runs[r + 2]; x++, count++) histogram[Math.round(rec601Luma(img.data, (runs[r] * img.width + x) * 3))]++;
    }
    if (count < 8) return false;
    let level = 0;
    for (let below = histogram[0]; below <= count / 2; below += histogram[++level]);
    return level < OPAQUE_LENS * skin;
  });
}

/**
 * Per pixel, 1 on opaque lenses and their frame: the pixels darker than LENS_DARK of the skin round each eye (its
 * lens's reach) and those joined to them within LENS_SPREAD times that reach and across the bridge (a large lens or one
 * the landmarks put off the eye), the brows' hair kept; with the reflections they ring, grown by a few pixels over the
 * lenses' soft edge. `skin`: the skin's luminance (skinLuminance), when the caller has it.
 */
export function opaqueLensMask(img: RgbImage, lm: ArrayLike<number>, skin = skinLuminance(img, lm)): Uint8Array {
  const { width, height } = img;
  const dark = LENS_DARK * skin, deepest = OPAQUE_LENS * skin;
  const corners = EYE_CORNERS.map(([a, b]) => [landmarkPoint(lm, a), landmarkPoint(lm, b)] as const);
  const seeds = lensZone(width, height, corners.map(([o, i]) => lensEllipse(o, i, 1)));
  const reach = lensZone(width, height, corners.map(([o, i]) => lensEllipse(o, i, LENS_SPREAD)));
  const brows = new Uint8Array(width * height);
  for (const brow of BROWS) fillPolygon(brows, width, height, brow.map((i) => landmarkPoint(lm, i)));
  // A brow's outline can reach into a lens (the landmarks set it on the lens's dark top): there only as dark as a lens
  // (OPAQUE_LENS) is lens, the rest the brow's hair; inside the lens's own reach the dark is the lens's.
  const lens = (i: number) => reach[i] === 1 && rec601Luma(img.data, i * 3) < (seeds[i] === 1 || !brows[i] ? dark : deepest);
  const mask = new Uint8Array(width * height);
  const queue: number[] = [];
  for (let i = 0; i < mask.length; i++) if (seeds[i] && lens(i)) (mask[i] = 1), queue.push(i);
  for (let k = 0; k < queue.length; k++) {
    const i = queue[k], x = i % width;
    for (const q of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
      if (q < 0 || q >= mask.length || mask[q] || !lens(q)) continue;
      mask[q] = 1;
      queue.push(q);
    }
  }
  const unit = eyeUnit(lm);
  fillSmallIslands(mask, width, boxOf(reach, width), (unit * REFLECTION) ** 2);
  const grown = rankFilter(mask, width, height, Math.max(1, Math.round(unit * LENS_RIM)), 'max');
  return Uint8Array.from(grown, (g, i) => (g > 0 && (seeds[i] === 1 || !brows[i] || mask[i] === 1) ? 1 : 0));
}

/**
 * The photo with its opaque lenses (and the frame's other lines where `frame` was found: detectGlasses) filled from the
 * skin around them: the brows' hair and what is as dark as a lens round them do not colour it (filled from all around,
 * the eyes' place came out a grey band between the brows' dark and the cheeks).
 */
export function withoutOpaqueLenses(img: RgbImage, lm: ArrayLike<number>, frame: boolean): RgbImage {
  const { width, height } = img;
  const skin = skinLuminance(img, lm);
  const mask = opaqueLensMask(img, lm, skin);
  if (frame) glassesFrameMask(img, lm).forEach((v, i) => (mask[i] |= v));
  const dark = LENS_DARK * skin;
  const notSkin = new Uint8Array(width * height);
  for (const brow of BROWS) fillPolygon(notSkin, width, height, scaleAboutCentroid(brow.map((i) => landmarkPoint(lm, i)), BROW_SPREAD));
  for (let i = 0; i < notSkin.length; i++) if (rec601Luma(img.data, i * 3) < dark) notSkin[i] = 1;
  return fillMasked(img, mask, notSkin);
}

/** A brow's landmark outline, scaled about its middle by this, holds its hair's soft edge. */
const BROW_SPREAD = 1.3;

/**
 * The lens mask is grown by this many eye widths: a lens's edge and its frame's rim shade into the skin over some
 * pixels, and left in they greyed the fill (at 0.06, as the frame's mask is grown, a grey band round each eye).
 */
const LENS_RIM = 0.12;

/** How much further than a lens's reach round its eye (OPAQUE_REACH) dark pixels joined to it are taken as the lens's. */
const LENS_SPREAD = 1.6;

/** Per pixel, 1 inside the two lens outlines (subject's right eye first) and the band between them across the bridge. */
function lensZone(width: number, height: number, outlines: Point[][]): Uint8Array {
  const zone = new Uint8Array(width * height);
  for (const e of outlines) fillPolygon(zone, width, height, e);
  const [r, l] = outlines;
  const q = LENS_OUTLINE_POINTS / 4;
  fillPolygon(zone, width, height, [r[q], l[q], l[3 * q], r[3 * q]]);
  return zone;
}

/** The median luminance of the skin at LENS_SKIN, over squares an eighth of an eye wide. */
function skinLuminance(img: RgbImage, lm: ArrayLike<number>): number {
  const r = Math.max(1, Math.round(eyeUnit(lm) * 0.12));
  const lum: number[] = [];
  for (const i of LENS_SKIN) {
    const [x, y] = landmarkPoint(lm, i);
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) lum.push(luminanceAt(img, x + dx, y + dy));
  }
  lum.sort((a, b) => a - b);
  return lum[lum.length >> 1];
}

/** The mean of the two eyes' widths (corner to corner), pixels. */
function eyeUnit(lm: ArrayLike<number>): number {
  const p = (i: number) => landmarkPoint(lm, i);
  return EYE_CORNERS.reduce((sum, [a, b]) => sum + Math.hypot(p(a)[0] - p(b)[0], p(a)[1] - p(b)[1]), 0) / EYE_CORNERS.length;
}

/** The lenses' reach around each eye's centre, in eye widths along and across the eye; the eye and lids (contour scaled) kept as they are. */
const LENS_REACH = [1.85, 1.0] as const;
const EYE_KEPT = 1.3;
/**
 * Frame pixels: darker than the image closed over a window wider than a frame (what the place would look
 * like without a thin dark line across it) by this fraction. Relative to the closing, so a lens in the
 * face's shadow is no darker a frame than one in the light.
 */
const FRAME_DEPTH = 0.3;
/** Half the closing's window, in eye widths: wider than half a thick frame, narrower than the eye. */
const FRAME_HALF_WIDTH = 0.15;
/** The shortest line of frame (eye widths) a dark run under a brow's hair must lie on to count as the frame's bar. */
const BAR_LENGTH = 0.5;

/**
 * Per pixel, 1 on the glasses' frame: thin dark lines (a black top-hat: the closing minus the image) around
 * the eyes (within the lenses' reach, the eyes, lids and brows' hair excluded; the frame's bar where it runs through
 * a brow's outline included) and across the bridge between them, with the pale metal by them (hinges, trim), grown by
 * a few pixels to take the frame's soft edge; small islands the frame rings are taken too.
 */
export function glassesFrameMask(img: RgbImage, lm: ArrayLike<number>): Uint8Array {
  const { width, height } = img;
  const kept = new Uint8Array(width * height);
  const eyes = EYE_CONTOURS.map((c) => c.map((i) => landmarkPoint(lm, i)));
  for (const eye of eyes) fillPolygon(kept, width, height, scaleAboutCentroid(eye, EYE_KEPT));
  const zone = lensZone(width, height, eyes.map((eye) => lensOutline(eye[0], eye[8], LENS_REACH, LENS_ROUNDNESS)));
  const brows = new Uint8Array(width * height);
  for (const brow of BROWS) fillPolygon(brows, width, height, brow.map((i) => landmarkPoint(lm, i)));
  const unit = Math.hypot(eyes[0][0][0] - eyes[0][8][0], eyes[0][0][1] - eyes[0][8][1]);
  const lum = new Float32Array(width * height);
  for (let i = 0; i < lum.length; i++) lum[i] = rec601Luma(img.data, i * 3);
  const reach = Math.max(1, Math.round(unit * FRAME_HALF_WIDTH));
  const closed = rankFilter(rankFilter(lum, width, height, reach, 'max'), width, height, reach, 'min');
  const frame = new Uint8Array(width * height);
  for (let i = 0; i < zone.length; i++) if (zone[i] && !kept[i] && closed[i] - lum[i] > FRAME_DEPTH * closed[i]) frame[i] = brows[i] ? 2 : 1;
  barsUnderBrows(frame, brows, width, height, 2 * reach, Math.round(unit * BAR_LENGTH));
  // The hinges and metal trim: thin bright parts (a white top-hat), pale, where they touch the frame; a brow's hair is
  // dark, so a pale part inside a brow's outline is metal too.
  const opened = rankFilter(rankFilter(lum, width, height, reach, 'min'), width, height, reach, 'max');
  const nearFrame = rankFilter(frame, width, height, reach, 'max');
  for (let i = 0; i < zone.length; i++) {
    if (zone[i] && !kept[i] && nearFrame[i] && lum[i] - opened[i] > FRAME_DEPTH * Math.max(opened[i], 1) && paleAt(img, i)) frame[i] = 1;
  }
  // The brows' hair (what is left of the outlines but their bars) stays as it is.
  for (let i = 0; i < brows.length; i++) if (brows[i] && !frame[i]) kept[i] = 1;
  const grown = rankFilter(frame, width, height, Math.max(1, Math.round(unit * 0.06)), 'max');
  const mask = Uint8Array.from(grown, (g, i) => (g > 0 && zone[i] && !kept[i] ? 1 : 0));
  fillSmallIslands(mask, width, boxOf(zone, width), (unit * ISLAND) ** 2);
  return mask;
}

/** Unmasked islands the frame's mask encloses, smaller than this many eye widths squared, are the frame's too. */
const ISLAND = 0.25;

/** The box (x0, y0, x1, y1, inclusive) of a mask's set pixels. */
function boxOf(mask: Uint8Array, width: number): [number, number, number, number] {
  let [x0, y0, x1, y1] = [width, mask.length, -1, -1];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const [x, y] = [i % width, Math.floor(i / width)];
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return [x0, y0, x1, y1];
}

/**
 * Masks the islands of unmasked pixels within `box` that the mask encloses (not reaching the box's edge) and that
 * hold fewer than `most` pixels: a hinge, a screw or a reflection the frame's tests left, ringed by frame. An eye
 * inside its lens ring is far larger.
 */
function fillSmallIslands(mask: Uint8Array, width: number, box: [number, number, number, number], most: number): void {
  const [x0, y0, x1, y1] = box;
  const seen = new Uint8Array(mask.length);
  const island: number[] = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const start = y * width + x;
      if (mask[start] || seen[start]) continue;
      island.length = 0;
      let open = false;
      seen[start] = 1;
      island.push(start);
      for (let k = 0; k < island.length; k++) {
        const i = island[k];
        const [px, py] = [i % width, Math.floor(i / width)];
        if (px === x0 || py === y0 || px === x1 || py === y1) open = true;
        for (const [qx, qy] of [[px - 1, py], [px + 1, py], [px, py - 1], [px, py + 1]]) {
          const q = qy * width + qx;
          if (qx >= x0 && qx <= x1 && qy >= y0 && qy <= y1 && !mask[q] && !seen[q]) {
            seen[q] = 1;
            island.push(q);
          }
        }
      }
      if (!open && island.length < most) for (const i of island) mask[i] = 1;
    }
  }
}

/**
 * The frame's top bar where it runs through a brow: the detector often takes the bar for the brow's lower edge, so its
 * landmark outline holds both. In each column of the outline, a dark run (`frame` 2) below another one, with skin
 * between them and at most `thickest` pixels tall, may be the bar; it is (set to 1) where it lies on a row's line of
 * frame at least `longest` pixels long that runs on beyond the outline, as a bar does towards the lens's corners and
 * the bridge and a brow's sparse hair or its lower band does not. The rest is the brow's hair (0).
 */
function barsUnderBrows(frame: Uint8Array, brows: Uint8Array, width: number, height: number, thickest: number, longest: number): void {
  const CANDIDATE = 3;
  for (let x = 0; x < width; x++) {
    let runs = 0;
    for (let y = 0; y < height; ) {
      if (!brows[y * width + x] || frame[y * width + x] !== 2) {
        y++;
        continue;
      }
      let end = y;
      while (end < height && brows[end * width + x] && frame[end * width + x] === 2) end++;
      const bar = runs > 0 && end - y <= thickest;
      for (let r = y; r < end; r++) frame[r * width + x] = bar ? CANDIDATE : 0;
      runs++;
      y = end;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; ) {
      if (!frame[y * width + x]) {
        x++;
        continue;
      }
      let end = x;
      while (end < width && frame[y * width + end]) end++;
      // Frame outside the outline on the line or up to `thickest` pixels off its ends: the outline's edge columns hold
      // the bar as their only, topmost, run and break the line there.
      let beyond = false;
      for (let c = Math.max(0, x - 1 - thickest); c <= Math.min(width - 1, end + thickest) && !beyond; c++) beyond = frame[y * width + c] === 1 && !brows[y * width + c];
      const bar = beyond && end - x >= longest;
      for (let c = x; c < end; c++) if (frame[y * width + c] === CANDIDATE) frame[y * width + c] = bar ? 1 : 0;
      x = end;
    }
  }
}

/** Saturation, (max - min) / max, below which a bright pixel by the frame is metal or a reflection, not skin. */
const METAL_SATURATION = 0.2;

function paleAt(img: RgbImage, i: number): boolean {
  const [r, g, b] = [img.data[i * 3], img.data[i * 3 + 1], img.data[i * 3 + 2]];
  const hi = Math.max(r, g, b);
  return hi > 0 && (hi - Math.min(r, g, b)) / hi < METAL_SATURATION;
}

const LENS_OUTLINE_POINTS = 32;
/**
 * Frames are rounded rectangles more than ellipses: the outline is a superellipse, its cosine and sine taken to this
 * power (1 an ellipse). As an ellipse it left the corners of p08-a's frame, by the hinges, in the photo.
 */
const LENS_ROUNDNESS = 0.5;

/**
 * A lens's outline round the eye between its corners (LENS_OUTLINE_POINTS, starting along the eye): `reach` eye widths
 * along and across the eye, a superellipse whose cosine and sine are taken to the power `roundness` (1 an ellipse).
 */
function lensOutline(outer: Point, inner: Point, reach: readonly [number, number], roundness: number): Point[] {
  const w = Math.hypot(inner[0] - outer[0], inner[1] - outer[1]);
  const u: Point = [(inner[0] - outer[0]) / w, (inner[1] - outer[1]) / w];
  const [cx, cy] = [(outer[0] + inner[0]) / 2, (outer[1] + inner[1]) / 2];
  return Array.from({ length: LENS_OUTLINE_POINTS }, (_, k): Point => {
    const t = (2 * Math.PI * k) / LENS_OUTLINE_POINTS;
    const [c, s] = [Math.cos(t), Math.sin(t)];
    const [a, b] = [Math.sign(c) * Math.abs(c) ** roundness * reach[0] * w, Math.sign(s) * Math.abs(s) ** roundness * reach[1] * w];
    return [cx + a * u[0] - b * u[1], cy + a * u[1] + b * u[0]];
  });
}

/** An opaque lens's ellipse round the eye between its corners, `scale` times OPAQUE_REACH. */
function lensEllipse(outer: Point, inner: Point, scale: number): Point[] {
  return lensOutline(outer, inner, [scale * OPAQUE_REACH[0], scale * OPAQUE_REACH[1]], 1);
}

/** Half-width (pixels) of the blur that splits the photo into shading and texture for the fill. */
const DETAIL_RADIUS = 3;
/** Most the mirrored texture changes a pixel, relative to its smooth colour. */
const TEXTURE_LIMIT = 0.12;
/** Farthest (pixels) the fill looks for skin beside a masked pixel. */
const MIRROR_REACH = 40;

/**
 * A copy of the photo with the masked pixels filled from the pixels around them: the smooth colour by
 * push-pull over the mask's box, and the texture (pores, stubble, lid creases: the photo minus its blur)
 * from the skin mirrored across the mask's nearest edge, so that a filled frame is not a blurred band. Pixels
 * `notSkin` marks give neither.
 */
export function fillMasked(img: RgbImage, mask: Uint8Array, notSkin?: Uint8Array): RgbImage {
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
      source[y * size + x] = mask[i] ? TexelSource.fill : notSkin?.[i] ? TexelSource.none : TexelSource.scan;
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
