/**
 * For every vertex, the first vertex at exactly the same position (coordinates equal as numbers: 0 and -0 are
 * one, a NaN equals nothing), found through a hash table of the positions in one pass.
 */
export function weldMap(positions: ArrayLike<number>): Uint32Array {
  const n = positions.length / 3;
  const map = new Uint32Array(n);
  let size = 16;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  // Slots hold a vertex + 1 (0 empty): only the first vertex of each position is entered.
  const slots = new Uint32Array(size);
  const bits = new Float64Array(1), words = new Int32Array(bits.buffer);
  const mix = (h: number, c: number) => {
    bits[0] = c + 0; // -0 + 0 is +0: equal numbers hash alike
    h = Math.imul(h ^ words[0], 0x9e3779b1);
    h = Math.imul(h ^ words[1], 0x85ebca77);
    return h ^ (h >>> 15);
  };
  for (let v = 0; v < n; v++) {
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    let s = mix(mix(mix(0, x), y), z) & mask;
    for (;;) {
      const u = slots[s];
      if (u === 0) {
        slots[s] = v + 1;
        map[v] = v;
        break;
      }
      const w = 3 * (u - 1);
      if (positions[w] === x && positions[w + 1] === y && positions[w + 2] === z) {
        map[v] = u - 1;
        break;
      }
      s = (s + 1) & mask;
    }
  }
  return map;
}
