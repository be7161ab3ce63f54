import { neighbourLists } from './adjacency.ts';
import { weldMap } from './weld.ts';

/**
 * A per-vertex value averaged with its neighbours' `passes` times over the surface, seam copies welded (they share a
 * value); `held` vertices keep theirs. Each pass spreads over one ring of neighbours, so the reach follows the mesh's
 * own spacing: a few millimetres where it is fine, a centimetre or two where it is coarse (the neck).
 */
export function smoothOverSurface(values: ArrayLike<number>, positions: ArrayLike<number>, indices: ArrayLike<number>, passes: number, held: Iterable<number> = []): Float32Array {
  const n = values.length;
  const weld = weldMap(positions);
  const keep = new Uint8Array(n);
  for (const v of held) keep[weld[v]] = 1;
  const { start, list } = neighbourLists(n, Uint32Array.from(indices, (v) => weld[v]));
  let current = Float32Array.from(values, (_, v) => values[weld[v]]);
  let next = new Float32Array(n);
  for (let pass = 0; pass < passes; pass++) {
    for (let v = 0; v < n; v++) {
      if (weld[v] !== v) continue;
      if (keep[v]) {
        next[v] = current[v];
        continue;
      }
      let sum = current[v];
      for (let k = start[v]; k < start[v + 1]; k++) sum += current[list[k]];
      next[v] = sum / (1 + start[v + 1] - start[v]);
    }
    for (let v = 0; v < n; v++) if (weld[v] !== v) next[v] = next[weld[v]];
    [current, next] = [next, current];
  }
  return current;
}
