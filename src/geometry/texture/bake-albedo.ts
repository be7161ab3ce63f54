/**
 * Bakes the head's albedo atlas: texels of the visible face come from the photo through the estimated
 * camera; everything else is skin whose colour is interpolated from the face's border (so that the colour
 * continues across the seam) and drifts to the median skin tone far from the face, a beard at the jaw's border going
 * on under the chin and along the jaw. A feathered weight
 * blends the two. Parts of the face the camera did not see (turned away, or hidden behind the nose) and the skin under
 * a hair mesh take the photo's skin around them instead of smeared pixels or the fill.
 */
import type { RgbImage, Rgb } from './rgb-image.ts';
import { projectPoints, facingCamera, type PhotoCamera } from './photo-camera.ts';
import { layoutRaster, dilate, type UvRaster } from './uv-raster.ts';
import { sampleBilinear, medianPatch, median } from './sample.ts';
import { signedPolygonDistance } from '../spatial/polygon-distance.ts';
import type { HairCover } from '../hair/hair-cover.ts';
import { srgbToLinear, linearToSrgb, LINEAR_STEPS, luminance, rec601Luma } from '../render/srgb.ts';
import { applyGains } from './white-balance.ts';
import { pushPullFill, TexelSource } from './transfer-fill.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';
import { keepsShine } from './photo-features.ts';
import { hairLikeness, hairPatchRadius } from './facial-hair.ts';
import { mirrorPartners } from './mirror-partners.ts';
import { faceFrame } from './side-light.ts';

export interface AlbedoInput {
  size: number;
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  photo: RgbImage;
  camera: PhotoCamera;
  /** Vertex ids of the face's outer boundary loop, in order. */
  faceOval: readonly number[];
  /** The photo's skin tone (see measureSkinTone). */
  skin: Rgb;
  /** Per vertex, 0 where the photo's camera did not see the surface (occluded): the photo's skin around it takes over there. */
  visible?: Uint8Array;
  /** Hair over the fill: per-vertex coverage (0..1) and colour. */
  hair?: { coverage: Float32Array; colour: Rgb };
  /**
   * Per vertex, how much a hair mesh lies over the skin (0..1, see hair-cover.ts): the photo is not baked
   * there (its hair would show through the mesh's), the photo's skin around it takes over.
   */
  hairOver?: HairCover;
  /**
   * Vertices on the front of the neck: where the photo shows them as skin (seen, facing the camera and
   * near the skin tone, not a collar or a scarf), their colour there joins the face border's in the fill,
   * so the neck and the bust take the photo's neck colour, and the face's tone further away.
   */
  neck?: readonly number[];
  /**
   * The lips: the vertex ids of their outer contour, in order, and their colour in the photo (see synthesiseLips).
   * Inside the contour in the photo, what the camera did not see (the lips' inner rim, which sealed lips roll in) takes
   * that colour in the lips' shade as its fill, not the skin around (with the photo's lips continued there the blendshape
   * observer read five of p06-a's mouth shapes wrong, mouthFunnel and mouthPucker not narrowing the mouth) nor the
   * skin tone (a pale strip between the lips, which the landmark detector read as parted lips).
   */
  lips?: { contour: readonly number[]; colour: Rgb };
  /** Vertex sets painted with a fixed colour instead of the photo (e.g. the mouth's inside). */
  fixed?: { vertices: readonly number[]; colour: Rgb }[];
  /** Per vertex, linear RGB gains from the photo's colour to albedo (white balance, shading; see estimatePhotoLight). */
  photoGain?: Float32Array;
  /** Per photo pixel, 0..255 person (see estimatePersonMatte): background pixels give no colour. */
  matte?: Uint8Array;
  /**
   * Specular highlights are compressed in skin texels much brighter than `skin` (the albedo's skin tone, sRGB);
   * `features` (per photo pixel, see photo-features.ts) whose own shine stays are left as they are.
   */
  highlights?: { skin: Rgb; features: Uint8Array };
  /**
   * Where the atlas is written (size * size RGBA texels): in shared memory, the pipeline's threads hold it without a
   * copy of its 16 MB per avatar. A new array when not given.
   */
  out?: Uint8Array;
}

export interface AlbedoResult {
  rgba: Uint8Array;
  /** Per-vertex photo weight (0..1), for inspection and tests. */
  photoWeight: Float32Array;
}

/** Ramp width, as a fraction of the face's width in the image, over which photo and fill are blended. */
const FEATHER = 0.1;

/** Normals facing the camera less than this take no photo colour; full weight from FACING_FULL. */
const FACING_MIN = 0.15;
const FACING_FULL = 0.45;
/** The skin fill is baked at 1/FILL_REDUCTION of the atlas size. */
const FILL_REDUCTION = 4;
/**
 * The skin under a hair mesh or unseen continues the photo's skin around it, filled on a grid of 1/AROUND_REDUCTION of
 * the atlas size (push-pull: smooth, and a few milliseconds).
 */
const AROUND_REDUCTION = 8;
/** The matte's alpha (0..255) below which a pixel is background, and from which it fully counts. */
const MATTE_RAMP = [96, 224] as const;
/** Unseen texels this far (mouth widths) outside the outer lip contour still count as the lips' (see AlbedoInput.lips). */
const LIPS_MARGIN = 0.05;
/**
 * The lips' unseen inner rim: their colour at this share, the wet lip in the seam's shade. From the front and from below
 * it reads as closed lips' dark seam (at 0.7 the blendshape observer read p06-a's mouthRight wrong; at 0.55 every shape
 * passes).
 */
