/**
 * A hair cap: the template has no hair, and a bald head changes how a face reads. When the photo shows
 * hair (hair/observe.ts), the scalp of the atlas takes its colour (a flat colour, not a hairstyle): all of it without a
 * hair mesh, under the fitted mesh only with one (capUnderHair in geometry/hair/hair-cover.ts).
 */
import { smoothstepBetween } from '../geometry/mesh/smoothstep.ts';

/** Width (cm) over which the cap fades in from the face's border, so the hairline is soft, not the mesh's rim. */
const HAIRLINE_FADE = 2.5;

/**
 * How much each scalp vertex is covered by hair (template space, cm): above the temples and ears at the
 * front and sides, down to the nape at the back, fading in from the face's border (`oval`).
 */
export function hairCoverage(positions: Float32Array, scalp: readonly number[], oval: readonly number[]): Float32Array {
  const out = new Float32Array(positions.length / 3);
  for (const v of scalp) {
    const y = positions[v * 3 + 1];
    const z = positions[v * 3 + 2];
    const line = 4.5 - 9.5 * smoothstepBetween(-3, -13, z);
    let nearest = Infinity;
    for (const o of oval) nearest = Math.min(nearest, Math.hypot(positions[o * 3] - positions[v * 3], positions[o * 3 + 1] - y, positions[o * 3 + 2] - z));
    out[v] = smoothstepBetween(line - 1, line + 1, y) * smoothstepBetween(0, HAIRLINE_FADE, nearest);
  }
  return out;
}
