import { DEFAULT_ALPHA_CUTOFF, type MeshData } from '../../model/avatar.ts';
import { cameraFrame, type Camera, type CameraFrame } from './camera.ts';
import type { RgbaImage } from './image.ts';
import { computeTangents } from '../mesh/tangents.ts';
import { DIFFUSE_GRID, lightTables, roughnessLevel, SPECULAR_GRID, type LightTables } from './light-table.ts';
import { studioLight, type LightRig } from './lighting.ts';
import { minificationLevel, mipLevel } from './mip-chain.ts';
import { LINEAR_STEPS, linearToSrgb, srgbToLinear } from './srgb.ts';

/**
 * `textured`: texture (or colour) lit; `grey`: mid grey times the colour, lit, textures ignored,
 * for pictures of the mesh; `uv-checker`: an 8x8 checker in UV space tinted red along u and green
 * along v, to see the layout and its orientation.
 */
export type RenderMode = 'textured' | 'grey' | 'uv-checker';

/** How an item uses the alpha of its texture (times its opacity): glTF's alpha modes. */
export type AlphaMode = 'OPAQUE' | 'MASK' | 'BLEND';

export interface RenderItem {
  /** Normals may be empty: the item is then shaded flat. */
  geometry: Pick<MeshData, 'positions' | 'normals' | 'uvs' | 'indices'>;
  /** Decoded sRGB base colour texture, sampled bilinearly with v up; its alpha is the coverage. */
  texture?: RgbaImage;
  /**
   * Sample a pre-filtered (mip-mapped) copy of the texture at the item's typical minification (mip-chain.ts):
   * fine strand textures seen small then do not alias into stripes.
   */
  mipmap?: boolean;
  /** Linear multiplier of the base colour (the texture, or white without one). */
  color?: [number, number, number];
  /** Multiplies the coverage. */
  opacity?: number;
  /**
   * OPAQUE ignores the coverage; MASK draws where it reaches alphaCutoff; BLEND blends by it over
   * what is behind (its fully covered texels are drawn with the opaque items, the rest after them,
   * triangles back to front). Default: BLEND when opacity is below 1, else OPAQUE.
   */
  alphaMode?: AlphaMode;
  /** For MASK; default DEFAULT_ALPHA_CUTOFF. */
  alphaCutoff?: number;
  /** Draw back faces too (open meshes, cards); they are lit as seen from the viewer's side. */
  doubleSided?: boolean;
  /** Shade with face normals instead of the vertex normals. */
  flat?: boolean;
  /** Tangent-space normal map, OpenGL convention (green towards +v), in `textured` mode. */
  normalMap?: RgbaImage;
  /** Per-vertex tangents for the normal map (xyz and handedness w, see computeTangents); computed when absent. */
  tangents?: Float32Array;
  /** Ambient occlusion in the red channel: scales the ambient light, in `textured` mode. */
  occlusion?: RgbaImage;
  /** Roughness in the green channel (glTF's metallic-roughness packing), times `roughness`. */
  roughnessMap?: RgbaImage;
  /** Gives the item a specular highlight of this roughness (0 mirror-like, 1 matt) in `textured` mode; none without it. */
  roughness?: number;
}

export interface RenderOptions {
  width: number;
  height: number;
  /** sRGB bytes and alpha, 0..255; default fully transparent. */
  background?: [number, number, number, number];
  /** 2 renders at twice the size and averages 2x2 samples (anti-aliasing). */
  supersample?: 1 | 2;
  mode?: RenderMode;
  light?: LightRig;
  /** Near clipping distance along the view axis, world units; default 0.1. */
  near?: number;
}

/**
 * Per vertex in screen space: x, y, depth key (screen-linear, smaller is nearer), q (1/z or 1), u, v,
 * normal xyz and tangent xyzw in camera space. Light is computed per pixel from the interpolated
 * normal (perturbed by the normal map), so that maps and narrow highlights show.
 */
const STRIDE = 13;
/** Per vertex in camera space for clipping: x, y, z, u, v, normal xyz, tangent xyzw. */
const CSTRIDE = 12;
const MODE_CODE: Record<RenderMode, number> = { textured: 0, grey: 1, 'uv-checker': 2 };
const ALPHA_CODE: Record<AlphaMode, number> = { OPAQUE: 0, MASK: 1, BLEND: 2 };
const DEFAULT_GREY = 0.45;
/** A map's byte 0..255 to -1..1 (normal maps). */
const UNIT_PER_BYTE = 2 / 255;
/** Texels of an item without that map. */
const EMPTY = new Int32Array(0);
/** The highlight table of an item that reads none. */
const EMPTY_TABLE = new Float32Array(0);
/** Cells of the light tables per unit of a normal's coordinate, a hair under half the grid so that 1 (and rounding above it) stays in the last cell. */
const CELLS_PER_UNIT = (DIFFUSE_GRID - 1e-3) / 2;
/** The passes: everything opaque (BLEND items' fully covered texels too), then BLEND's partial coverage. */
const OPAQUE_PASS = 0, BLEND_PASS = 1;
/**
 * Rows are cut into segments of 2^SEGMENT_SHIFT pixels, each with a bound on its farthest depth: a triangle's stretch
 * of a row that lies behind it is passed over without visiting its pixels (the soft hair's overlapping cards are mostly that).
 */
const SEGMENT_SHIFT = 3;
const SEGMENT_MASK = (1 << SEGMENT_SHIFT) - 1;
/**
 * The image is drawn in square tiles of TILE (supersampled) pixels a side, one after the other: a tile's buffers are
 * cleared, every triangle that reaches it drawn in each pass's order, and the result averaged down into the image.
 * Its depth, colour and segment bounds stay in the cache while its triangles are drawn, the textures and light tables
 * are read for one patch of the surface at a time (drawn in one sweep of the depth order, the triangles jumped across
 * the whole image and the reads missed the cache), and the buffers are a tile's, not the image's. A multiple of the
 * segments and even (2x2 supersamples stay in one tile).
 */
const TILE_SHIFT = 7;
const TILE = 1 << TILE_SHIFT;
const TILE_SEGMENTS = TILE >> SEGMENT_SHIFT;

/** Renders meshes into an RGBA image (straight alpha). Pure: no I/O. */
export function renderMeshes(items: RenderItem[], camera: Camera, opts: RenderOptions): RgbaImage {
  return { width: opts.width, height: opts.height, rgba: rasterize(items, camera, opts, null).image };
}

/**
 * Which triangle is seen at each pixel, and how far (no supersampling): the nearest triangle's id
 * (every item counts as opaque, textures and their cut-outs are ignored), counted over the items in
 * order (item 0's triangles first), -1 where none, and its camera-space depth (Infinity where none).
 */
export function renderTriangleIds(
  items: RenderItem[],
  camera: Camera,
  size: { width: number; height: number; near?: number },
): { ids: Int32Array; depth: Float32Array } {
  const ids = new Int32Array(size.width * size.height).fill(-1);
  const opaque = items.map((item): RenderItem => ({ geometry: item.geometry, flat: item.flat, doubleSided: item.doubleSided }));
  const raster = rasterize(opaque, camera, { ...size, supersample: 1, mode: 'grey' }, ids);
  return { ids, depth: raster.cameraDepth() };
}