const LIP_RIM_SHADE = 0.55;
/** Skin luminance, relative to the skin tone's, above which a texel counts as highlight; the part of the excess kept. */
const HIGHLIGHT_KNEE = 1.15;
const HIGHLIGHT_KEEP = 0.35;

export function bakeAlbedo(input: AlbedoInput): AlbedoResult {
  const n = input.positions.length / 3;
  const img = projectPoints(input.camera, input.positions);
  const facing = facingCamera(input.camera, input.normals);
  const oval = input.faceOval.map((v) => [img[v * 2], img[v * 2 + 1]] as [number, number]);
  const faceWidth = Math.max(...oval.map((p) => p[0])) - Math.min(...oval.map((p) => p[0]));
  const feather = FEATHER * faceWidth;
  const frontMost = Math.min(...input.faceOval.map((v) => input.positions[v * 3 + 2]));

  const skin = input.skin;
  const fixedOf = fixedColourOf(n, input.fixed ?? []);
  const onLips = lipVertices(input, img, frontMost);
  const { weight, fromAround } = photoWeights(input, img, facing, fixedOf, onLips, oval, feather, frontMost);
  const mirror = anyPositive(fromAround) ? mirrorAttributes(input, weight, fromAround) : undefined;
  const fill = fillColours(input, img, skin, fixedOf, onLips);
  const gain = input.photoGain;

  const size = input.size;
  // The fill is smooth: bake it at a quarter of the size and magnify; only the face's triangles are
  // baked at full size. This keeps the 2048 atlas cheap where it holds no photo detail.
  const bytes = magnify(bakeFill(input, fill, skin, size / FILL_REDUCTION), size / FILL_REDUCTION, FILL_REDUCTION, input.out);
  const rgba = new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.length);
  const px = new Float32Array(3);
  const attrs = vertexAttributes(img, weight, gain, fromAround);
  const { photo, matte, highlights } = input;
  const skinLum = highlights && luminance(highlights.skin.map((c) => srgbToLinear[Math.round(c)]));
  const { indices, uvs } = input;
  const faceTriangles = trianglesTouched(indices, weight, fromAround);
  const sampler: PhotoSource = { photo, matte, convert: !!gain || !!skinLum, skinLum: skinLum || 0, features: highlights?.features, px };
  const under = mirror && skinAround(layoutRaster(uvs, indices, size / AROUND_REDUCTION), faceTriangles, attrs, mirror, sampler);
  // Hair hanging over the face's border stays in the texture: removing it made renders less like the person
  // (tried: a colour test in a band along the border, identity distance +0.04; the observed hair region cut out of
  // the matte, grown by a matte cell: p04-a's dark temple streak went, but its cells left square seams between
  // photo and fill at other temples, p07-a's and p01-b's; faded over four cells, identity +0.011 on six photos).
  const underImage = under && { width: size / AROUND_REDUCTION, height: size / AROUND_REDUCTION, data: under };
  bakePhoto(rgba, layoutRaster(uvs, indices, size), faceTriangles, attrs, sampler, underImage);
  return { rgba: bytes, photoWeight: weight };
}

/*
 * The loops over the head's vertices and triangles below are module functions taking their state as arguments, not
 * loops in bakeAlbedo: called once per avatar, it was compiled again on stack (OSR) for each loop on every one.
 */

/** Per vertex: index + 1 of its fixed colour, 0 for skin. */
function fixedColourOf(n: number, fixed: NonNullable<AlbedoInput['fixed']>): Uint8Array {
  const fixedOf = new Uint8Array(n);
  for (let i = 0; i < fixed.length; i++) for (const v of fixed[i].vertices) fixedOf[v] = i + 1;
  return fixedOf;
}

/**
 * Per vertex, the photo's weight (inside the face's oval, feathered over `feather` pixels; facing the camera; seen)
 * and the share the photo's skin around it takes instead (`fromAround`): where a hair mesh lies over the skin, and inside
 * the face where the camera did not see it (hidden behind the nose, the nostrils from above: the fill there was the
 * skin tone's, a pale patch beside and under the nose; turned away).
 */
function photoWeights(
  input: AlbedoInput,
  img: Float32Array,
  facing: Float32Array,
  fixedOf: Uint8Array,
  onLips: Uint8Array,
  oval: [number, number][],
  feather: number,
  frontMost: number,
): { weight: Float32Array; fromAround: Float32Array } {
  const { positions, visible, hairOver } = input;
  const n = positions.length / 3;
  const weight = new Float32Array(n);
  const fromAround = new Float32Array(n);
  for (let v = 0; v < n; v++) {
    if (fixedOf[v]) continue;
    // Points behind the face's rim (the back of the head) also project inside the oval.
    if (positions[v * 3 + 2] < frontMost - 1) continue;
    const d = insideDistance(oval, img[v * 2], img[v * 2 + 1]);
    if (d <= 0) continue;
    const inside = smoothstepBetween(0, feather, d);
    const seen = visible && !visible[v] ? 0 : smoothstepBetween(FACING_MIN, FACING_FULL, facing[v]);
    const hair = hairOver?.at(v) ?? 0;
    weight[v] = inside * seen * (1 - hair);
    fromAround[v] = onLips[v] ? inside * seen * hair : inside - weight[v];
  }
  return { weight, fromAround };
}

/**
 * Per vertex, 1 where it lies on the lips in the photo: inside their outer contour or a little beyond it (LIPS_MARGIN
 * mouth widths), and in front (the back of the head projects there too; `frontMost` as in photoWeights).
 */
