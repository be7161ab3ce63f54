import type { Vec3 } from '../../model/avatar.ts';
import { cameraFrame, projectPoint, type Camera, type CameraFrame } from './camera.ts';
import { firstTriangleIds, renderTriangleIds, type RenderItem } from './rasterize.ts';
import { rayTriangle } from '../mesh/triangle-tests.ts';

/** What a camera sees at each pixel: the nearest triangle and its depth. */
export interface SurfacePick {
  width: number;
  height: number;
  frame: CameraFrame;
  items: RenderItem[];
  /** Per pixel, the id of the nearest triangle (items' triangles counted in order), -1 for none. */
  ids: Int32Array;
  /** Per pixel, camera-space depth of the nearest surface, Infinity for none. */
  depth: Float32Array;
  /** Id of the first triangle of each item. */
  firstIds: number[];
}

export interface SurfaceHit {
  item: number;
  /** Triangle index within the item. */
  triangle: number;
  /** Weights of the triangle's three corners (sum 1). */
  barycentric: Vec3;
  point: Vec3;
}

/** Renders which triangle is seen where; the basis for lifting image points onto the surface. */
export function pickSurface(items: RenderItem[], camera: Camera, size: { width: number; height: number }): SurfacePick {
  const { ids, depth } = renderTriangleIds(items, camera, size);
  return { ...size, frame: cameraFrame(camera, size.width, size.height), items, ids, depth, firstIds: firstTriangleIds(items) };
}

/**
 * The surface point seen at image position (x, y) (continuous pixels, so landmarks keep their
 * sub-pixel precision): the camera ray through it meets the triangle seen at that pixel.
 * Undefined where no surface is seen.
 */
export function liftPoint(pick: SurfacePick, x: number, y: number): SurfaceHit | undefined {
  const px = Math.floor(x), py = Math.floor(y);
  if (px < 0 || py < 0 || px >= pick.width || py >= pick.height) return undefined;
  const id = pick.ids[py * pick.width + px];
  if (id < 0) return undefined;
  let item = pick.firstIds.length - 1;
  while (pick.firstIds[item] > id) item--;
  const triangle = id - pick.firstIds[item];
  const { positions, indices } = pick.items[item].geometry;
  const corner = (k: number): Vec3 => {
    const v = indices[triangle * 3 + k] * 3;
    return [positions[v], positions[v + 1], positions[v + 2]];
  };
  const [a, b, c] = [corner(0), corner(1), corner(2)];
  const w = rayBarycentric(cameraRay(pick.frame, x, y), a, b, c);
  const point: Vec3 = [0, 1, 2].map((k) => w[0] * a[k] + w[1] * b[k] + w[2] * c[k]) as Vec3;
  return { item, triangle, barycentric: w, point };
}

/**
 * Per surface point (xyz triples): 1 if the camera sees it, 0 if something nearer hides it or it is
 * out of the image. A point counts as seen when it is no deeper than `tolerance` (world units) behind
 * the farthest surface in its 3x3 pixel neighbourhood, or when its own pixel shows nothing (it lies
 * on a silhouette, where the depth changes too fast between pixels to compare).
 */
export function visiblePoints(pick: SurfacePick, points: Float32Array, tolerance: number): Uint8Array {
  const out = new Uint8Array(points.length / 3);
  for (let i = 0; i < out.length; i++) {
    const p = projectPoint(pick.frame, [points[i * 3], points[i * 3 + 1], points[i * 3 + 2]]);
    const px = Math.floor(p.x), py = Math.floor(p.y);
    if (!(p.depth > 0) || px < 0 || py < 0 || px >= pick.width || py >= pick.height) continue;
    if (pick.depth[py * pick.width + px] === Infinity) {
      out[i] = 1;
      continue;
    }
    let farthest = -Infinity;
    for (let y = Math.max(0, py - 1); y <= Math.min(pick.height - 1, py + 1); y++) {
      for (let x = Math.max(0, px - 1); x <= Math.min(pick.width - 1, px + 1); x++) {
        const d = pick.depth[y * pick.width + x];
        if (d !== Infinity) farthest = Math.max(farthest, d);
      }
    }
    out[i] = p.depth <= farthest + tolerance ? 1 : 0;
  }
  return out;
}

/** World-space origin and direction of the ray through image position (x, y). */
function cameraRay(f: CameraFrame, x: number, y: number): { origin: Vec3; dir: Vec3 } {
  const yn = (y - f.cy) / f.fy;
  const xn = (x - f.cx - f.skew * yn) / f.fx;
  // Camera space: through the centre for a perspective camera, parallel to the axis for an orthographic one.
  const oc: Vec3 = f.perspective ? [0, 0, 0] : [xn, yn, 0];
  const dc: Vec3 = f.perspective ? [xn, yn, 1] : [0, 0, 1];
  const R = f.R, t = f.t;
  // World = R^T (camera - t).
  const toWorld = (v: Vec3): Vec3 => [
    R[0] * v[0] + R[3] * v[1] + R[6] * v[2],
    R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
    R[2] * v[0] + R[5] * v[1] + R[8] * v[2],
  ];
  return { origin: toWorld([oc[0] - t[0], oc[1] - t[1], oc[2] - t[2]]), dir: toWorld(dc) };
}

/**
 * Barycentric weights where the ray meets the triangle's plane (Moller-Trumbore). A sub-pixel
 * position can fall just outside the triangle seen at the pixel's centre: the weights are then
 * clamped onto the triangle.
 */
function rayBarycentric(ray: { origin: Vec3; dir: Vec3 }, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const hit = rayTriangle(ray.origin, ray.dir, a, b, c);
  if (!hit) return [1 / 3, 1 / 3, 1 / 3]; // seen edge-on
  const w: Vec3 = [Math.max(0, 1 - hit.u - hit.v), Math.max(0, hit.u), Math.max(0, hit.v)];
  const sum = w[0] + w[1] + w[2];
  return [w[0] / sum, w[1] / sum, w[2] / sum];
}
