/** Distance from (x, y) to a closed polygon's border: positive inside, negative outside. */
export function signedPolygonDistance(poly: readonly (readonly [number, number])[], x: number, y: number): number {
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const xi = poly[i][0];
    const yi = poly[i][1];
    const xj = poly[j][0];
    const yj = poly[j][1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    const ex = xj - xi;
    const ey = yj - yi;
    const t = Math.min(1, Math.max(0, ((x - xi) * ex + (y - yi) * ey) / (ex * ex + ey * ey || 1)));
    const dx = x - xi - t * ex;
    const dy = y - yi - t * ey;
    best = Math.min(best, dx * dx + dy * dy);
  }
  // Squared distances are compared in the loop; one square root at the end (this runs per pixel).
  return inside ? Math.sqrt(best) : -Math.sqrt(best);
}