function lipVertices(input: AlbedoInput, img: Float32Array, frontMost: number): Uint8Array {
  const { positions } = input;
  const onLips = new Uint8Array(positions.length / 3);
  if (!input.lips) return onLips;
  const lips = input.lips.contour.map((v) => [img[v * 2], img[v * 2 + 1]] as [number, number]);
  // The corners are the contour's 1st and 11th points.
  const margin = LIPS_MARGIN * Math.hypot(lips[0][0] - lips[10][0], lips[0][1] - lips[10][1]);
  for (let v = 0; v < onLips.length; v++) {
    onLips[v] = positions[v * 3 + 2] >= frontMost - 1 && signedPolygonDistance(lips, img[v * 2], img[v * 2 + 1]) > -margin ? 1 : 0;
  }
  return onLips;
}

/** Per vertex, the 7 attributes the atlas interpolates: image x, y, photo weight, gains, share from the skin around. */
function vertexAttributes(img: Float32Array, weight: Float32Array, gain: Float32Array | undefined, fromAround: Float32Array): Float32Array {
  const n = weight.length;
  const attrs = new Float32Array(n * 7);
  for (let v = 0; v < n; v++) {
    attrs[v * 7] = img[v * 2];
    attrs[v * 7 + 1] = img[v * 2 + 1];
    attrs[v * 7 + 2] = weight[v];
    for (let c = 0; c < 3; c++) attrs[v * 7 + 3 + c] = gain ? gain[v * 3 + c] : 1;
    attrs[v * 7 + 6] = fromAround[v];
  }
  return attrs;
}

/** How far (cm) a mirror partner may lie from a vertex's mirror image (the face is not quite symmetric). */
const MIRROR_REACH = 0.6;

/**
 * Per vertex, the 7 attributes of its mirror image across the face's symmetry plane (vertexAttributes' layout): where
 * the photo shows it (the mirror image projected), the photo weight of its mirror partner and the partner's gains.
 * Where the photo shows a vertex poorly (the far side of a turned face, a cheek behind the nose), its mirror partner
 * on the other side is often in plain view, and its skin is the nearer likeness than the skin around (skinAround).
 */
function mirrorAttributes(input: AlbedoInput, weight: Float32Array, fromAround: Float32Array): Float32Array {
  const { positions, photoGain } = input;
  const n = weight.length;
  const listed: number[] = [];
  const candidates: number[] = [];
  for (let v = 0; v < n; v++) {
    if (weight[v] > 0 || fromAround[v] > 0) listed.push(v);
    if (weight[v] >= 0.5) candidates.push(v);
  }
  const plane = faceFrame(positions, input.faceOval).centre[0];
  const partners = mirrorPartners(positions, listed, candidates, plane, MIRROR_REACH);
  const mirrored = new Float32Array(listed.length * 3);
  listed.forEach((v, i) => mirrored.set([2 * plane - positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]], i * 3));
  const img = projectPoints(input.camera, mirrored);
  const attrs = new Float32Array(n * 7);
  listed.forEach((v, i) => {
    const u = partners[i];
    if (u < 0) return;
    attrs[v * 7] = img[i * 2];
    attrs[v * 7 + 1] = img[i * 2 + 1];
    attrs[v * 7 + 2] = weight[u];
    for (let c = 0; c < 3; c++) attrs[v * 7 + 3 + c] = photoGain ? photoGain[u * 3 + c] : 1;
  });
  return attrs;
}

/** The triangles with a corner that takes photo colour or the photo's skin around it. */
function trianglesTouched(indices: Uint32Array, weight: Float32Array, fromAround: Float32Array): Uint32Array {
  const list = new Uint32Array(indices.length / 3);
  let count = 0;
  for (let t = 0; t < list.length; t++) {
    const a = indices[t * 3], b = indices[t * 3 + 1], c = indices[t * 3 + 2];
    if (weight[a] > 0 || fromAround[a] > 0 || weight[b] > 0 || fromAround[b] > 0 || weight[c] > 0 || fromAround[c] > 0) list[count++] = t;
  }
  return list.subarray(0, count);
}

function anyPositive(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] > 0) return true;
  return false;
}

/**
 * The photo, and the photo's skin around where it is not seen or lies under the hair, over the fill at full size on
 * the listed triangles: the atlas's hot loop (a million texels), the raster's rows walked here, and of the interpolated
 * attributes (`attrs`: 7 per vertex, image x, y, photo weight, gains, share from around) only the weights until a
 * texel turns out to take photo colour.
 */
function bakePhoto(rgba: Uint8ClampedArray, raster: UvRaster, triangles: Uint32Array, attrs: Float32Array, sampler: PhotoSource, under: RgbImage | undefined): void {
  const { indices, size, firstRow, top, spans } = raster;
  const { px } = sampler;
  const around = new Float32Array(3);
  const t = new Float32Array(7);
  const da = new Float32Array(7);
  const db = new Float32Array(7);
  const w6 = new Float64Array(6);
  for (let i = 0; i < triangles.length; i++) {
    const tri = triangles[i];
    if (firstRow[tri] === firstRow[tri + 1]) continue;
    raster.box(tri, w6);
    const a = indices[tri * 3], b = indices[tri * 3 + 1], c = indices[tri * 3 + 2];
    // Attribute = A_c + wa (A_a - A_c) + wb (A_b - A_c), in single precision as the attributes are.
    for (let k = 0; k < 7; k++) {
      da[k] = attrs[a * 7 + k] - attrs[c * 7 + k];
      db[k] = attrs[b * 7 + k] - attrs[c * 7 + k];
    }
    const cb = c * 7;
    const wa0 = w6[0], waX = w6[1], waY = w6[2], wb0 = w6[3], wbX = w6[4], wbY = w6[5];
    for (let r = firstRow[tri], y = top[tri]; r < firstRow[tri + 1]; r++, y++) {
      const py = y + 0.5;
      for (let x = spans[r * 2]; x < spans[r * 2 + 1]; x++) {
        const pxc = x + 0.5;
        const wa = wa0 + waX * pxc + waY * py;
        const wb = wb0 + wbX * pxc + wbY * py;
        const o = (y * size + x) * 4;
        const u = under ? Math.fround(attrs[cb + 6] + wa * da[6] + wb * db[6]) : 0;
        if (u > 0.002) {
          // Under the hair or unseen: the photo's skin around it, where the photo would have been.
          sampleBilinear(under!, pxc / AROUND_REDUCTION, py / AROUND_REDUCTION, around, 4);
          for (let k = 0; k < 3; k++) rgba[o + k] = u * around[k] + (1 - u) * rgba[o + k];
        }
        if (!(Math.fround(attrs[cb + 2] + wa * da[2] + wb * db[2]) > 0.002)) continue;
        for (let k = 0; k < 6; k++) t[k] = attrs[cb + k] + wa * da[k] + wb * db[k];
        const w = photoColour(sampler, t);
        if (w <= 0.002) continue;
        rgba[o] = w * px[0] + (1 - w) * rgba[o];
        rgba[o + 1] = w * px[1] + (1 - w) * rgba[o + 1];
        rgba[o + 2] = w * px[2] + (1 - w) * rgba[o + 2];
      }
    }
  }
}

