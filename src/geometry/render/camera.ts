import type { Vec3 } from '../../model/avatar.ts';

/**
 * Cameras of the renderer. Image coordinates are continuous pixels of the output image:
 * x right, y down, pixel (i, j) covers [i, i+1) x [j, j+1), so its centre is (i + 0.5, j + 0.5).
 * Camera space is the computer-vision one: x right, y down, z forward (depth).
 */
export type Camera =
  | {
      type: 'perspective';
      /** Vertical field of view, degrees. */
      fovY: number;
      eye: Vec3;
      target: Vec3;
      up: Vec3;
    }
  | {
      type: 'orthographic';
      /** World units seen from the top to the bottom of the image. */
      viewHeight: number;
      eye: Vec3;
      target: Vec3;
      up: Vec3;
    }
  | {
      /** A calibrated pinhole camera: x_image ~ K (R X + t). */
      type: 'pinhole';
      /** Intrinsics, 3x3 row-major, in output-image pixels; the last row must be 0 0 1. */
      K: number[];
      /** World-to-camera rotation, 3x3 row-major. */
      R: number[];
      /** World-to-camera translation. */
      t: Vec3;
    };

/** A camera resolved for one image size: pose, intrinsics and the kind of projection. */
export interface CameraFrame {
  /** World-to-camera rotation, 3x3 row-major. */
  R: Float64Array;
  t: Float64Array;
  /** fx, skew, cx, fy, cy in pixels of the image the frame was made for. */
  fx: number;
  skew: number;
  cx: number;
  fy: number;
  cy: number;
  perspective: boolean;
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  if (!(l > 0)) throw new RangeError('camera: zero-length direction');
  return [v[0] / l, v[1] / l, v[2] / l];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** World-to-camera pose of a camera at `eye` looking at `target`, `up` towards the top of the image. */
export function lookAt(eye: Vec3, target: Vec3, up: Vec3): { R: number[]; t: Vec3 } {
  const forward = normalize([target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]]);
  const right = normalize(cross(forward, up));
  const down = cross(forward, right);
  const R = [...right, ...down, ...forward];
  const t: Vec3 = [
    -(R[0] * eye[0] + R[1] * eye[1] + R[2] * eye[2]),
    -(R[3] * eye[0] + R[4] * eye[1] + R[5] * eye[2]),
    -(R[6] * eye[0] + R[7] * eye[1] + R[8] * eye[2]),
  ];
  return { R, t };
}

/** Resolves a camera for an image of `width` x `height` pixels. */
export function cameraFrame(camera: Camera, width: number, height: number): CameraFrame {
  if (camera.type === 'pinhole') {
    const K = camera.K;
    if (K.length !== 9 || K[3] !== 0 || K[6] !== 0 || K[7] !== 0 || K[8] !== 1) {
      throw new RangeError('camera: K must be 3x3 upper triangular with K[2][2] = 1');
    }
    return {
      R: Float64Array.from(camera.R),
      t: Float64Array.from(camera.t),
      fx: K[0],
      skew: K[1],
      cx: K[2],
      fy: K[4],
      cy: K[5],
      perspective: true,
    };
  }
  const { R, t } = lookAt(camera.eye, camera.target, camera.up);
  const f =
    camera.type === 'perspective'
      ? height / 2 / Math.tan((camera.fovY * Math.PI) / 360)
      : height / camera.viewHeight;
  return {
    R: Float64Array.from(R),
    t: Float64Array.from(t),
    fx: f,
    skew: 0,
    cx: width / 2,
    fy: f,
    cy: height / 2,
    perspective: camera.type === 'perspective',
  };
}

/** Image position (pixels) and depth (camera z, world units) of a world point. */
export function projectPoint(frame: CameraFrame, p: Vec3): { x: number; y: number; depth: number } {
  const { R, t } = frame;
  const xc = R[0] * p[0] + R[1] * p[1] + R[2] * p[2] + t[0];
  const yc = R[3] * p[0] + R[4] * p[1] + R[5] * p[2] + t[1];
  const zc = R[6] * p[0] + R[7] * p[1] + R[8] * p[2] + t[2];
  const q = frame.perspective ? 1 / zc : 1;
  return { x: (frame.fx * xc + frame.skew * yc) * q + frame.cx, y: frame.fy * yc * q + frame.cy, depth: zc };
}
