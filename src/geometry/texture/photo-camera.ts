/**
 * The photo's camera as estimated by face analysis: weak perspective from the head frame (cm, Y up)
 * to image pixels (y down): x = tx + s (R p)_x, y = ty - s (R p)_y.
 */
import type { Mat3 } from '../fit/similarity.ts';

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