/** What a texel's photo colour is made from. */
interface PhotoSource {
  photo: RgbImage;
  matte: Uint8Array | undefined;
  /** Whether the colour goes through linear light (gains or highlights). */
  convert: boolean;
  /** The skin tone's linear luminance for the highlights, 0 for none. */
  skinLum: number;
  features: Uint8Array | undefined;
  /** The colour out. */
  px: Float32Array;
}

/** The matte's weight per alpha value. */
const MATTE_WEIGHT = Float64Array.from({ length: 256 }, (_, a) => smoothstepBetween(MATTE_RAMP[0], MATTE_RAMP[1], a));

/**
 * The photo weight at a texel (`t`: image x, y, photo weight, gains; the matte's edge gives none) and its colour
 * into `s.px`, or 0. A module function, not a closure per bake: the atlas's loop inlines it by identity, and a
 * new closure on every avatar threw that optimized code away.
 */
function photoColour(s: PhotoSource, t: Float32Array): number {
  const { photo, matte, px } = s;
  const pixel = Math.min(photo.height - 1, Math.max(0, Math.floor(t[1]))) * photo.width + Math.min(photo.width - 1, Math.max(0, Math.floor(t[0])));
  const w = matte ? t[2] * MATTE_WEIGHT[matte[pixel]] : t[2];
  if (w <= 0.002) return 0;
  sampleBilinear(photo, t[0], t[1], px);
  if (s.convert) {
    for (let c = 0; c < 3; c++) px[c] = srgbToLinear[roundSingle(px[c])];
    // The photo's own luminance, before the gains: how bright the highlights may come out.
    const own = luminance(px);
    for (let c = 0; c < 3; c++) px[c] *= t[3 + c];
    if (s.skinLum && !keepsShine(s.features![pixel])) compressHighlight(px, s.skinLum, own / s.skinLum);
    for (let c = 0; c < 3; c++) px[c] = linearToSrgb[Math.min(LINEAR_STEPS - 1, roundSingle(px[c] * (LINEAR_STEPS - 1)))];
  }
  return w;
}

/**
 * The photo's skin continued on a coarse atlas grid (`size` texels a side), for texels under a hair mesh or unseen:
 * texels the photo gives mostly (weight at least a half) keep its colour, then those whose mirror image it gives
 * mostly (`mirror`, mirrorAttributes) take that, and all others take a push-pull continuation of them.
 */
function skinAround(raster: UvRaster, triangles: Uint32Array, attrs: Float32Array, mirror: Float32Array, sampler: PhotoSource): Uint8Array {
  const { px } = sampler;
  const { size } = raster;
  const rgba = new Uint8Array(size * size * 4);
  const source = new Uint8Array(size * size);
  for (const layer of [attrs, mirror]) {
    raster.visit(layer, 7, (texel, t) => {
      if (source[texel] === TexelSource.scan || t[2] < 0.5 || photoColour(sampler, t) < 0.5) return;
      for (let c = 0; c < 3; c++) rgba[texel * 4 + c] = px[c];
      source[texel] = TexelSource.scan;
    }, triangles);
  }
  // Every other texel is filled: a fine texel from around samples its coarse neighbours bilinearly.
  for (let i = 0; i < source.length; i++) if (source[i] !== TexelSource.scan) source[i] = TexelSource.fill;
  pushPullFill(rgba, source, size);
  return rgba;
}

/** The fill colour over the whole atlas at a reduced size, islands grown by a few texels, background skin. */
function bakeFill(input: AlbedoInput, fill: Float32Array, skin: Rgb, size: number): Uint8Array {
  const rgba = new Uint8ClampedArray(size * size * 4);
  const covered = new Uint8Array(size * size);
  layoutRaster(input.uvs, input.indices, size).interpolate(fill, 3, rgba, 4, covered);
  // Opaque: every texel is covered, grown into from a covered one, or the background.
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  const bytes = new Uint8Array(rgba.buffer);
  dilate(bytes, covered, size, 2);
  // The background as whole texels: the skin's bytes (converted as a byte array's set does) and opaque.
  const background = new Uint8Array(4);
  background.set(skin);
  background[3] = 255;
  const texel = new Uint32Array(background.buffer)[0];
  const texels = new Uint32Array(bytes.buffer);
  for (let i = 0; i < covered.length; i++) if (!covered[i]) texels[i] = texel;
  return bytes;
}