/** The id of each item's first triangle when the items' triangles are counted in order. */
export function firstTriangleIds(items: RenderItem[]): number[] {
  let next = 0;
  return items.map((item) => {
    const first = next;
    next += item.geometry.indices.length / 3;
    return first;
  });
}

/**
 * The item with every field, absent ones undefined, its geometry the four arrays alone: Raster's methods then see one
 * shape of item and of geometry. Callers build items in many shapes (spread copies, optional fields left out, copies
 * from the helper thread), some new each job; the optimized Raster code, checked against the shapes it had seen, was
 * thrown away and compiled again every job (docs/PERFORMANCE.md, "Code compiled again every job").
 */
function everyField(item: RenderItem): RenderItem {
  const { positions, normals, uvs, indices } = item.geometry;
  return {
    geometry: { positions, normals, uvs, indices },
    texture: item.texture,
    mipmap: item.mipmap,
    color: item.color,
    opacity: item.opacity,
    alphaMode: item.alphaMode,
    alphaCutoff: item.alphaCutoff,
    doubleSided: item.doubleSided,
    flat: item.flat,
    normalMap: item.normalMap,
    tangents: item.tangents,
    occlusion: item.occlusion,
    roughnessMap: item.roughnessMap,
    roughness: item.roughness,
  };
}

const alphaModeOf = (item: RenderItem): AlphaMode => item.alphaMode ?? ((item.opacity ?? 1) < 1 ? 'BLEND' : 'OPAQUE');

function rasterize(items: RenderItem[], camera: Camera, opts: RenderOptions, ids: Int32Array | null): Raster {
  const ss = opts.supersample ?? 1;
  const raster = new Raster(opts.width * ss, opts.height * ss, scaledFrame(cameraFrame(camera, opts.width, opts.height), ss), opts, ids);
  const starts = firstTriangleIds(items);
  const prepared = items.map((item, i) => raster.prepare(everyField(item), starts[i]));
  // Nearest first, so that the depth test turns away hidden pixels before they are shaded.
  const order = frontToBack(prepared);
  // Partial coverage back to front, triangle by triangle across all blended items.
  const blended = backToFront(prepared.filter((p) => p.alphaMode === ALPHA_CODE.BLEND));
  raster.draw([{ items: prepared, ...order }, { items: blended.items, item: blended.item, tri: blended.tri }]);
  return raster;
}

/**
 * The centroid depths `fartherFirst` compares, set around backToFront's sort: a comparator closing over them, made per
 * render, was compiled again on every avatar; one module function stays compiled.
 */
const NO_DEPTHS = new Float64Array(0);
let sortDepths = NO_DEPTHS;

function fartherFirst(a: number, b: number): number {
  return sortDepths[b] - sortDepths[a] || a - b;
}

/** Every triangle of the items, farthest centroid first (ties in the items' order), in typed arrays rather than an object per triangle. */
function backToFront(items: Prepared[]): { items: Prepared[]; item: Uint16Array; tri: Uint32Array } {
  const total = items.reduce((n, p) => n + p.indices.length / 3, 0);
  const depth = new Float64Array(total);
  const item = new Uint16Array(total);
  const tri = new Uint32Array(total);
  for (let i = 0, k = 0; i < items.length; i++) {
    for (let t = 0; t < items[i].indices.length; t += 3, k++) {
      depth[k] = centroidDepth(items[i], t);
      item[k] = i;
      tri[k] = t;
    }
  }
  const order = new Uint32Array(total);
  for (let k = 0; k < total; k++) order[k] = k;
  sortDepths = depth;
  order.sort(fartherFirst);
  sortDepths = NO_DEPTHS;
  const sorted = { items, item: new Uint16Array(total), tri: new Uint32Array(total) };
  for (let k = 0; k < total; k++) {
    sorted.item[k] = item[order[k]];
    sorted.tri[k] = tri[order[k]];
  }
  return sorted;
}

/** Depth buckets of the front-to-back order: fine enough that a bucket's triangles seldom hide each other. */
const DEPTH_BUCKETS = 4096;

/**
 * Every triangle of the items (item index, first index of the triangle), nearest centroid first, by a
 * counting sort on bucketed depth: the order only saves shading, the depth test still decides what is seen.
 */
function frontToBack(prepared: Prepared[]): { item: Uint16Array; tri: Uint32Array } {
  const total = prepared.reduce((n, p) => n + p.indices.length / 3, 0);
  const depth = new Float32Array(total);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0, k = 0; i < prepared.length; i++) {
    const p = prepared[i];
    for (let t = 0; t < p.indices.length; t += 3, k++) {
      const d = centroidDepth(p, t);
      depth[k] = d;
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
  }
  const scale = hi > lo ? (DEPTH_BUCKETS - 1) / (hi - lo) : 0;
  const bucket = new Uint16Array(total);
  const starts = new Uint32Array(DEPTH_BUCKETS + 1);
  for (let k = 0; k < total; k++) {
    // NaN depths (degenerate input) go last.
    const b = depth[k] === depth[k] ? ((depth[k] - lo) * scale) | 0 : DEPTH_BUCKETS - 1;
    bucket[k] = b;
    starts[b + 1]++;
  }
  for (let b = 0; b < DEPTH_BUCKETS; b++) starts[b + 1] += starts[b];
  const item = new Uint16Array(total);
  const tri = new Uint32Array(total);
  for (let i = 0, k = 0; i < prepared.length; i++) {
    for (let t = 0; t < prepared[i].indices.length; t += 3, k++) {
      const at = starts[bucket[k]]++;
      item[at] = i;
      tri[at] = t;
    }
  }
  return { item, tri };
}

/** Built field by field, not spread: a spread copy's shape is not kept between jobs (see everyField). */
function scaledFrame(f: CameraFrame, s: number): CameraFrame {
  return { R: f.R, t: f.t, fx: f.fx * s, skew: f.skew * s, cx: f.cx * s, fy: f.fy * s, cy: f.cy * s, perspective: f.perspective };
}

/**
 * Averages 2x2 samples with their alpha as weight, so edges against transparency keep their colour: `width` x `height`
 * pixels of `out` (RGBA words, rows `outStride` apart) from (ox, oy) on, from `words` (rows `sw` apart); where all four
 * are transparent, `background`.
 */
function downsample2(words: Uint32Array, sw: number, width: number, height: number, outWords: Uint32Array, outStride: number, ox: number, oy: number, background: number): void {
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 2 * y * sw + 2 * x;
      const a = words[i], b = words[i + 1], c = words[i + sw], d = words[i + sw + 1];
      const o = (oy + y) * outStride + ox + x;
      if ((a & b & c & d) >>> 24 === 255) {
        // All four opaque: average the bytes two lanes at a time (red+blue, green+alpha), rounded.
        const rb = (a & 0xff00ff) + (b & 0xff00ff) + (c & 0xff00ff) + (d & 0xff00ff) + 0x20002;
        const ga = ((a >>> 8) & 0xff00ff) + ((b >>> 8) & 0xff00ff) + ((c >>> 8) & 0xff00ff) + ((d >>> 8) & 0xff00ff) + 0x20002;
        outWords[o] = ((rb >>> 2) & 0xff00ff) | (((ga >>> 2) & 0xff00ff) << 8);
      } else if ((a | b | c | d) >>> 24 === 0) {
        outWords[o] = background;
      } else {
        const sum = (a >>> 24) + (b >>> 24) + (c >>> 24) + (d >>> 24);
        outWords[o] = packRgba(weighted(a, b, c, d, 0, sum), weighted(a, b, c, d, 8, sum), weighted(a, b, c, d, 16, sum), (sum + 2) >> 2);
      }
    }
  }
}

