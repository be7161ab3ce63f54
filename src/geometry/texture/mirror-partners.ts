/**
 * Mirror partners across a face's symmetry plane: for a vertex on one side, the vertex nearest its mirror image on the
 * other. A face is close to symmetric, so a partner the photo shows well stands in for a vertex it shows poorly (the
 * far side of a turned face). The landmarks' partners on the canonical face (`mirrorPartners` in
 * src/pipeline/face/mirror-reading.ts) are fixed per template and taken all round; these are per avatar, among the
 * vertices the photo shows well, and none beyond a reach.
 */

/**
 * Per vertex of `listed`, the vertex of `candidates` nearest its mirror image across the plane x = `plane` (head
 * frame, positions packed xyz), or -1 when none lies within `reach` cm of it.
 */
export function mirrorPartners(positions: ArrayLike<number>, listed: readonly number[], candidates: readonly number[], plane: number, reach: number): Int32Array {
  // Cells as large as the reach: a mirror image's partner lies in its cell or a neighbour.
  const cells = new Map<number, number[]>();
  for (const v of candidates) {
    const k = cellKey(Math.floor(positions[v * 3] / reach), Math.floor(positions[v * 3 + 1] / reach), Math.floor(positions[v * 3 + 2] / reach));
    const cell = cells.get(k);
    if (cell) cell.push(v);
    else cells.set(k, [v]);
  }
  const out = new Int32Array(listed.length).fill(-1);
  listed.forEach((v, i) => {
    const x = 2 * plane - positions[v * 3], y = positions[v * 3 + 1], z = positions[v * 3 + 2];
    const [cx, cy, cz] = [Math.floor(x / reach), Math.floor(y / reach), Math.floor(z / reach)];
    let best = reach * reach;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          for (const u of cells.get(cellKey(cx + dx, cy + dy, cz + dz)) ?? []) {
            const d2 = (positions[u * 3] - x) ** 2 + (positions[u * 3 + 1] - y) ** 2 + (positions[u * 3 + 2] - z) ** 2;
            if (d2 > best) continue;
            best = d2;
            out[i] = u;
          }
        }
      }
    }
  });
  return out;
}

/** A grid cell's key (cells within 512 of the origin each way). */
function cellKey(x: number, y: number, z: number): number {
  return ((x + 512) * 1024 + (y + 512)) * 1024 + (z + 512);
}
