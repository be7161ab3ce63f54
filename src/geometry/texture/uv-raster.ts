/**
 * Walks the texels covered by a mesh's triangles in UV space (v up, texture row 0 at the top), with
 * per-vertex attributes interpolated to each texel centre.
 */

/** Called per covered texel with the interpolated attributes (a reused buffer: copy what you keep). */
/** Barycentric tolerance that closes hairline gaps between neighbouring triangles. */
const EPS = 1e-4;

export type TexelVisitor = (texel: number, attrs: Float32Array) => void;

/**
 * `attrs` holds `stride` floats per vertex. Texels whose centre lies inside a triangle (with a small
 * tolerance that closes hairline gaps between neighbours) are visited once per covering triangle.
 */
export function rasterizeUv(
  uvs: ArrayLike<number>,
  indices: ArrayLike<number>,
  size: number,
  attrs: Float32Array,
  stride: number,
  visit: TexelVisitor,
): void {
  const out = new Float32Array(stride);
  const da = new Float32Array(stride);
  const db = new Float32Array(stride);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t];
    const b = indices[t + 1];
    const c = indices[t + 2];
    const ax = uvs[a * 2] * size;
    const ay = (1 - uvs[a * 2 + 1]) * size;
    const bx = uvs[b * 2] * size;
    const by = (1 - uvs[b * 2 + 1]) * size;
    const cx = uvs[c * 2] * size;
    const cy = (1 - uvs[c * 2 + 1]) * size;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(size - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(ay, by, cy)));
    const inv = 1 / area;
    // Attribute = A_c + wa (A_a - A_c) + wb (A_b - A_c).
    for (let k = 0; k < stride; k++) {
      da[k] = attrs[a * stride + k] - attrs[c * stride + k];
      db[k] = attrs[b * stride + k] - attrs[c * stride + k];
    }
    const cBase = c * stride;
    // wa and wb are affine in the texel position: w = w0 + wx * px + wy * py.
    const waX = -(cy - by) * inv;
    const waY = (cx - bx) * inv;
    const wa0 = (bx * cy - by * cx) * inv;
    const wbX = -(ay - cy) * inv;
    const wbY = (ax - cx) * inv;
    const wb0 = (cx * ay - cy * ax) * inv;
    for (let y = y0; y <= y1; y++) {
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
      const xs = Math.max(x0, Math.ceil(lo - 0.5));
      const xe = Math.min(x1, Math.floor(hi - 0.5));
      for (let x = xs; x <= xe; x++) {
        const px = x + 0.5;
        const wa = wa0 + waX * px + waY * py;
        const wb = wb0 + wbX * px + wbY * py;
        for (let k = 0; k < stride; k++) out[k] = attrs[cBase + k] + wa * da[k] + wb * db[k];
        visit(y * size + x, out);
      }
    }
  }
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
