/** Hermite smoothstep: 0 at or below 0, 1 at or above 1, between them smooth with no slope at either end. */
export const smoothstep = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

/** smoothstep of `x` going from `from` (0) to `to` (1). */
export const smoothstepBetween = (from: number, to: number, x: number) => smoothstep((x - from) / (to - from));
