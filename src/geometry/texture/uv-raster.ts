/** Rasterisation in UV space: which atlas texels a mesh's triangles cover, with attributes interpolated to them. */

/** Barycentric tolerance that closes hairline gaps between neighbouring triangles. */
const EPS = 1e-4;

/** Called per covered texel with the interpolated attributes (a reused buffer: copy what you keep). */
export type TexelVisitor = (texel: number, attrs: Float32Array) => void;

/**
 * The texels that a mesh's triangles cover in a square atlas (v up, texture row 0 at the top), as rows of
 * texels per triangle: those whose centre lies inside it, with a small tolerance that closes hairline gaps
 * between neighbours (a texel on a shared edge belongs to both). It depends only on the UV layout and the
 * size, not on what is written through it: `layoutRaster` keeps one per template layout.
 */
export class UvRaster {
  /** Per triangle, the index of its first row in `spans`; [t + 1] ends them. Its rows follow down the atlas from row `top[t]`. */
  readonly firstRow: Uint32Array;
  readonly top: Uint16Array;
  /** Per row: the first covered texel's x and one past the last (equal when the row covers none). */
  readonly spans: Uint16Array;

  constructor(readonly uvs: ArrayLike<number>, readonly indices: ArrayLike<number>, readonly size: number) {
    if (size > 0xffff) throw new RangeError(`atlas size ${size} over ${0xffff}`);
    const triangles = indices.length / 3;
    this.firstRow = new Uint32Array(triangles + 1);
    this.top = new Uint16Array(triangles);
    const w = new Float64Array(6);
    // First the number of rows (the bounding boxes), then each row's span.
    let rows = 0;
    for (let t = 0; t < triangles; t++) {
      this.firstRow[t] = rows;
      const box = this.box(t, w);
      if (!box) continue;
      this.top[t] = box[2];
      rows += box[3] - box[2] + 1;
    }
    this.firstRow[triangles] = rows;
    this.spans = new Uint16Array(rows * 2);
    for (let t = 0; t < triangles; t++) {
      const box = this.box(t, w);
      if (!box) continue;
      const [x0, x1] = box;
      const wa0 = w[0], waX = w[1], waY = w[2], wb0 = w[3], wbX = w[4], wbY = w[5];
      for (let r = this.firstRow[t], y = this.top[t]; r < this.firstRow[t + 1]; r++, y++) {
        const py = y + 0.5;
        // The row's span: where wa, wb and 1 - wa - wb are all >= -EPS.
        let lo = x0 + 0.5;
        let hi = x1 + 0.5;
        for (let e = 0; e < 3; e++) {
          const base = e === 0 ? wa0 + waY * py : e === 1 ? wb0 + wbY * py : 1 - wa0 - wb0 - (waY + wbY) * py;
          const slope = e === 0 ? waX : e === 1 ? wbX : -(waX + wbX);
          if (slope > 0) lo = Math.max(lo, (-EPS - base) / slope);
          else if (slope < 0) hi = Math.min(hi, (-EPS - base) / slope);
          else if (base < -EPS) hi = -Infinity;
        }
        // Clamped to the box, so that a sliver's far-off bound still fits in 16 bits.
        const xs = Math.min(x1 + 1, Math.max(x0, Math.ceil(lo - 0.5)));
        const xe = Math.min(x1, Math.floor(hi - 0.5));
        this.spans[r * 2] = xs;
        this.spans[r * 2 + 1] = Math.max(xs, xe + 1);
      }
    }
  }

