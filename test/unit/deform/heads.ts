/**
 * Synthetic heads for the deformation tests: a closed superellipsoid "template" (UV sphere topology
 * with single pole vertices) and an "avatar" made by a smooth, non-uniform warp of it.
 */
import { seededRandom } from '../../../src/util/seeded-random.ts';

export interface TestMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** Head-sized superellipsoid (cm, Y up, face along +Z): semi-axes 7.5 x 11.5 x 9.5, exponent 2.5. */
export function superellipsoidHead(rings: number, segments: number): TestMesh {
  const radii = [7.5, 11.5, 9.5];
  const exponent = 2.5;
  const signedPow = (x: number, e: number) => Math.sign(x) * Math.abs(x) ** e;
  const positions: number[] = [0, radii[1], 0];
  for (let r = 1; r < rings; r++) {
    const theta = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const st = Math.sin(theta);
      positions.push(
        radii[0] * signedPow(st * Math.sin(phi), 2 / exponent),
        radii[1] * signedPow(Math.cos(theta), 2 / exponent),
        radii[2] * signedPow(st * Math.cos(phi), 2 / exponent),
      );
    }
  }
  positions.push(0, -radii[1], 0);
  const south = positions.length / 3 - 1;
  const ring = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments);
  const indices: number[] = [];
  for (let s = 0; s < segments; s++) {
    indices.push(0, ring(1, s), ring(1, s + 1));
    for (let r = 1; r < rings - 1; r++) {
      indices.push(ring(r, s), ring(r + 1, s), ring(r + 1, s + 1));
      indices.push(ring(r, s), ring(r + 1, s + 1), ring(r, s + 1));
    }
    indices.push(ring(rings - 1, s), south, ring(rings - 1, s + 1));
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/**
 * A different person: wider jaw, longer face, a bump where a nose would be, then turned 8 degrees
 * about Y, scaled by 1.06 and moved. Smooth and one-to-one, so the warped surface is still closed.
 */
export function warpedHead(template: Float32Array): Float32Array {
  const out = new Float32Array(template.length);
  const angle = (8 * Math.PI) / 180;
  const c = Math.cos(angle), s = Math.sin(angle);
  for (let i = 0; i < template.length; i += 3) {
    let x = template[i], y = template[i + 1], z = template[i + 2];
    x *= 1 + 0.12 * Math.exp(-(((y + 6) / 5) ** 2));
    y *= 1.05 + 0.02 * Math.tanh(z / 5);
    z += 1.5 * Math.exp(-((x / 2.5) ** 2 + ((y + 1) / 3) ** 2)) * Math.max(0, z / 9.5);
    const rx = c * x + s * z, rz = -s * x + c * z;
    out[i] = 1.06 * rx + 0.8;
    out[i + 1] = 1.06 * y - 1.2;
    out[i + 2] = 1.06 * rz + 0.5;
  }
  return out;
}

/** Random points on random triangles of `template`, and the `avatar` points with the same triangle and weights. */
export function surfaceSamples(
  template: Float32Array,
  avatar: Float32Array,
  indices: Uint32Array,
  count: number,
  seed: number,
): { template: Float32Array; avatar: Float32Array } {
  const rnd = random(seed);
  const onTemplate = new Float32Array(3 * count), onAvatar = new Float32Array(3 * count);
  for (let k = 0; k < count; k++) {
    const t = Math.floor(rnd() * (indices.length / 3));
    let u = rnd(), v = rnd();
    if (u + v > 1) [u, v] = [1 - u, 1 - v];
    const weights = [1 - u - v, u, v];
    for (let d = 0; d < 3; d++) {
      let a = 0, b = 0;
      for (let c = 0; c < 3; c++) {
        a += weights[c] * template[3 * indices[3 * t + c] + d];
        b += weights[c] * avatar[3 * indices[3 * t + c] + d];
      }
      onTemplate[3 * k + d] = a;
      onAvatar[3 * k + d] = b;
    }
  }
  return { template: onTemplate, avatar: onAvatar };
}

/** Deterministic pseudo-random numbers in [0, 1). */
export const random = seededRandom;
