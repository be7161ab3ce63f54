/**
 * Walks the texels covered by a mesh's triangles in UV space (v up, texture row 0 at the top) and hands
 * each texel's triangle and barycentric weights to a callback. Texel centres are sampled.
 */
export type TexelVisitor = (texel: number, a: number, b: number, c: number, wa: number, wb: number, wc: number) => void;

export function rasterizeUv(uvs: ArrayLike<number>, indices: ArrayLike<number>, size: number, visit: TexelVisitor): void {
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
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const wa = ((bx - px) * (cy - py) - (by - py) * (cx - px)) * inv;
        const wb = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) * inv;
        const wc = 1 - wa - wb;
        // A small tolerance closes hairline gaps between neighbouring triangles.
        if (wa < -1e-4 || wb < -1e-4 || wc < -1e-4) continue;
        visit(y * size + x, a, b, c, wa, wb, wc);
      }
    }
  }
}

/**
 * Grows covered texels into uncovered ones (`covered` is 1 where written) so that bilinear filtering
 * and mip-mapping at island borders do not pull in the background.
 */
export function dilate(rgba: Uint8Array, covered: Uint8Array, size: number, passes: number): void {
  for (let p = 0; p < passes; p++) {
    const grown: number[] = [];
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = y * size + x;
        if (covered[i]) continue;
        let n = -1;
        if (x > 0 && covered[i - 1] === 1) n = i - 1;
        else if (x < size - 1 && covered[i + 1] === 1) n = i + 1;
        else if (y > 0 && covered[i - size] === 1) n = i - size;
        else if (y < size - 1 && covered[i + size] === 1) n = i + size;
        if (n < 0) continue;
        rgba.copyWithin(i * 4, n * 4, n * 4 + 4);
        grown.push(i);
      }
    }
    for (const i of grown) covered[i] = 1;
  }
}