/**
 * Bilinear magnification of an RGBA image by an integer factor (texel centres aligned). Works on whole
 * 32-bit texels with 8-bit fixed-point weights, two channels per multiply (red/blue and green/alpha lanes):
 * the atlas is 4 M texels and this runs on every avatar. Separable: each source row is widened once and
 * kept while the output rows between it and the next are blended from the two.
 */
function magnify(src: Uint8Array, size: number, factor: number, out: Uint8Array = new Uint8Array(size * factor * size * factor * 4)): Uint8Array {
  const big = size * factor;
  if (out.length !== big * big * 4) throw new RangeError(`an atlas of ${big} texels a side is ${big * big * 4} bytes, not ${out.length}`);
  const from = new Uint32Array(src.buffer, src.byteOffset, size * size);
  const to = new Uint32Array(out.buffer, out.byteOffset, big * big);
  // Source columns and weights are the same on every row.
  const x0s = new Int32Array(big);
  const x1s = new Int32Array(big);
  const axs = new Int32Array(big);
  for (let x = 0; x < big; x++) {
    const fx = magnifiedCoord(x, size, factor);
    x0s[x] = Math.floor(fx);
    x1s[x] = Math.min(size - 1, x0s[x] + 1);
    axs[x] = Math.round((fx - x0s[x]) * 256);
  }
  // The widened source rows, an even row in one and an odd one in the other (two neighbours never share one).
  const even = new Uint32Array(big), odd = new Uint32Array(big);
  let evenRow = -1, oddRow = -1;
  for (let y = 0; y < big; y++) {
    const fy = magnifiedCoord(y, size, factor);
    const r0 = Math.floor(fy), r1 = Math.min(size - 1, r0 + 1);
    for (let r = r0; r <= r1; r++) {
      if (r & 1 ? oddRow === r : evenRow === r) continue;
      widenRow(from, r * size, x0s, x1s, axs, r & 1 ? odd : even);
      if (r & 1) oddRow = r;
      else evenRow = r;
    }
    const top = r0 & 1 ? odd : even;
    const bottom = r1 & 1 ? odd : even;
    const ay = Math.round((fy - r0) * 256);
    const o = y * big;
    for (let x = 0; x < big; x++) to[o + x] = lerpTexel(top[x], bottom[x], ay);
  }
  return out;
}

/** Output texel i's source coordinate under magnification by `factor` (texel centres aligned, clamped to the image). */
function magnifiedCoord(i: number, size: number, factor: number): number {
  return Math.min(size - 1, Math.max(0, (i + 0.5) / factor - 0.5));
}

/** One source row (from `from[o]` on) widened into `row` by the columns' tables. */
function widenRow(from: Uint32Array, o: number, x0s: Int32Array, x1s: Int32Array, axs: Int32Array, row: Uint32Array): void {
  for (let x = 0; x < row.length; x++) row[x] = lerpTexel(from[o + x0s[x]], from[o + x1s[x]], axs[x]);
}

/**
 * a + (b - a) * w / 256 on the four bytes of two packed texels, w in 0..256. A lane's sum is at most 255 * 256, so
 * the two lanes' sums fit in 32 bits: integer multiplies that wrap (the bits stay right) keep it off doubles.
 */
function lerpTexel(a: number, b: number, w: number): number {
  const iw = 256 - w;
  const rb = (((Math.imul(a & 0xff00ff, iw) + Math.imul(b & 0xff00ff, w)) | 0) >>> 8) & 0xff00ff;
  const ga = ((Math.imul((a >>> 8) & 0xff00ff, iw) + Math.imul((b >>> 8) & 0xff00ff, w)) | 0) & 0xff00ff00;
  return rb | ga;
}

/**
 * Math.round of a single-precision value (or its product with a small integer): x + 0.5 is exact for those,
 * so that below 2^31 a truncation rounds the same, without the general rounding's cost (three per photo texel).
 */
function roundSingle(x: number): number {
  return x >= 0 && x < 0x7fffffff ? (x + 0.5) | 0 : Math.round(x);
}

/**
 * Highlights: skin brighter than HIGHLIGHT_KNEE times the skin tone's luminance keeps only a part of the
 * excess, at its own colour. The gains lift shadows: they bring a texel up to the knee but no brighter than the photo
 * showed it (`own`, its luminance before the gains, over the skin tone's). The side light's gain on a face's shaded
 * side is up to 2x, and the photo's highlights there (a nose bridge's, a cheekbone's) came out as white blotches. A
 * separation into skin colour plus white (dichromatic reflection) was tried: per texel it amplified pores and freckles
 * into grey speckles on the forehead.
 */
function compressHighlight(c: Float32Array, skinLum: number, own: number): void {
  const l = luminance(c) / skinLum;
  if (l <= HIGHLIGHT_KNEE) return;
  const lifted = Math.min(l, Math.max(own, HIGHLIGHT_KNEE));
  const k = (HIGHLIGHT_KNEE + (lifted - HIGHLIGHT_KNEE) * HIGHLIGHT_KEEP) / l;
  for (let i = 0; i < 3; i++) c[i] *= k;
}

/** Distance from (x, y) to the polygon's border, positive inside and 0 outside. */
export function insideDistance(poly: [number, number][], x: number, y: number): number {
  return Math.max(0, signedPolygonDistance(poly, x, y));
}

/** Median skin colour over patches (radius in pixels) around image points on plain skin (cheeks, forehead). */
export function measureSkinTone(photo: RgbImage, points: [number, number][], radius: number): Rgb {
  const samples = points.map(([x, y]) => medianPatch(photo, x, y, radius));
  return [0, 1, 2].map((c) => median(samples.map((s) => s[c]))) as Rgb;
}