  /**
   * Triangle t's barycentric weights into `w` (six numbers wa0, waX, waY, wb0, wbX, wbY: at a texel centre (px, py)
   * its corners a and b weigh wa0 + waX px + waY py and wb0 + wbX px + wbY py, c the rest), and its bounding
   * box in texels (x0, x1, y0, y1, inclusive), or undefined when it covers no texel.
   */
  box(t: number, w: Float64Array): [number, number, number, number] | undefined {
    const { uvs, indices, size } = this;
    const a = indices[t * 3], b = indices[t * 3 + 1], c = indices[t * 3 + 2];
    const ax = uvs[a * 2] * size;
    const ay = (1 - uvs[a * 2 + 1]) * size;
    const bx = uvs[b * 2] * size;
    const by = (1 - uvs[b * 2 + 1]) * size;
    const cx = uvs[c * 2] * size;
    const cy = (1 - uvs[c * 2 + 1]) * size;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) return undefined;
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(ay, by, cy)));
    if (y1 < y0) return undefined;
    const inv = 1 / area;
    w[0] = (bx * cy - by * cx) * inv;
    w[1] = -(cy - by) * inv;
    w[2] = (cx - bx) * inv;
    w[3] = (cx * ay - cy * ax) * inv;
    w[4] = -(ay - cy) * inv;
    w[5] = (ax - cx) * inv;
    return [Math.max(0, Math.floor(Math.min(ax, bx, cx))), Math.min(size - 1, Math.ceil(Math.max(ax, bx, cx))), y0, y1];
  }

  /**
   * Writes each covered texel's interpolated attributes (`stride` per vertex, in single precision) into `out`
   * (`outStride` per texel, from its first element) and marks it in `covered`: the per-texel callback of `visit`
   * left out where only the values are kept (a callback per texel that the loop cannot inline).
   */
  interpolate(attrs: Float32Array, stride: number, out: Float32Array | Uint8ClampedArray, outStride: number, covered: Uint8Array): void {
    const { indices, size, firstRow, top, spans } = this;
    const da = new Float32Array(stride);
    const db = new Float32Array(stride);
    const w = new Float64Array(6);
    for (let t = 0; t < indices.length / 3; t++) {
      if (firstRow[t] === firstRow[t + 1]) continue;
      this.box(t, w);
      const a = indices[t * 3], b = indices[t * 3 + 1], c = indices[t * 3 + 2];
      for (let k = 0; k < stride; k++) {
        da[k] = attrs[a * stride + k] - attrs[c * stride + k];
        db[k] = attrs[b * stride + k] - attrs[c * stride + k];
      }
      const cBase = c * stride;
      const wa0 = w[0], waX = w[1], waY = w[2], wb0 = w[3], wbX = w[4], wbY = w[5];
      for (let r = firstRow[t], y = top[t]; r < firstRow[t + 1]; r++, y++) {
        const py = y + 0.5;
        for (let x = spans[r * 2]; x < spans[r * 2 + 1]; x++) {
          const px = x + 0.5;
          const wa = wa0 + waX * px + waY * py;
          const wb = wb0 + wbX * px + wbY * py;
          const texel = y * size + x;
          for (let k = 0; k < stride; k++) out[texel * outStride + k] = Math.fround(attrs[cBase + k] + wa * da[k] + wb * db[k]);
          covered[texel] = 1;
        }
      }
    }
  }

  /**
   * Walks the texels covered by the listed triangles (all by default), triangle by triangle, with per-vertex
   * attributes (`stride` floats per vertex) interpolated to each texel centre.
   */
  visit(attrs: Float32Array, stride: number, visit: TexelVisitor, triangles?: ArrayLike<number>): void {
    const { indices, size, firstRow, top, spans } = this;
    const out = new Float32Array(stride);
    const da = new Float32Array(stride);
    const db = new Float32Array(stride);
    const w = new Float64Array(6);
    const count = triangles ? triangles.length : indices.length / 3;
    for (let i = 0; i < count; i++) {
      const t = triangles ? triangles[i] : i;
      if (firstRow[t] === firstRow[t + 1]) continue;
      this.box(t, w);
      const a = indices[t * 3], b = indices[t * 3 + 1], c = indices[t * 3 + 2];
      // Attribute = A_c + wa (A_a - A_c) + wb (A_b - A_c).
      for (let k = 0; k < stride; k++) {
        da[k] = attrs[a * stride + k] - attrs[c * stride + k];
        db[k] = attrs[b * stride + k] - attrs[c * stride + k];
      }
      const cBase = c * stride;
      const wa0 = w[0], waX = w[1], waY = w[2], wb0 = w[3], wbX = w[4], wbY = w[5];
      for (let r = firstRow[t], y = top[t]; r < firstRow[t + 1]; r++, y++) {
        const py = y + 0.5;
        for (let x = spans[r * 2]; x < spans[r * 2 + 1]; x++) {
          const px = x + 0.5;
          const wa = wa0 + waX * px + waY * py;
          const wb = wb0 + wbX * px + wbY * py;
          for (let k = 0; k < stride; k++) out[k] = attrs[cBase + k] + wa * da[k] + wb * db[k];
          visit(y * size + x, out);
        }
      }
    }
  }
}

/** Walks the texels covered by a mesh's triangles with per-vertex attributes interpolated (see UvRaster). */
export function rasterizeUv(
  uvs: ArrayLike<number>,
  indices: ArrayLike<number>,
  size: number,
  attrs: Float32Array,
  stride: number,
  visit: TexelVisitor,
): void {
  new UvRaster(uvs, indices, size).visit(attrs, stride, visit);
}

/** Per UV layout (its uvs and indices arrays), its rasters by size. */
const layouts = new WeakMap<ArrayLike<number>, { indices: ArrayLike<number>; bySize: Map<number, UvRaster> }>();

/**
 * The raster of a layout that is baked again and again (a template's head: the same uvs and indices arrays on
 * every avatar), built on first use and kept while the arrays live. A few megabytes at 2048.
 */
export function layoutRaster(uvs: ArrayLike<number>, indices: ArrayLike<number>, size: number): UvRaster {
  let layout = layouts.get(uvs);
  if (layout?.indices !== indices) layouts.set(uvs, (layout = { indices, bySize: new Map() }));
  let raster = layout.bySize.get(size);
  if (!raster) layout.bySize.set(size, (raster = new UvRaster(uvs, indices, size)));
  return raster;
}

/**
 * Grows covered texels into uncovered ones (`covered` is 1 where written) so that bilinear filtering
 * and mip-mapping at island borders do not pull in the background.
 */
export function dilate(rgba: Uint8Array, covered: Uint8Array, size: number, passes: number): void {
  // A pass reads only texels covered before it, so its order does not matter; after the first pass only
  // the neighbours of the texels the last one grew can change, and only they are looked at.
  let candidates: number[] | undefined;
  const queued = new Uint8Array(size * size);
  for (let p = 0; p < passes; p++) {
    const grown: number[] = [];
    const look = (i: number) => {
      if (covered[i]) return;
      const x = i % size;
      let n = -1;
      if (x > 0 && covered[i - 1] === 1) n = i - 1;
      else if (x < size - 1 && covered[i + 1] === 1) n = i + 1;
      else if (i >= size && covered[i - size] === 1) n = i - size;
      else if (i < size * (size - 1) && covered[i + size] === 1) n = i + size;
      if (n < 0) return;
      rgba.copyWithin(i * 4, n * 4, n * 4 + 4);
      grown.push(i);
    };
    if (candidates) for (const i of candidates) look(i);
    else for (let i = 0; i < size * size; i++) if (!covered[i]) look(i);
    for (const i of grown) covered[i] = 1;
    candidates = [];
    for (const i of grown) {
      const x = i % size;
      for (const n of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i < size * (size - 1) ? i + size : -1]) {
        if (n < 0 || covered[n] || queued[n] === p + 1) continue;
        queued[n] = p + 1;
        candidates.push(n);
      }
    }
  }
}