/** One colour byte (at `shift`) of four RGBA words, weighted by their alphas (which sum to `sum`), rounded. */
function weighted(a: number, b: number, c: number, d: number, shift: number, sum: number): number {
  const wa = a >>> 24, wb = b >>> 24, wc = c >>> 24, wd = d >>> 24;
  return ((((a >>> shift) & 255) * wa + ((b >>> shift) & 255) * wb + ((c >>> shift) & 255) * wc + ((d >>> shift) & 255) * wd + (sum >> 1)) / sum) | 0;
}

/** RGBA bytes as one little-endian word, as a Uint32Array view of an RGBA buffer holds them. */
function packRgba(r: number, g: number, b: number, a: number): number {
  return (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;
}

/**
 * A tile's colour (RGBA words), depth keys and, per row segment and per row, a depth key no pixel of the segment (the
 * row) is farther than (Infinity while one is empty); rows TILE pixels apart. One set, as rendering is synchronous.
 */
const tile = {
  color: new Uint32Array(TILE * TILE),
  depth: new Float32Array(TILE * TILE),
  farthest: new Float32Array(TILE * TILE_SEGMENTS),
  rowFarthest: new Float32Array(TILE),
  /** Per 2x2 block of samples (an output pixel), the colour an opaque triangle shaded for it (triangle()) and which draw of a triangle that was. */
  blockColor: new Uint32Array((TILE >> 1) * (TILE >> 1)),
  blockOwner: new Int32Array((TILE >> 1) * (TILE >> 1)),
};
/** Numbers each triangle drawn, for `blockOwner`; wrapped (and the owners cleared) long before it overflows. */
let drawCount = 0;
const DRAW_COUNT_WRAP = 1 << 30;
/**
 * A triangle's row is passed over when its nearest corner's depth key is behind the row's bound by this share of the
 * keys' size: far above the rounding of a pixel's interpolated key, so every pixel skipped would fail the depth test.
 */
const HIDDEN_MARGIN = 1e-6;
const tileBytes = new Uint8Array(tile.color.buffer);

/** One pass's triangles in drawing order: item index into `items` and the triangle's first index. The pass's index is its code (OPAQUE_PASS, BLEND_PASS). */
interface PassOrder {
  items: Prepared[];
  item: Uint16Array;
  tri: Uint32Array;
}

/** A texture as the inner loop reads it: one 32-bit word per texel, and its size. */
interface Texels {
  words: Int32Array;
  width: number;
  height: number;
}

/** An item ready to draw: its vertices in camera and screen space and what its pixels need. */
interface Prepared {
  cam: Float32Array;
  vb: Float32Array;
  indices: ArrayLike<number>;
  firstId: number;
  texture: Texels | null;
  normalMap: Texels | null;
  occlusion: Texels | null;
  roughnessMap: Texels | null;
  color: [number, number, number];
  opacity: number;
  alphaMode: number;
  /** Alpha (0..255) a MASK texel needs to be drawn. */
  cutoff: number;
  doubleSided: boolean;
  /** Whether the item has a highlight. */
  specular: boolean;
  /** Without a roughness map, the highlight table of the item's roughness. */
  highlights: Float32Array;
  /** With one, every level's table, and the level by the map's green byte (the roughness factor applied). */
  levels: Float32Array[];
  levelOf: Uint8Array;
  /** Ambient light by the occlusion map's red byte. */
  ambientOf: Float32Array;
}

/**
 * Camera-space depth of the centroid of an item's triangle starting at index `t`, for sorting. This and the tables
 * below are module functions, not closures made per item: a closure's optimized code lives only as long as some
 * closure of it does, so one made per item was compiled again every job.
 */
function centroidDepth({ cam, indices }: Prepared, t: number): number {
  return (cam[indices[t] * CSTRIDE + 2] + cam[indices[t + 1] * CSTRIDE + 2] + cam[indices[t + 2] * CSTRIDE + 2]) / 3;
}

/** The highlight level by the roughness map's green byte, for an item of this roughness factor. */
function levelTable(roughness: number): Uint8Array {
  const table = new Uint8Array(256);
  for (let g = 0; g < 256; g++) table[g] = roughnessLevel(roughness * (g / 255));
  return table;
}

/** Ambient light by the occlusion map's red byte. */
function ambientTable(ambient: number): Float32Array {
  const table = new Float32Array(256);
  for (let r = 0; r < 256; r++) table[r] = ambient * (r / 255);
  return table;
}

/** A map as the inner loop reads it, in `textured` mode only. */
function mapTexels(textured: boolean, image: RgbaImage | undefined): Texels | null {
  return textured && image ? texels(image) : null;
}

class Raster {
  /** The rendered image, RGBA at the output size (the supersampled tiles averaged down). */
  readonly image: Uint8Array;
  /** The nearest depth key per pixel, kept from the tiles when triangle ids are asked for (no supersampling then). */
  private readonly keys: Float32Array | null;
  private readonly supersample: number;
  /** The colour of an empty pixel, packed; transparent for the 2x2 average. */
  private readonly background: number;
  private readonly tables: LightTables;
  private readonly ambient: number;
  private readonly mode: number;
  private readonly near: number;
  // The item and pass being drawn, read by triangle().
  private item!: Prepared;
  private pass = OPAQUE_PASS;
  /** Id of the triangle being drawn, written to `ids` when there are ids to write. */
  private id = 0;
  /** The tile being drawn: first and last pixel column and row, read by triangle(). */
  private clipX0 = 0;
  private clipX1 = 0;
  private clipY0 = 0;
  private clipY1 = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly frame: CameraFrame,
    opts: RenderOptions,
    private readonly ids: Int32Array | null,
  ) {
    const bg = opts.background ?? [0, 0, 0, 0];
    this.supersample = opts.supersample ?? 1;
    this.image = new Uint8Array(opts.width * opts.height * 4);
    this.keys = ids && new Float32Array(width * height);
    this.background = packRgba(bg[0], bg[1], bg[2], bg[3]);
    const rig = opts.light ?? studioLight;
    this.tables = lightTables(rig);
    this.ambient = rig.ambient;
    this.mode = MODE_CODE[opts.mode ?? 'textured'];
    this.near = opts.near ?? 0.1;
  }

  /** Camera-space depth per pixel, from the screen-linear depth keys. */
  cameraDepth(): Float32Array {
    const perspective = this.frame.perspective;
    const keys = this.keys!;
    // A loop, not map with a closure made per call (its code was compiled again every job).
    const depth = new Float32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      depth[i] = k === Infinity ? Infinity : perspective ? -1 / k : k;
    }
    return depth;
  }

  /** Transforms and projects an item whose first triangle has the id `firstId`. */
  prepare(item: RenderItem, firstId: number): Prepared {
    const textured = this.mode === 0;
    const normalMap = mapTexels(textured, item.normalMap);
    const { cam, indices } = this.cameraSpace(item, normalMap !== null);
    const count = cam.length / CSTRIDE;
    const vb = new Float32Array(count * STRIDE);
    for (let i = 0; i < count; i++) this.project(cam, i * CSTRIDE, vb, i * STRIDE);
    const [r, g, b] = item.color ?? [1, 1, 1];
    const base = this.mode === 1 ? DEFAULT_GREY : 1;
    const specular = textured && item.roughness !== undefined;
    const roughness = item.roughness ?? 1;
    const roughnessMap = specular ? mapTexels(textured, item.roughnessMap) : null;
    return {
      cam, vb, indices, firstId,
      texture: mapTexels(textured, item.mipmap && item.texture ? prefiltered(item.texture, vb, indices) : item.texture),
      normalMap,
      occlusion: mapTexels(textured, item.occlusion),
      roughnessMap,
      color: [r * base, g * base, b * base],
      opacity: Math.max(0, Math.min(1, item.opacity ?? 1)),
      alphaMode: ALPHA_CODE[alphaModeOf(item)],
      cutoff: Math.round(255 * (item.alphaCutoff ?? DEFAULT_ALPHA_CUTOFF)),
      doubleSided: item.doubleSided ?? false,
      specular,
      highlights: specular && !roughnessMap ? this.tables.highlight(roughnessLevel(roughness)) : EMPTY_TABLE,
      levels: specular && roughnessMap ? this.tables.highlights() : [],
      levelOf: levelTable(roughness),
      ambientOf: ambientTable(this.ambient),
    };
  }

  /**
   * Draws the passes (the opaque, then the blended) tile by tile, each tile's triangles in its pass's order: a pixel
   * sees the same triangles in the same order as in one sweep of the image, so the image is the same.
   */
  draw(passes: PassOrder[]): void {
    const across = ((this.width - 1) >> TILE_SHIFT) + 1, down = ((this.height - 1) >> TILE_SHIFT) + 1;
    const lists = passes.map((p) => this.bin(p, across, down));
    const { color, depth, farthest, rowFarthest } = tile;
    for (let ty = 0, t = 0; ty < down; ty++) {
      for (let tx = 0; tx < across; tx++, t++) {
        this.clipX0 = tx * TILE;
        this.clipY0 = ty * TILE;
        this.clipX1 = Math.min(this.width, this.clipX0 + TILE) - 1;
        this.clipY1 = Math.min(this.height, this.clipY0 + TILE) - 1;
        if (lists.every(({ starts }) => starts[t] === starts[t + 1])) {
          this.resolveEmpty();
          continue;
        }
        color.fill(this.background);
        depth.fill(Infinity);
        farthest.fill(Infinity);
        rowFarthest.fill(Infinity);
        for (let pass = 0; pass < passes.length; pass++) {
          const { items, item, tri } = passes[pass];
          const { starts, list } = lists[pass];
          for (let e = starts[t]; e < starts[t + 1]; e++) this.drawTriangle(items[item[list[e]]], tri[list[e]], pass);
        }
        this.resolve();
      }
    }
  }

  /** What resolve() makes of a tile no triangle reaches, without clearing and averaging it: the background, at no depth. */
  private resolveEmpty(): void {
    const out = new Uint32Array(this.image.buffer);
    const ss = this.supersample, stride = this.width / ss;
    const x0 = this.clipX0 / ss, x1 = (this.clipX1 + 1) / ss, y0 = this.clipY0 / ss, y1 = (this.clipY1 + 1) / ss;
    for (let y = y0; y < y1; y++) {
      out.fill(this.background, y * stride + x0, y * stride + x1);
      this.keys?.fill(Infinity, y * stride + x0, y * stride + x1);
    }
  }

  /** The tile's pixels into the image: averaged 2x2 with supersampling, else copied (with their depth keys when kept). */
  private resolve(): void {
    const w = this.clipX1 - this.clipX0 + 1, h = this.clipY1 - this.clipY0 + 1;
    const out = new Uint32Array(this.image.buffer);
    if (this.supersample === 2) {
      downsample2(tile.color, TILE, w >> 1, h >> 1, out, this.width >> 1, this.clipX0 >> 1, this.clipY0 >> 1, this.background & 0xffffff);
      return;
    }
    for (let y = 0; y < h; y++) {
      const at = (this.clipY0 + y) * this.width + this.clipX0;
      out.set(tile.color.subarray(y * TILE, y * TILE + w), at);
      this.keys?.set(tile.depth.subarray(y * TILE, y * TILE + w), at);
    }
  }

  /**
   * Every tile's triangles of a pass, in the pass's order (a counting sort keeps it): indices into its order, the
   * tile's from starts[tile] to starts[tile + 1]. A triangle is put in the tiles its pixel bounds reach, as triangle()
   * takes them; one crossing the near plane (its projection is not its bounds) or with a NaN corner in every tile.
   */
  private bin({ items, item, tri }: PassOrder, across: number, down: number): { starts: Uint32Array; list: Uint32Array } {
    const tiles = across * down;
    const tx0 = new Uint16Array(tri.length), tx1 = new Uint16Array(tri.length), ty0 = new Uint16Array(tri.length), ty1 = new Uint16Array(tri.length);
    const starts = new Uint32Array(tiles + 1);
    const near = this.near, W = this.width, H = this.height;
    for (let k = 0; k < tri.length; k++) {
      const { cam, vb, indices } = items[item[k]];
      const t = tri[k];
      const a = indices[t], b = indices[t + 1], c = indices[t + 2];
      let x0 = 0, x1 = across - 1, y0 = 0, y1 = down - 1;
      if (cam[a * CSTRIDE + 2] >= near && cam[b * CSTRIDE + 2] >= near && cam[c * CSTRIDE + 2] >= near) {
        const xa = vb[a * STRIDE], xb = vb[b * STRIDE], xc = vb[c * STRIDE];
        const ya = vb[a * STRIDE + 1], yb = vb[b * STRIDE + 1], yc = vb[c * STRIDE + 1];
        const xmin = Math.max(0, Math.ceil(Math.min(xa, xb, xc) - 0.5)), xmax = Math.min(W - 1, Math.floor(Math.max(xa, xb, xc) - 0.5));
        const ymin = Math.max(0, Math.ceil(Math.min(ya, yb, yc) - 0.5)), ymax = Math.min(H - 1, Math.floor(Math.max(ya, yb, yc) - 0.5));
        if (xmin > xmax || ymin > ymax) {
          x0 = 1; x1 = 0; // off the image: in no tile
        } else if (xmin === xmin && ymin === ymin && xmax === xmax && ymax === ymax) {
          x0 = xmin >> TILE_SHIFT; x1 = xmax >> TILE_SHIFT; y0 = ymin >> TILE_SHIFT; y1 = ymax >> TILE_SHIFT;
        }
      }
      tx0[k] = x0; tx1[k] = x1; ty0[k] = y0; ty1[k] = y1;
      for (let ty = y0; ty <= y1; ty++) for (let tx = x0; tx <= x1; tx++) starts[ty * across + tx + 1]++;
    }
    for (let i = 0; i < tiles; i++) starts[i + 1] += starts[i];
    const list = new Uint32Array(starts[tiles]);
    const next = starts.slice(0, tiles);
    for (let k = 0; k < tri.length; k++) {
      for (let ty = ty0[k]; ty <= ty1[k]; ty++) for (let tx = tx0[k]; tx <= tx1[k]; tx++) list[next[ty * across + tx]++] = k;
    }
    return { starts, list };
  }

  /** Draws the triangle starting at index `t` of a prepared item, clipped at the near plane, into the tile being drawn. */
  private drawTriangle(p: Prepared, t: number, pass: number): void {
    this.item = p;
    this.pass = pass;
    this.id = p.firstId + t / 3;
    const { cam, vb, indices } = p;
    const near = this.near;
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const za = cam[a * CSTRIDE + 2], zb = cam[b * CSTRIDE + 2], zc = cam[c * CSTRIDE + 2];
    if (za >= near && zb >= near && zc >= near) this.triangle(vb, a * STRIDE, b * STRIDE, c * STRIDE);
    else if (za >= near || zb >= near || zc >= near) this.clipped(cam, a, b, c);
  }

  /** Vertices in camera space with their uv, normal and tangent; flat items get three own vertices per triangle. */
  private cameraSpace(item: RenderItem, withTangents: boolean): { cam: Float32Array; indices: ArrayLike<number> } {
    const { positions: p, normals: nrm, uvs, indices } = item.geometry;
    const { R, t } = this.frame;
    const n = p.length / 3;
    const hasUv = uvs.length >= n * 2;
    const flat = item.flat === true || nrm.length < n * 3;
    const tangents = withTangents && !flat && hasUv ? (item.tangents ?? computeTangents(p as Float32Array, nrm as Float32Array, uvs as Float32Array, indices as Uint32Array)) : null;
    const cam = new Float32Array(n * CSTRIDE);
    for (let i = 0; i < n; i++) {
      const x = p[i * 3], y = p[i * 3 + 1], z = p[i * 3 + 2];
      const o = i * CSTRIDE;
      cam[o] = R[0] * x + R[1] * y + R[2] * z + t[0];
      cam[o + 1] = R[3] * x + R[4] * y + R[5] * z + t[1];
      cam[o + 2] = R[6] * x + R[7] * y + R[8] * z + t[2];
      cam[o + 3] = hasUv ? uvs[i * 2] : 0;
      cam[o + 4] = hasUv ? uvs[i * 2 + 1] : 0;
      if (!flat) {
        const nx = nrm[i * 3], ny = nrm[i * 3 + 1], nz = nrm[i * 3 + 2];
        cam[o + 5] = R[0] * nx + R[1] * ny + R[2] * nz;
        cam[o + 6] = R[3] * nx + R[4] * ny + R[5] * nz;
        cam[o + 7] = R[6] * nx + R[7] * ny + R[8] * nz;
      }
      if (tangents) {
        const tx = tangents[i * 4], ty = tangents[i * 4 + 1], tz = tangents[i * 4 + 2];
        cam[o + 8] = R[0] * tx + R[1] * ty + R[2] * tz;
        cam[o + 9] = R[3] * tx + R[4] * ty + R[5] * tz;
        cam[o + 10] = R[6] * tx + R[7] * ty + R[8] * tz;
        cam[o + 11] = tangents[i * 4 + 3];
      }
    }
    return flat ? facetted(cam, indices) : { cam, indices };
  }

  private project(cam: Float32Array, c: number, vb: Float32Array, o: number): void {
    const f = this.frame;
    const x = cam[c], y = cam[c + 1], z = cam[c + 2];
    const q = f.perspective ? 1 / z : 1;
    vb[o] = (f.fx * x + f.skew * y) * q + f.cx;
    vb[o + 1] = f.fy * y * q + f.cy;
    // 1/z is linear in screen space under perspective, z itself under orthographic projection.
    vb[o + 2] = f.perspective ? -q : z;
    vb[o + 3] = q;
    for (let k = 3; k < CSTRIDE; k++) vb[o + k + 1] = cam[c + k];
  }

  /** Clips a triangle crossing the near plane (Sutherland-Hodgman on one plane) and draws the rest. */
  private clipped(cam: Float32Array, a: number, b: number, c: number): void {
    const near = this.near;
    const poly: number[][] = [];
    const src = [a, b, c].map((i) => Array.from(cam.subarray(i * CSTRIDE, i * CSTRIDE + CSTRIDE)));
    for (let i = 0; i < 3; i++) {
      const p = src[i], q = src[(i + 1) % 3];
      if (p[2] >= near) poly.push(p);
      if (p[2] >= near !== q[2] >= near) {
        const s = (near - p[2]) / (q[2] - p[2]);
        poly.push(p.map((v, k) => v + (q[k] - v) * s));
      }
    }
    const cb = Float32Array.from(poly.flat());
    const vb = new Float32Array(poly.length * STRIDE);
    for (let i = 0; i < poly.length; i++) this.project(cb, i * CSTRIDE, vb, i * STRIDE);
    for (let i = 1; i + 1 < poly.length; i++) this.triangle(vb, 0, i * STRIDE, (i + 1) * STRIDE);
  }

  private triangle(vb: Float32Array, a: number, b: number, c: number): void {
    const item = this.item;
    let area = (vb[b] - vb[a]) * (vb[c + 1] - vb[a + 1]) - (vb[c] - vb[a]) * (vb[b + 1] - vb[a + 1]);
    // Counter-clockwise from outside turns clockwise in the y-down image: front faces have area < 0.
    const back = area > 0;
    if (area === 0 || !(area === area) || (back && !item.doubleSided)) return;
    if (!back) {
      const s = b; b = c; c = s;
      area = -area;
    }
    const x0 = vb[a], y0 = vb[a + 1], x1 = vb[b], y1 = vb[b + 1], x2 = vb[c], y2 = vb[c + 1];
    const xmin = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
    const xmax = Math.min(this.width - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
    const ymin = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
    const ymax = Math.min(this.height - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
    if (xmin > xmax || ymin > ymax) return;

    const ia = 1 / area;
    // Edge functions w0 (opposite vertex 0), w1, w2: their steps along x and y.
    const w0dx = -(y2 - y1), w0dy = x2 - x1;
    const w1dx = -(y0 - y2), w1dy = x0 - x2;
    const w2dx = -(y1 - y0), w2dy = x1 - x0;
    // Their reciprocals, for the spans' ends: one division per edge rather than per edge and row.
    const i0dx = 1 / w0dx, i1dx = 1 / w1dx, i2dx = 1 / w2dx;
    // Top-left rule: a pixel centre exactly on an edge belongs to the triangle only if the edge is a
    // left or top one, so that triangles sharing an edge never both cover (and blend) a pixel.
    const tl0 = y2 < y1 || (y2 === y1 && x2 > x1);
    const tl1 = y0 < y2 || (y0 === y2 && x0 > x2);
    const tl2 = y1 < y0 || (y1 === y0 && x1 > x0);
    const px = xmin + 0.5;
    const py = ymin + 0.5;
    let r0 = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1);
    let r1 = (x0 - x2) * (py - y2) - (y0 - y2) * (px - x2);
    let r2 = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
    // Screen-linear quantities: the depth key, q, and every attribute times q (divided by q per
    // pixel where its size matters, which makes it perspective-correct). The depth key is stepped along x by its
    // plane's slope; the rest are weighed from the edge functions only at the pixels that pass the depth test.
    const k0 = vb[a + 2] * ia, k1 = vb[b + 2] * ia, k2 = vb[c + 2] * ia;
    const Q0 = vb[a + 3] * ia, Q1 = vb[b + 3] * ia, Q2 = vb[c + 3] * ia;
    const u0 = vb[a + 4] * Q0, u1 = vb[b + 4] * Q1, u2 = vb[c + 4] * Q2;
    const v0 = vb[a + 5] * Q0, v1 = vb[b + 5] * Q1, v2 = vb[c + 5] * Q2;
    const nx0 = vb[a + 6] * Q0, nx1 = vb[b + 6] * Q1, nx2 = vb[c + 6] * Q2;
    const ny0 = vb[a + 7] * Q0, ny1 = vb[b + 7] * Q1, ny2 = vb[c + 7] * Q2;
    const nz0 = vb[a + 8] * Q0, nz1 = vb[b + 8] * Q1, nz2 = vb[c + 8] * Q2;
    // Tangents are only read with a normal map: taken from the edge functions there, not stepped.
    const tx0 = vb[a + 9] * Q0, tx1 = vb[b + 9] * Q1, tx2 = vb[c + 9] * Q2;
    const ty0 = vb[a + 10] * Q0, ty1 = vb[b + 10] * Q1, ty2 = vb[c + 10] * Q2;
    const tz0 = vb[a + 11] * Q0, tz1 = vb[b + 11] * Q1, tz2 = vb[c + 11] * Q2;
    // Handedness is one per triangle on any sane UV layout: the first corner's.
    const handed = vb[a + 12] < 0 ? -1 : 1;
    const kdx = w0dx * k0 + w1dx * k1 + w2dx * k2;

    const color = tileBytes, words = tile.color, depth = tile.depth, farthest = tile.farthest, rowFarthest = tile.rowFarthest, width = this.width;
    // Rows whose every pixel is nearer than the triangle's nearest corner (hair behind the head, mostly) are not walked.
    const ka = vb[a + 2], kb = vb[b + 2], kc = vb[c + 2];
    const nearest = Math.min(ka, kb, kc) - HIDDEN_MARGIN * Math.max(Math.abs(ka), Math.abs(kb), Math.abs(kc));
    const clipX0 = this.clipX0, clipY0 = this.clipY0, clipEnd = this.clipX1 + 1;
    // The rows and columns inside the tile. The edge functions are still taken from the triangle's own first row and
    // column (stepped row by row down to the tile), so that every pixel gets the same values as without tiles.
    const xlo = Math.max(xmin, this.clipX0), xhi = Math.min(xmax, this.clipX1);
    const ylo = Math.max(ymin, this.clipY0), yhi = Math.min(ymax, this.clipY1);
    if (xlo > xhi || ylo > yhi) return;
    for (let y = ymin; y < ylo; y++) {
      r0 += w0dy; r1 += w1dy; r2 += w2dy;
    }
    const tex = item.texture, nmap = item.normalMap, occ = item.occlusion, rmap = item.roughnessMap;
    // The textures' sizes and texels, hoisted: the inner loop reads the colour bilinearly, the maps nearest-texel, inline.
    const tw = tex?.width ?? 0, th = tex?.height ?? 0, tWords = tex?.words ?? EMPTY;
    const nw = nmap?.width ?? 0, nh = nmap?.height ?? 0, nWords = nmap?.words ?? EMPTY;
    const ow = occ?.width ?? 0, oh = occ?.height ?? 0, oWords = occ?.words ?? EMPTY;
    const rw = rmap?.width ?? 0, rh = rmap?.height ?? 0, rWords = rmap?.words ?? EMPTY;
    const cr = item.color[0], cg = item.color[1], cb = item.color[2];
    const mode = this.mode, opacity = item.opacity, alphaMode = item.alphaMode, cutoff = item.cutoff;
    const blendPass = this.pass === BLEND_PASS;
    const specular = item.specular, highlights = item.highlights, levels = item.levels;
    const diffuse = this.tables.diffuse, ambient = this.ambient, ambientOf = item.ambientOf, levelOf = item.levelOf;
    // Back faces of double-sided items are lit as seen from the viewer's side.
    const facing = back ? -1 : 1;
    const ids = this.ids, id = this.id;
    const lin = srgbToLinear, toSrgb = linearToSrgb, top = LINEAR_STEPS - 1;
    const shareBlocks = this.supersample === 2 && alphaMode === 0 && !blendPass && ids === null;
    const blockColor = tile.blockColor, blockOwner = tile.blockOwner;
    if (++drawCount === DRAW_COUNT_WRAP) {
      drawCount = 1;
      blockOwner.fill(0);
    }
    const draw = drawCount;

    for (let y = ylo; y <= yhi; y++, r0 += w0dy, r1 += w1dy, r2 += w2dy) {
      if (nearest >= rowFarthest[y - clipY0]) continue;
      // The span of the row inside all three edges (widened by a pixel against rounding; the
      // per-pixel edge tests below decide exactly), and inside the tile.
      const from = xmin + Math.max(xlo - xmin, spanStart(r0, w0dx, i0dx), spanStart(r1, w1dx, i1dx), spanStart(r2, w2dx, i2dx));
      const to = xmin + Math.min(xhi - xmin, spanEnd(r0, w0dx, i0dx), spanEnd(r1, w1dx, i1dx), spanEnd(r2, w2dx, i2dx));
      if (from > to) continue;
      // The key at pixel x is rowKey + kdx * (x - xmin): monotonic in x, so a stretch's two ends bound its pixels' keys.
      const rowKey = r0 * k0 + r1 * k1 + r2 * k2;
      // The tile's buffers are indexed by the image's x: the row's offsets are taken back by the tile's first column.
      const row = (y - clipY0) * TILE - clipX0, rowSegments = (y - clipY0) * TILE_SEGMENTS - (clipX0 >> SEGMENT_SHIFT);
      // The pixels this row wrote, whose segments' bounds are then brought up to date.
      let wroteFrom = width, wroteTo = -1;
      for (let x = from; x <= to; ) {
        const end = Math.min(to, x | SEGMENT_MASK);
        const first = rowKey + kdx * (x - xmin), last = rowKey + kdx * (end - xmin);
        if ((first < last ? first : last) >= farthest[rowSegments + (x >> SEGMENT_SHIFT)]) {
          x = end + 1;
          continue;
        }
        for (; x <= end; x++) {
          const n = x - xmin;
          const w0 = r0 + w0dx * n, w1 = r1 + w1dx * n, w2 = r2 + w2dx * n;
          if (w0 < 0 || w1 < 0 || w2 < 0) continue;
          if ((w0 === 0 && !tl0) || (w1 === 0 && !tl1) || (w2 === 0 && !tl2)) continue;
          const pi = row + x;
          // Rounded as the depth buffer stores it: a BLEND triangle's own texels, drawn in the opaque pass, then fail
          // the blended pass's depth test here rather than after their texture is read.
          const key = Math.fround(rowKey + kdx * n);
          if (key >= depth[pi]) continue;
          if (ids !== null) {
            // A render of triangle ids keeps the nearest triangle and its depth alone: its items are opaque and
            // untextured (renderTriangleIds), so nothing below turns the pixel away, and its colour is never read.
            depth[pi] = key;
            ids[y * width + x] = id;
            if (x < wroteFrom) wroteFrom = x;
            wroteTo = x;
            continue;
          }
          // An opaque triangle shades each 2x2 block of samples (an output pixel) it covers once, at the block's centre where
          // that lies inside it and else at the first sample it covers, as multisampling with centroid sampling does:
          // each sample still takes its own coverage and depth test.
          let sw0 = w0, sw1 = w1, sw2 = w2, bi = -1;
          if (shareBlocks) {
            bi = ((y - clipY0) >> 1) * (TILE >> 1) + ((x - clipX0) >> 1);
            if (blockOwner[bi] === draw) {
              words[pi] = blockColor[bi];
              depth[pi] = key;
              if (x < wroteFrom) wroteFrom = x;
              wroteTo = x;
              continue;
            }
            const cx = 0.5 - (x & 1), cy = 0.5 - (y & 1);
            const c0 = w0 + w0dx * cx + w0dy * cy, c1 = w1 + w1dx * cx + w1dy * cy, c2 = w2 + w2dx * cx + w2dy * cy;
            if (c0 >= 0 && c1 >= 0 && c2 >= 0) {
              sw0 = c0; sw1 = c1; sw2 = c2;
            }
          }
          const s = 1 / (sw0 * Q0 + sw1 * Q1 + sw2 * Q2);
          const u = (sw0 * u0 + sw1 * u1 + sw2 * u2) * s, v = (sw0 * v0 + sw1 * v1 + sw2 * v2) * s;

          // Coverage 0..255 (the texture's alpha, or full), and whether this pass draws the pixel, before any colour is read:
          // a cut-out texel (hair cards are mostly these) or one the other pass draws costs only its alpha.
          let alpha = 255;
          let t00 = 0, t10 = 0, t01 = 0, t11 = 0, w00 = 0, w10 = 0, w01 = 0, w11 = 0;
          if (tex !== null) {
            // Bilinear filtering in 8-bit fixed point on whole texels (one 32-bit load each, little-endian RGBA).
            let tx = u * tw - 0.5, ty = (1 - v) * th - 0.5;
            tx = tx < 0 ? 0 : tx > tw - 1 ? tw - 1 : tx;
            ty = ty < 0 ? 0 : ty > th - 1 ? th - 1 : ty;
            const ix = tx | 0, iy = ty | 0;
            const fx = ((tx - ix) * 256) | 0, fy = ((ty - iy) * 256) | 0;
            // The four texels' weights (256 - fx) (256 - fy), fx (256 - fy), ...: taken once for every channel.
            w11 = fx * fy;
            w10 = (fx << 8) - w11;
            w01 = (fy << 8) - w11;
            w00 = 65536 - (fx << 8) - (fy << 8) + w11;
            const i00 = iy * tw + ix;
            const i01 = iy < th - 1 ? i00 + tw : i00;
            const dx = ix < tw - 1 ? 1 : 0;
            t00 = tWords[i00]; t10 = tWords[i00 + dx]; t01 = tWords[i01]; t11 = tWords[i01 + dx];
            if (alphaMode !== 0) alpha = bilinear(t00 >>> 24, t10 >>> 24, t01 >>> 24, t11 >>> 24, w00, w10, w01, w11);
          }
          const coverage = alphaMode === 0 ? 1 : (alpha / 255) * opacity;
          if (alphaMode === 1) {
            if (alpha * opacity < cutoff) continue;
          } else if (alphaMode === 2) {
            // Full coverage belongs to the opaque pass, the rest to the blended one.
            if (blendPass ? coverage >= 1 || coverage <= 0 : coverage < 1) continue;
          }

          let ar: number, ag: number, ab: number;
          if (tex !== null) {
            ar = lin[bilinear(t00 & 255, t10 & 255, t01 & 255, t11 & 255, w00, w10, w01, w11)] * cr;
            ag = lin[bilinear((t00 >> 8) & 255, (t10 >> 8) & 255, (t01 >> 8) & 255, (t11 >> 8) & 255, w00, w10, w01, w11)] * cg;
            ab = lin[bilinear((t00 >> 16) & 255, (t10 >> 16) & 255, (t01 >> 16) & 255, (t11 >> 16) & 255, w00, w10, w01, w11)] * cb;
          } else if (mode === 2) {
            const check = ((Math.floor(u * 8) + Math.floor(v * 8)) & 1) === 0 ? 0.8 : 0.2;
            const uc = u < 0 ? 0 : u > 1 ? 1 : u, vc = v < 0 ? 0 : v > 1 ? 1 : v;
            ar = check * (0.3 + 0.7 * uc);
            ag = check * (0.3 + 0.7 * vc);
            ab = check * 0.5;
          } else {
            ar = cr; ag = cg; ab = cb;
          }

          // The normal, unnormalised (its length does not matter), then perturbed by the normal map.
          const nxq = sw0 * nx0 + sw1 * nx1 + sw2 * nx2, nyq = sw0 * ny0 + sw1 * ny1 + sw2 * ny2, nzq = sw0 * nz0 + sw1 * nz1 + sw2 * nz2;
          let nx = nxq, ny = nyq, nz = nzq;
          if (nmap !== null) {
            let mxi = (u * nw) | 0, myi = ((1 - v) * nh) | 0;
            mxi = mxi < 0 ? 0 : mxi >= nw ? nw - 1 : mxi;
            myi = myi < 0 ? 0 : myi >= nh ? nh - 1 : myi;
            const m = nWords[myi * nw + mxi];
            const mx = (m & 255) * UNIT_PER_BYTE - 1, my = ((m >> 8) & 255) * UNIT_PER_BYTE - 1, mz = ((m >> 16) & 255) * UNIT_PER_BYTE - 1;
            // The bitangent is handed * (n x t); n and t are interpolated times q, their cross product
            // times q squared: s brings it to their scale.
            const bs = handed * my * s;
            const txq = sw0 * tx0 + sw1 * tx1 + sw2 * tx2, tyq = sw0 * ty0 + sw1 * ty1 + sw2 * ty2, tzq = sw0 * tz0 + sw1 * tz1 + sw2 * tz2;
            nx = txq * mx + nxq * mz + (nyq * tzq - nzq * tyq) * bs;
            ny = tyq * mx + nyq * mz + (nzq * txq - nxq * tzq) * bs;
            nz = tzq * mx + nzq * mz + (nxq * tyq - nyq * txq) * bs;
          }
          // A zero normal (a vertex no triangle uses well) lights as facing sideways: ambient and rim.
          const inv = facing / Math.sqrt(nx * nx + ny * ny + nz * nz || 1);
          // The normal's cell in the light tables: x and y from -1..1 to 0..DIFFUSE_GRID - 1.
          const cx = ((nx * inv + 1) * CELLS_PER_UNIT) | 0;
          const cy = ((ny * inv + 1) * CELLS_PER_UNIT) | 0;
          const away = nz * inv > 0;
          let light = diffuse[(away ? DIFFUSE_GRID * DIFFUSE_GRID : 0) + cy * DIFFUSE_GRID + cx];
          if (occ === null) light += ambient;
          else {
            let ox = (u * ow) | 0, oy = ((1 - v) * oh) | 0;
            ox = ox < 0 ? 0 : ox >= ow ? ow - 1 : ox;
            oy = oy < 0 ? 0 : oy >= oh ? oh - 1 : oy;
            light += ambientOf[oWords[oy * ow + ox] & 255];
          }
          let highlight = 0;
          if (specular && !away) {
            let table = highlights;
            if (rmap !== null) {
              let rx = (u * rw) | 0, ry = ((1 - v) * rh) | 0;
              rx = rx < 0 ? 0 : rx >= rw ? rw - 1 : rx;
              ry = ry < 0 ? 0 : ry >= rh ? rh - 1 : ry;
              table = levels[levelOf[(rWords[ry * rw + rx] >> 8) & 255]];
            }
            highlight = table[(cy >> 1) * SPECULAR_GRID + (cx >> 1)];
          }

          // Math.min rather than a branch: with textured noise a branch would mispredict often.
          const lr = Math.min(top, ((ar * light + highlight) * top + 0.5) | 0);
          const lg = Math.min(top, ((ag * light + highlight) * top + 0.5) | 0);
          const lb = Math.min(top, ((ab * light + highlight) * top + 0.5) | 0);
          const o = pi * 4;
          if (blendPass) {
            const da = color[o + 3] / 255;
            const oa = coverage + da * (1 - coverage);
            const keep = (da * (1 - coverage)) / oa, put = coverage / oa;
            color[o] = toSrgb[lr] * put + color[o] * keep + 0.5;
            color[o + 1] = toSrgb[lg] * put + color[o + 1] * keep + 0.5;
            color[o + 2] = toSrgb[lb] * put + color[o + 2] * keep + 0.5;
            color[o + 3] = oa * 255 + 0.5;
          } else {
            words[pi] = toSrgb[lr] | (toSrgb[lg] << 8) | (toSrgb[lb] << 16) | 0xff000000;
            depth[pi] = key;
            if (bi >= 0) {
              blockColor[bi] = words[pi];
              blockOwner[bi] = draw;
            }
            if (x < wroteFrom) wroteFrom = x;
            wroteTo = x;
          }
        }
      }
      if (wroteTo < 0) continue;
      // The row's bound is taken again only when a segment that held it changed (or one rose above it).
      const bound = rowFarthest[y - clipY0];
      let stale = false;
      for (let g = wroteFrom >> SEGMENT_SHIFT; g <= wroteTo >> SEGMENT_SHIFT; g++) {
        let far = -Infinity;
        for (let i = row + (g << SEGMENT_SHIFT), stop = row + Math.min(clipEnd, (g + 1) << SEGMENT_SHIFT); i < stop; i++) if (depth[i] > far) far = depth[i];
        if (farthest[rowSegments + g] === bound || far > bound) stale = true;
        farthest[rowSegments + g] = far;
      }
      if (!stale) continue;
      let rowFar = -Infinity;
      for (let g = (y - clipY0) * TILE_SEGMENTS, stop = g + TILE_SEGMENTS; g < stop; g++) if (farthest[g] > rowFar) rowFar = farthest[g];
      rowFarthest[y - clipY0] = rowFar;
    }
  }
}