/** A border sample's luminance is kept within these ratios of the skin tone's (shadow or hair must not spread). */
const ANCHOR_LUMINANCE = [0.7, 1.1] as const;
/**
 * Where the fill faces sideways (its normal's z, the head's forward axis, from SIDEWAYS[1] down to SIDEWAYS[0]), a border
 * sample's luminance is kept at least SIDEWAYS[2] of the skin tone's. The border's shade is the face turning away from
 * the camera, not the skin's colour: held there, the head's sides showed a greyer halo round the face in every turned
 * view (p13-a's cheek, p06-a's temple). The fill the front view sees keeps the floor above: lighter, it cost likeness.
 */
const SIDEWAYS = [0.2, 0.5, 0.9] as const;
/** At this luminance ratio or below, a border sample's hue is not trusted at all; fully from ANCHOR_LUMINANCE[0]. */
const SHADOW_HUE_RATIO = 0.35;

/**
 * Facial hair at the jaw's border goes on past it. A border sample below the mouth's corners is a beard's or stubble's
 * as far as it reads as hair (hairLikeness, on its de-lit luminance ratio). With at least `least` such samples, one
 * of them within `chin` cm of the chin's middle (see beardColourOf), the beard's colour (their median, no darker than
 * `lightest` of the skin tone's luminance: the border's samples lie where the jaw turns away into shadow) covers the
 * fill as they weigh among the samples near it, wholly within `reachFull` cm of one, not from `reach` cm: under the
 * chin and along the jaw the photo does not show, the beard goes on instead of clean skin.
 */
const BEARD = { least: 3, chin: 2, lightest: 0.45, reachFull: 1, reach: 3 };

/**
 * The fill under the photo for every vertex: skin colour by inverse-distance interpolation of colours sampled just
 * inside the face's border, each kept near the median tone (hair or shadow at the border must not spread), fading to
 * the median, under a beard the jaw's border shows (see BEARD); but on the lips (`onLips`) their colour in shade,
 * under the vertex's gains as the photo there.
 */
function fillColours(input: AlbedoInput, img: Float32Array, skin: Rgb, fixedOf: Uint8Array, onLips: Uint8Array): Float32Array {
  const ovalIds = input.faceOval;
  let cx = 0;
  let cy = 0;
  for (const v of ovalIds) {
    cx += img[v * 2] / ovalIds.length;
    cy += img[v * 2 + 1] / ovalIds.length;
  }
  const r = hairPatchRadius(input.camera.pixelsPerCm);
  const skinLum = rec601Luma(skin);
  const { photo, matte, photoGain, positions } = input;
  // The border below the mouth's corners (the lips' outer contour's 1st and 11th points) is the jaw's.
  const lips = input.lips?.contour;
  const jawBelow = lips ? (positions[lips[0] * 3 + 1] + positions[lips[10] * 3 + 1]) / 2 : -Infinity;
  const anchors = ovalIds.flatMap((v) => {
    const x = img[v * 2] + (cx - img[v * 2]) * 0.12;
    const y = img[v * 2 + 1] + (cy - img[v * 2 + 1]) * 0.12;
    const pixel = Math.min(photo.height - 1, Math.max(0, Math.round(y))) * photo.width + Math.min(photo.width - 1, Math.max(0, Math.round(x)));
    if ((matte && matte[pixel] < MATTE_RAMP[1]) || (input.hairOver?.at(v) ?? 0) > 0.5) return [];
    let c = medianPatch(photo, x, y, r);
    if (photoGain) c = applyGains(c, [photoGain[v * 3], photoGain[v * 3 + 1], photoGain[v * 3 + 2]]);
    const ratio = rec601Luma(c) / skinLum;
    const kept = Math.min(ANCHOR_LUMINANCE[1], Math.max(ANCHOR_LUMINANCE[0], ratio));
    const k = kept * (skinLum / Math.max(1, rec601Luma(c)));
    // Deeper in shadow than the light explains, a sample's hue is the shadow's (saturated, often red), not the skin's.
    const trust = smoothstepBetween(SHADOW_HUE_RATIO, ANCHOR_LUMINANCE[0], ratio);
    // Nor is a hue far from the skin's (a blush, an ear, a shadow's red under the side light's gain): one such border
    // sample spread over the unseen cheek behind it as a red blotch.
    const colour = nearSkinHue(c.map((x, i) => trust * x * k + (1 - trust) * skin[i] * kept), skin);
    const sideways = colour.map((x) => (x * Math.max(SIDEWAYS[2], kept)) / kept);
    // The grain is measured only where a beard could be: below the mouth's corners and dark.
    const beard = positions[v * 3 + 1] < jawBelow ? hairLikeness(photo, x, y, r, ratio) : 0;
    return [{ p: [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]], c: colour, sideways, neck: false, beard, seen: c }];
  });
  const beardColour = beardColourOf(anchors, skinLum);
  // Far from every anchor the colour drifts to a tone, weighted as the anchors are: the photo's neck
  // (its median) near the neck's anchors (the shoulders and the chest), the face's skin tone near the
  // face's, and everywhere when the photo shows no neck skin.
  const neck = neckAnchors(input, img, skin, r);
  const neckTone = neck.length > 0 ? ([0, 1, 2].map((c) => median(neck.map((a) => a.c[c]))) as Rgb) : skin;
  const faceAnchors = anchors.map((a) => ({ ...a, beard: beardColour ? a.beard : 0 }));
  const all = [...faceAnchors, ...neck.map((a) => ({ ...a, sideways: a.c, neck: true, beard: 0 }))];
  if (all.length === 0) all.push({ p: [0, 0, 0], c: [...skin], sideways: [...skin], neck: false, beard: 0 });
  // Packed for the loop over every vertex and anchor: position, colours, far tone and beard per anchor.
  const count = all.length;
  const at = new Float64Array(3 * count), colour = new Float64Array(3 * count), tone = new Float64Array(3 * count);
  const sideways = new Float64Array(3 * count), beard = new Float64Array(count);
  all.forEach((a, i) => {
    at.set(a.p, 3 * i);
    colour.set(a.c, 3 * i);
    sideways.set(a.sideways, 3 * i);
    tone.set(a.neck ? neckTone : skin, 3 * i);
    beard[i] = a.beard;
  });
  const fixedColours = new Float64Array(3 * ((input.fixed?.length ?? 0) + 1));
  input.fixed?.forEach((f, i) => fixedColours.set(f.colour, 3 * (i + 1)));
  const fill = interpolateAnchors(positions, input.normals, fixedOf, fixedColours, { at, colour, sideways, tone, beard, beardColour }, input.hair);
  const lipColour = input.lips?.colour;
  if (lipColour && Math.max(...lipColour) > 0) fillLips(fill, onLips, fixedOf, lipColour, photoGain);
  return fill;
}

