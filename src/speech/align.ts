/**
 * Labels each symbol of `observed` with the label of the `reference` symbol it aligns to under a
 * Levenshtein alignment (unit costs); symbols aligned to a gap take the previous label (or the next one at the start).
 */
export function alignLabels(observed: readonly string[], reference: readonly string[], labels: readonly number[]): number[] {
  const n = observed.length;
  const m = reference.length;
  const cost = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= m; j++) cost[at(0, j)] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diagonal = cost[at(i - 1, j - 1)] + (observed[i - 1] === reference[j - 1] ? 0 : 1);
      cost[at(i, j)] = Math.min(diagonal, cost[at(i - 1, j)] + 1, cost[at(i, j - 1)] + 1);
    }
  }
  const result: number[] = new Array(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const diagonal = cost[at(i - 1, j - 1)] + (observed[i - 1] === reference[j - 1] ? 0 : 1);
    if (cost[at(i, j)] === diagonal) {
      result[--i] = labels[--j];
    } else if (cost[at(i, j)] === cost[at(i - 1, j)] + 1) {
      i--;
    } else j--;
  }
  // Fill gaps so labels stay monotonic.
  let previous = -1;
  for (let k = 0; k < n; k++) {
    if (result[k] >= 0) previous = result[k];
    else result[k] = previous;
  }
  let next = result.find((label) => label >= 0) ?? (labels[0] ?? 0);
  for (let k = 0; k < n && result[k] < 0; k++) result[k] = next;
  return result;
}
