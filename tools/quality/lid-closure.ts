/**
 * How well closed lids hide the eyeball (issue 20 item 3): the share of the open eye's eyeball still seen with a blink
 * applied, orthographic, from the front and from below. `test/unit/geometry/blink-closure.test.ts` and
 * `scripts/blink-closure.ts` (every test photo) measure with it.
 */
import type { MeshData, Vec3 } from '../../src/model/avatar.ts';
import { renderTriangleIds } from '../../src/geometry/render/rasterize.ts';
import { forEachSelfIntersection } from '../../src/geometry/mesh/checks.ts';

export type Mesh = Pick<MeshData, 'positions' | 'normals' | 'uvs' | 'indices'>;

/** Straight on, and from below (37 degrees), as a camera under the face sees the lids. */
export const LID_VIEWS: Vec3[] = [[0, 0, 1], [0, -0.6, 0.8]];

/** Pixels (0.2 mm each) of the eyeball seen past the head from `direction` (unit), orthographic. */
export function eyeballSeen(head: Mesh, eye: Mesh, direction: Vec3): number {
  const centre = boundsCentre(eye.positions);
  const camera = { type: 'orthographic' as const, viewHeight: 4, eye: centre.map((c, k) => c + 20 * direction[k]) as Vec3, target: centre, up: [0, 1, 0] as Vec3 };
  const { ids } = renderTriangleIds([{ geometry: head }, { geometry: eye }], camera, { width: 200, height: 200 });
  const firstEye = head.indices.length / 3;
  return ids.reduce((n, id) => n + (id >= firstEye ? 1 : 0), 0);
}

/** An eyeball's centre: the middle of its bounds (a sphere's). */
function boundsCentre(p: ArrayLike<number>): Vec3 {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], p[i]);
    hi[i % 3] = Math.max(hi[i % 3], p[i]);
  }
  return [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2) as Vec3;
}

/** Per view: the eyeball's pixels seen open, and the share of them still seen with the lids closed. */
export function stillSeen(open: Mesh, closed: Mesh, eye: Mesh, views: readonly Vec3[] = LID_VIEWS): { open: number; share: number }[] {
  return views.map((direction) => {
    const before = eyeballSeen(open, eye, direction);
    return { open: before, share: eyeballSeen(closed, eye, direction) / before };
  });
}

/** Pairs of the mesh's triangles that cut through each other (grid cell 3 mm: about twice a lid's edge). */
export function selfIntersections(mesh: Pick<Mesh, 'positions' | 'indices'>): number {
  let count = 0;
  forEachSelfIntersection(mesh.positions, mesh.indices, 0.3, () => count++);
  return count;
}