/** Three own vertices per triangle carrying the face normal (camera space), for flat shading. */
function facetted(cam: Float32Array, indices: ArrayLike<number>): { cam: Float32Array; indices: Uint32Array } {
  const out = new Float32Array(indices.length * CSTRIDE);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] * CSTRIDE, b = indices[t + 1] * CSTRIDE, c = indices[t + 2] * CSTRIDE;
    const ex = cam[b] - cam[a], ey = cam[b + 1] - cam[a + 1], ez = cam[b + 2] - cam[a + 2];
    const fx = cam[c] - cam[a], fy = cam[c + 1] - cam[a + 1], fz = cam[c + 2] - cam[a + 2];
    const nx = ey * fz - ez * fy, ny = ez * fx - ex * fz, nz = ex * fy - ey * fx;
    const len = Math.hypot(nx, ny, nz) || 1;
    // Corner by corner, copied a float at a time: no array or view made per triangle.
    for (let k = 0; k < 3; k++) {
      const src = k === 0 ? a : k === 1 ? b : c;
      const o = (t + k) * CSTRIDE;
      for (let j = 0; j < 5; j++) out[o + j] = cam[src + j];
      out[o + 5] = nx / len;
      out[o + 6] = ny / len;
      out[o + 7] = nz / len;
    }
  }
  const seq = new Uint32Array(indices.length);
  for (let i = 0; i < seq.length; i++) seq[i] = i;
  return { cam: out, indices: seq };
}