/**
 * The beard's colour (see BEARD) of the border samples, or undefined when too few of them show one or none does at the
 * chin's middle (within BEARD.chin cm of the face's midline, x = 0): hair hanging down beside the jaw is dark and
 * grainy too, but does not cover the chin as a beard does.
 */
function beardColourOf(anchors: { p: number[]; beard: number; seen: number[] }[], skinLum: number): Rgb | undefined {
  const bearded = anchors.filter((a) => a.beard >= 0.5);
  if (bearded.length < BEARD.least || !bearded.some((a) => Math.abs(a.p[0]) < BEARD.chin)) return undefined;
  const c = [0, 1, 2].map((k) => median(bearded.map((a) => a.seen[k])));
  const lift = Math.max(1, (BEARD.lightest * skinLum) / Math.max(1, rec601Luma(c)));
  return c.map((x) => x * lift) as Rgb;
}

/**
 * The lips' vertices' fill (`onLips`, not of a fixed colour) set to `colour` under their gains, in shade. A module
 * function: a loop after another in a function called once per avatar threw that function's optimized code out.
 */
function fillLips(fill: Float32Array, onLips: Uint8Array, fixedOf: Uint8Array, colour: Rgb, gains: Float32Array | undefined): void {
  for (let v = 0; v < onLips.length; v++) {
    if (!onLips[v] || fixedOf[v]) continue;
    const c = gains ? applyGains(colour, [gains[v * 3], gains[v * 3 + 1], gains[v * 3 + 2]]) : colour;
    for (let k = 0; k < 3; k++) fill[v * 3 + k] = c[k] * LIP_RIM_SHADE;
  }
}

/**
 * Away from the nearest anchor the fill drifts from the anchors' colours to their far tones: from TO_TONE[0] cm, wholly
 * at TO_TONE[1]. The border's samples are skin turning away from the camera, darker by its shade than the skin beside
 * it is; drifting over 2-9 cm, the fill 1-3.5 cm beside the face read 10 L* darker than the photo's cheeks.
 */
const TO_TONE = [0.5, 4] as const;

/**
 * Per vertex, the anchors' colours weighted by inverse squared distance squared (their sideways colours where the
 * vertex faces sideways: SIDEWAYS), drifting to their far tones away from the nearest, under the beard's colour near
 * its anchors (see BEARD) and the hair's colour where it covers; vertices with a fixed colour (`fixedOf`, index + 1
 * into `fixedColours`' triples) take it. The loop over every vertex and anchor, in a module function: a closure or
 * callback in it made per bake is compiled again on every avatar.
 */
function interpolateAnchors(
  positions: Float32Array,
  normals: Float32Array,
  fixedOf: Uint8Array,
  fixedColours: Float64Array,
  anchors: { at: Float64Array; colour: Float64Array; sideways: Float64Array; tone: Float64Array; beard: Float64Array; beardColour: Rgb | undefined },
  hair: AlbedoInput['hair'],
): Float32Array {
  const { at, colour, sideways, tone, beard, beardColour } = anchors;
  const n = positions.length / 3;
  const out = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    if (fixedOf[v]) {
      for (let c = 0; c < 3; c++) out[v * 3 + c] = fixedColours[3 * fixedOf[v] + c];
      continue;
    }
    const x = positions[v * 3], y = positions[v * 3 + 1], z = positions[v * 3 + 2];
    let ws = 0, nearest = Infinity, bs = 0, nearestBeard = Infinity;
    let acc0 = 0, acc1 = 0, acc2 = 0, side0 = 0, side1 = 0, side2 = 0, far0 = 0, far1 = 0, far2 = 0;
    for (let i = 0, j = 0; i < at.length; i += 3, j++) {
      const dx = x - at[i], dy = y - at[i + 1], dz = z - at[i + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      nearest = Math.min(nearest, d2);
      const w = 1 / (d2 * d2 + 0.01);
      ws += w;
      acc0 += w * colour[i];
      acc1 += w * colour[i + 1];
      acc2 += w * colour[i + 2];
      side0 += w * sideways[i];
      side1 += w * sideways[i + 1];
      side2 += w * sideways[i + 2];
      far0 += w * tone[i];
      far1 += w * tone[i + 1];
      far2 += w * tone[i + 2];
      if (beard[j] === 0) continue;
      bs += w * beard[j];
      nearestBeard = Math.min(nearestBeard, d2);
    }
    const toMedian = smoothstepBetween(TO_TONE[0], TO_TONE[1], Math.sqrt(nearest));
    const bearded = bs > 0 ? (bs / ws) * smoothstepBetween(BEARD.reach, BEARD.reachFull, Math.sqrt(nearestBeard)) : 0;
    const cover = hair ? hair.coverage[v] : 0;
    const turned = 1 - smoothstepBetween(SIDEWAYS[0], SIDEWAYS[1], normals[v * 3 + 2]);
    for (let c = 0; c < 3; c++) {
      const near = c === 0 ? acc0 : c === 1 ? acc1 : acc2, side = c === 0 ? side0 : c === 1 ? side1 : side2;
      const a = near * (1 - turned) + side * turned, f = c === 0 ? far0 : c === 1 ? far1 : far2;
      const skinColour = (a / ws) * (1 - toMedian) + (f / ws) * toMedian;
      const s = bearded > 0 ? skinColour * (1 - bearded) + beardColour![c] * bearded : skinColour;
      out[v * 3 + c] = cover > 0 ? s * (1 - cover) + hair!.colour[c] * cover : s;
    }
  }
  return out;
}

