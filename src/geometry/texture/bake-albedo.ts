/**
 * Bakes the head's albedo atlas: texels of the visible face come from the photo through the estimated
 * camera; everything else is skin whose colour is interpolated from the face's border (so that the colour
 * continues across the seam) and drifts to the median skin tone far from the face. A feathered weight
 * blends the two, and parts of the face turned away from the camera take the skin fill instead of smeared pixels.
 */
import type { RgbImage } from './rgb-image.ts';
import { projectPoints, facingCamera, type PhotoCamera } from './photo-camera.ts';
import { rasterizeUv, dilate } from './uv-raster.ts';
import { sampleBilinear, medianPatch, median } from './sample.ts';

export type Rgb = [number, number, number];

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
  /** Vertex ids on plain skin (cheeks, forehead) where the skin tone is measured. */
  skinSamples: readonly number[];
  /** Vertices painted with a fixed colour instead of the photo (e.g. the mouth's inside). */
  fixed?: { vertices: Uint8Array; colour: Rgb };
}

export interface AlbedoResult {
  rgba: Uint8Array;
  skin: Rgb;
  /** Per-vertex photo weight (0..1), for inspection and tests. */
  photoWeight: Float32Array;
}

/** Ramp width, as a fraction of the face's width in the image, over which photo and fill are blended. */
const FEATHER = 0.1;
/** Normals facing the camera less than this take no photo colour; full weight from FACING_FULL. */
const FACING_MIN = 0.15;
const FACING_FULL = 0.45;

export function bakeAlbedo(input: AlbedoInput): AlbedoResult {
  const n = input.positions.length / 3;
  const img = projectPoints(input.camera, input.positions);
  const facing = facingCamera(input.camera, input.normals);
  const oval = input.faceOval.map((v) => [img[v * 2], img[v * 2 + 1]] as [number, number]);
  const faceWidth = Math.max(...oval.map((p) => p[0])) - Math.min(...oval.map((p) => p[0]));
  const feather = FEATHER * faceWidth;
  const frontMost = Math.min(...input.faceOval.map((v) => input.positions[v * 3 + 2]));

  const skin = skinTone(input, img);
  const weight = new Float32Array(n);
  for (let v = 0; v < n; v++) {
    if (input.fixed?.vertices[v]) continue;
    // Points behind the face's rim (the back of the head) also project inside the oval.
    if (input.positions[v * 3 + 2] < frontMost - 1) continue;
    const d = insideDistance(oval, img[v * 2], img[v * 2 + 1]);
    if (d <= 0) continue;
    weight[v] = smoothstep(0, feather, d) * smoothstep(FACING_MIN, FACING_FULL, facing[v]);
  }
  const fill = fillColours(input, img, skin);

  const size = input.size;
  // Clamped: blended and scaled colours can exceed 255, which a plain Uint8Array would wrap.
  const rgba = new Uint8ClampedArray(size * size * 4);
  const covered = new Uint8Array(size * size);
  const px = new Float32Array(3);
  rasterizeUv(input.uvs, input.indices, size, (texel, a, b, c, wa, wb, wc) => {
    const w = weight[a] * wa + weight[b] * wb + weight[c] * wc;
    const o = texel * 4;
    if (w > 0.002) sampleBilinear(input.photo, img[a * 2] * wa + img[b * 2] * wb + img[c * 2] * wc, img[a * 2 + 1] * wa + img[b * 2 + 1] * wb + img[c * 2 + 1] * wc, px);
    for (let ch = 0; ch < 3; ch++) {
      const f = fill[a * 3 + ch] * wa + fill[b * 3 + ch] * wb + fill[c * 3 + ch] * wc;
      rgba[o + ch] = w > 0.002 ? w * px[ch] + (1 - w) * f : f;
    }
    rgba[o + 3] = 255;
    covered[texel] = 1;
  });
  const bytes = new Uint8Array(rgba.buffer);
  dilate(bytes, covered, size, 4);
  for (let i = 0; i < covered.length; i++) {
    if (covered[i]) continue;
    bytes.set(skin, i * 4);
    bytes[i * 4 + 3] = 255;
  }
  return { rgba: bytes, skin, photoWeight: weight };
}

function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** Distance from (x, y) to the polygon's border, positive inside and 0 outside. */
function insideDistance(poly: [number, number][], x: number, y: number): number {
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    const ex = xj - xi;
    const ey = yj - yi;
    const t = Math.min(1, Math.max(0, ((x - xi) * ex + (y - yi) * ey) / (ex * ex + ey * ey || 1)));
    best = Math.min(best, Math.hypot(x - xi - t * ex, y - yi - t * ey));
  }
  return inside ? best : 0;
}

function skinTone(input: AlbedoInput, img: Float32Array): Rgb {
  const r = Math.max(2, Math.round(input.camera.pixelsPerCm * 0.4));
  const samples = input.skinSamples.map((v) => medianPatch(input.photo, img[v * 2], img[v * 2 + 1], r));
  return [0, 1, 2].map((c) => median(samples.map((s) => s[c]))) as Rgb;
}

/**
 * Skin colour for every vertex: inverse-distance interpolation of colours sampled just inside the face's
 * border, each kept near the median tone (hair or shadow at the border must not spread), fading to the median.
 */
function fillColours(input: AlbedoInput, img: Float32Array, skin: Rgb): Float32Array {
  const ovalIds = input.faceOval;
  let cx = 0;
  let cy = 0;
  for (const v of ovalIds) {
    cx += img[v * 2] / ovalIds.length;
    cy += img[v * 2 + 1] / ovalIds.length;
  }
  const r = Math.max(2, Math.round(input.camera.pixelsPerCm * 0.3));
  const skinLum = luminance(skin);
  const anchors = ovalIds.map((v) => {
    const x = img[v * 2] + (cx - img[v * 2]) * 0.12;
    const y = img[v * 2 + 1] + (cy - img[v * 2 + 1]) * 0.12;
    const c = medianPatch(input.photo, x, y, r);
    const k = Math.min(1.15, Math.max(0.85, luminance(c) / skinLum)) * (skinLum / Math.max(1, luminance(c)));
    return { p: [input.positions[v * 3], input.positions[v * 3 + 1], input.positions[v * 3 + 2]], c: c.map((x) => x * k) };
  });
  const n = input.positions.length / 3;
  const out = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    if (input.fixed?.vertices[v]) {
      out.set(input.fixed.colour, v * 3);
      continue;
    }
    let ws = 0;
    let nearest = Infinity;
    const acc = [0, 0, 0];
    for (const a of anchors) {
      const d2 = (input.positions[v * 3] - a.p[0]) ** 2 + (input.positions[v * 3 + 1] - a.p[1]) ** 2 + (input.positions[v * 3 + 2] - a.p[2]) ** 2;
      nearest = Math.min(nearest, d2);
      const w = 1 / (d2 * d2 + 0.01);
      ws += w;
      for (let c = 0; c < 3; c++) acc[c] += w * a.c[c];
    }
    const toMedian = smoothstep(2, 9, Math.sqrt(nearest));
    for (let c = 0; c < 3; c++) out[v * 3 + c] = (acc[c] / ws) * (1 - toMedian) + skin[c] * toMedian;
  }
  return out;
}

function luminance(c: ArrayLike<number>): number {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}