/**
 * First step along a row at which an edge function w + dx * step is no longer negative, give or take the rounding of
 * -w times 1/dx (`inv`): the pixel of margin the spans have covers it. dx, a difference of two float32 coordinates, is
 * 0 or at least 2^-149 in size, so 1/dx is finite.
 */
function spanStart(w: number, dx: number, inv: number): number {
  if (dx > 0) return Math.ceil(-w * inv) - 1;
  return w < 0 ? Infinity : 0;
}

/** Last step along a row at which an edge function w + dx * step is still not negative (rounding as spanStart). */
function spanEnd(w: number, dx: number, inv: number): number {
  if (dx < 0) return Math.floor(-w * inv) + 1;
  return dx === 0 && w < 0 ? -Infinity : Infinity;
}

/** The texture's mip level for this item as projected (vb: screen x, y first, u, v at 4). */
function prefiltered(texture: RgbaImage, vb: Float32Array, indices: ArrayLike<number>): RgbaImage {
  return mipLevel(texture, minificationLevel(vb, STRIDE, 4, indices, texture));
}

/**
 * Bilinear blend of four bytes, rounded, by weights that sum to 65536: with 8-bit fractions fx, fy, (256 - fx) (256 - fy),
 * fx (256 - fy), (256 - fx) fy and fx fy, the same integer as lerping along x and then along y.
 */
function bilinear(a: number, b: number, c: number, d: number, w00: number, w10: number, w01: number, w11: number): number {
  return (a * w00 + b * w10 + c * w01 + d * w11 + 32768) >> 16;
}

/** The texture as one 32-bit word per texel (copied only when its bytes are not 4-aligned); signed, so loads stay small integers. */
function texels(texture: RgbaImage): Texels {
  const b = texture.rgba;
  const aligned = b.byteOffset % 4 === 0 ? b : b.slice();
  return { words: new Int32Array(aligned.buffer, aligned.byteOffset, texture.width * texture.height), width: texture.width, height: texture.height };
}