/** How far (in chromaticity: r, g over r + g + b) skin's hue lies from the skin tone's. */
const SKIN_HUE = 0.025;
/**
 * A neck sample is skin when its chromaticity lies within SKIN_HUE of the skin tone's and its luminance within these
 * ratios of it: a white collar, a dark scarf or the background are not.
 */
const NECK_SKIN = { darkest: 0.7, brightest: 1.2 };
const chromaticity = (c: ArrayLike<number>) => [c[0] / (c[0] + c[1] + c[2] || 1), c[1] / (c[0] + c[1] + c[2] || 1)];
/** How far `c`'s chromaticity lies from `skin`'s. */
const hueDistance = (c: ArrayLike<number>, skin: Rgb) => {
  const [cr, cg] = chromaticity(c), [sr, sg] = chromaticity(skin);
  return Math.hypot(cr - sr, cg - sg);
};

/** `c` with its chromaticity moved towards `skin`'s until within SKIN_HUE of it, its sum (r + g + b) kept. */
function nearSkinHue(c: number[], skin: Rgb): number[] {
  const off = hueDistance(c, skin);
  if (off <= SKIN_HUE) return c;
  const [cr, cg] = chromaticity(c), [sr, sg] = chromaticity(skin);
  const kept = SKIN_HUE / off, sum = c[0] + c[1] + c[2];
  const r = sr + (cr - sr) * kept, g = sg + (cg - sg) * kept;
  return [r * sum, g * sum, (1 - r - g) * sum];
}

/**
 * A neck sample is kept when its luminance lies within these ratios of the median of its neighbours' (the other
 * samples within `cm`, at least `least` of them). The neck's skin changes slowly; a sample off its neighbours by more
 * (a collar's dark check, a necklace, a pendant's shadow) became a grey spot on the throat (p09-a, 0.79 of its
 * neighbours; the test photos' skin samples lie within 0.86-1.10).
 */
const NECK_NEIGHBOURS = { cm: 2.5, least: 3, darkest: 0.85, brightest: 1 / 0.85 };

/** Fill anchors at the neck vertices the photo shows as skin, with the photo's colour there. */
function neckAnchors(input: AlbedoInput, img: Float32Array, skin: Rgb, radius: number): { p: number[]; c: number[] }[] {
  return agreeingWithNeighbours(neckSamples(input, img, skin, radius));
}

/** The samples whose luminance agrees with their neighbours' (NECK_NEIGHBOURS). */
function agreeingWithNeighbours<T extends { p: number[]; c: number[] }>(samples: T[]): T[] {
  const luma = samples.map((s) => rec601Luma(s.c));
  return samples.filter((s, i) => {
    const near: number[] = [];
    samples.forEach((o, j) => {
      if (j !== i && Math.hypot(o.p[0] - s.p[0], o.p[1] - s.p[1], o.p[2] - s.p[2]) < NECK_NEIGHBOURS.cm) near.push(luma[j]);
    });
    if (near.length < NECK_NEIGHBOURS.least) return true;
    const ratio = luma[i] / Math.max(1, median(near));
    return ratio >= NECK_NEIGHBOURS.darkest && ratio <= NECK_NEIGHBOURS.brightest;
  });
}

/** The neck vertices the photo shows as skin, with the photo's colour there. */
function neckSamples(input: AlbedoInput, img: Float32Array, skin: Rgb, radius: number): { p: number[]; c: number[] }[] {
  const facing = facingCamera(input.camera, input.normals);
  const lum = rec601Luma(skin);
  const { width, height } = input.photo;
  return (input.neck ?? []).flatMap((v) => {
    const [x, y] = [img[v * 2], img[v * 2 + 1]];
    if ((input.visible && !input.visible[v]) || facing[v] < FACING_FULL || x < radius || y < radius || x >= width - radius || y >= height - radius) return [];
    const pixel = Math.round(y) * width + Math.round(x);
    if (input.matte && input.matte[pixel] < MATTE_RAMP[1]) return [];
    const g = input.photoGain;
    // Under the same white balance and light as the face's anchors, which `skin` already is.
    const c = g ? applyGains(medianPatch(input.photo, x, y, radius), [g[v * 3], g[v * 3 + 1], g[v * 3 + 2]]) : medianPatch(input.photo, x, y, radius);
    const ratio = rec601Luma(c) / lum;
    if (hueDistance(c, skin) > SKIN_HUE || ratio < NECK_SKIN.darkest || ratio > NECK_SKIN.brightest) return [];
    return [{ p: [input.positions[v * 3], input.positions[v * 3 + 1], input.positions[v * 3 + 2]], c: [...c] }];
  });
}
