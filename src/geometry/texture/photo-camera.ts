/**
 * The photo's camera as estimated by face analysis: weak perspective from the head frame (cm, Y up)
 * to image pixels (y down): x = tx + s (R p)_x, y = ty - s (R p)_y.
 */
import type { Mat3 } from '../fit/similarity.ts';
import type { Camera } from '../render/camera.ts';
import { pickSurface, visiblePoints } from '../render/surface-pick.ts';
import type { Vec3 } from '../../model/avatar.ts';

export interface PhotoCamera {
  /** Head frame to camera axes. */
  rotation: Mat3;
  pixelsPerCm: number;
  /** Image position of the head-frame origin. */
  translation: [number, number];
}

/** Projects packed xyz points to packed image xy. */
export function projectPoints(cam: PhotoCamera, positions: ArrayLike<number>): Float32Array {
  const r = cam.rotation;
  const s = cam.pixelsPerCm;
  const out = new Float32Array((positions.length / 3) * 2);
  for (let i = 0, j = 0; i < positions.length; i += 3, j += 2) {
    const x = positions[i];
    const y = positions[i + 1];
    const z = positions[i + 2];
    out[j] = cam.translation[0] + s * (r[0] * x + r[1] * y + r[2] * z);
    out[j + 1] = cam.translation[1] - s * (r[3] * x + r[4] * y + r[5] * z);
  }
  return out;
}

/** Component of each unit normal towards the camera (1 = facing it). */
export function facingCamera(cam: PhotoCamera, normals: ArrayLike<number>): Float32Array {
  const r = cam.rotation;
  const out = new Float32Array(normals.length / 3);
  for (let i = 0; i < out.length; i++) {
    out[i] = r[6] * normals[i * 3] + r[7] * normals[i * 3 + 1] + r[8] * normals[i * 3 + 2];
  }
  return out;
}

/**
 * The same projection as an orthographic camera of the renderer for an image of the photo's size, so that
 * a render lines up with the photo pixel for pixel.
 */
export function photoRenderCamera(cam: PhotoCamera, width: number, height: number): Camera {
  const r = cam.rotation;
  const c = 1 / cam.pixelsPerCm;
  // Rows of R are the camera axes in head coordinates.
  const toHead = (x: number, y: number, z: number): Vec3 => [r[0] * x + r[3] * y + r[6] * z, r[1] * x + r[4] * y + r[7] * z, r[2] * x + r[5] * y + r[8] * z];
  const target = toHead((width / 2 - cam.translation[0]) * c, (cam.translation[1] - height / 2) * c, 0);
  const towardsViewer = toHead(0, 0, 1);
  const distance = 200;
  return {
    type: 'orthographic',
    viewHeight: height * c,
    eye: [target[0] + towardsViewer[0] * distance, target[1] + towardsViewer[1] * distance, target[2] + towardsViewer[2] * distance],
    target,
    up: toHead(0, 1, 0),
  };
}

/** Long side (pixels) of the depth image used to decide which vertices the photo saw. */
const VISIBILITY_SIZE = 512;
/** Depth slack (cm) before a vertex counts as hidden behind nearer surface. */
const VISIBILITY_TOLERANCE = 0.25;

/**
 * Per vertex, 1 when the photo's camera saw it and 0 when nearer surface hid it (the nose hides part of the
 * far cheek on a turned face): a depth image of the mesh from the photo's camera, at a reduced size. The mesh's
 * normals only keep the renderer from facetting it (a copy of every corner) for a shading this does not read.
 */
export function visibleFromPhoto(cam: PhotoCamera, photo: { width: number; height: number }, mesh: { positions: Float32Array; normals: Float32Array; indices: Uint32Array }): Uint8Array {
  const k = Math.min(1, VISIBILITY_SIZE / Math.max(photo.width, photo.height));
  const small: PhotoCamera = { rotation: cam.rotation, pixelsPerCm: cam.pixelsPerCm * k, translation: [cam.translation[0] * k, cam.translation[1] * k] };
  const size = { width: Math.round(photo.width * k), height: Math.round(photo.height * k) };
  const item = { geometry: { positions: mesh.positions, normals: mesh.normals, uvs: new Float32Array(0), indices: mesh.indices } };
  const pick = pickSurface([item], photoRenderCamera(small, size.width, size.height), size);
  return visiblePoints(pick, mesh.positions, VISIBILITY_TOLERANCE);
}
