import type { Vec3 } from '../../model/avatar.ts';
import { add, cross, dot, normalize, scale, sub, vertex } from './vec.ts';

/**
 * Points carried by triangles of host meshes (a wrap deformer): each point keeps a spot on its triangle
 * (barycentric) and its offset from that spot in the triangle's own frame, so it turns and moves with
 * the triangle whatever the host does (a fit, a blendshape, a rigid turn) without stretching.
 */
export interface SurfaceBinding {
  /** Per point, the index of its host (into the hosts passed to `placeBound`). */
  host: Uint8Array;
  /** Per point, the host triangle's first index position (a multiple of 3 into the host's indices). */
  corner: Uint32Array;
  /** Per point, the spot's barycentric weights of the triangle's three vertices. */
  bary: Float32Array;
  /** Per point, the offset from the spot along the triangle's edge, across it and along its normal. */
  offset: Float32Array;
}

export interface BindingHost {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

/** The triangle's frame: first edge, in-plane perpendicular, normal (unit). */
function frame(h: BindingHost, corner: number): { a: Vec3; b: Vec3; c: Vec3; axes: [Vec3, Vec3, Vec3] } {
  const a = vertex(h.positions, h.indices[corner]), b = vertex(h.positions, h.indices[corner + 1]), c = vertex(h.positions, h.indices[corner + 2]);
  const e1 = normalize(sub(b, a));
  const n = normalize(cross(sub(b, a), sub(c, a)));
  return { a, b, c, axes: [e1, cross(n, e1), n] };
}

/** Barycentric weights of the point of triangle abc nearest to p's projection, clamped into the triangle. */
function clampedBary(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const e0 = sub(b, a), e1 = sub(c, a), d = sub(p, a);
  const d00 = dot(e0, e0), d01 = dot(e0, e1), d11 = dot(e1, e1), d20 = dot(d, e0), d21 = dot(d, e1);
  const den = d00 * d11 - d01 * d01;
  let v = (d11 * d20 - d01 * d21) / den, w = (d00 * d21 - d01 * d20) / den;
  v = Math.max(0, v);
  w = Math.max(0, w);
  const s = v + w;
  if (s > 1) [v, w] = [v / s, w / s];
  return [1 - v - w, v, w];
}

const spot = (f: ReturnType<typeof frame>, bary: ArrayLike<number>, i: number): Vec3 =>
  add(add(scale(f.a, bary[3 * i]), scale(f.b, bary[3 * i + 1])), scale(f.c, bary[3 * i + 2]));

/** Binds each point to the host triangle chosen for it (`host[i]`, `corner[i]`), at rest. */
export function bindToSurface(points: ArrayLike<number>, hosts: readonly BindingHost[], host: ArrayLike<number>, corner: ArrayLike<number>): SurfaceBinding {
  const count = points.length / 3;
  const out: SurfaceBinding = { host: Uint8Array.from(host), corner: Uint32Array.from(corner), bary: new Float32Array(count * 3), offset: new Float32Array(count * 3) };
  for (let i = 0; i < count; i++) {
    const f = frame(hosts[out.host[i]], out.corner[i]);
    const p = vertex(points, i);
    out.bary.set(clampedBary(p, f.a, f.b, f.c), 3 * i);
    const d = sub(p, spot(f, out.bary, i));
    out.offset.set(f.axes.map((axis) => dot(d, axis)), 3 * i);
  }
  return out;
}

/** The bound points on the hosts as they are now (packed xyz). */
export function placeBound(binding: SurfaceBinding, hosts: readonly BindingHost[]): Float32Array {
  const count = binding.host.length;
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const f = frame(hosts[binding.host[i]], binding.corner[i]);
    let p = spot(f, binding.bary, i);
    for (let k = 0; k < 3; k++) p = add(p, scale(f.axes[k], binding.offset[3 * i + k]));
    out.set(p, 3 * i);
  }
  return out;
}

/** Index position (multiple of 3) of the triangle among `corners` whose centroid is nearest to p. */
export function nearestTriangle(p: Vec3, h: BindingHost, corners: readonly number[]): number {
  let best = corners[0], bestDistance = Infinity;
  for (const t of corners) {
    let d = 0;
    for (let k = 0; k < 3; k++) {
      const centroid = (h.positions[3 * h.indices[t] + k] + h.positions[3 * h.indices[t + 1] + k] + h.positions[3 * h.indices[t + 2] + k]) / 3;
      d += (centroid - p[k]) ** 2;
    }
    if (d < bestDistance) [best, bestDistance] = [t, d];
  }
  return best;
}
