/**
 * Finds the face on a scan: the textured scan is rendered from the front (then from the other sides, in
 * case the shape-based orientation guessed the face's direction wrong), the 478 landmarks are detected on
 * the render with the photo path's model, and each is lifted onto the scan by casting its camera ray.
 */
import type { MeshData, Vec3 } from '../../model/avatar.ts';
import type { Camera } from '../../geometry/render/camera.ts';
import type { RgbaImage } from '../../geometry/render/image.ts';
import { renderMeshes, type RenderItem } from '../../geometry/render/rasterize.ts';
import { liftPoint, pickSurface } from '../../geometry/render/surface-pick.ts';
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { detectFaces, type DetectedFace } from '../face/landmark-model.ts';
import { FACE_POINTS } from '../face/pose.ts';
import { PipelineCodes, PipelineError } from '../errors.ts';
import { PHOTO_TEXTURE_LIGHT } from '../output.ts';

/** Side of the square render the landmarks are detected on. */
export const RENDER_SIZE = 640;
/** How far below the top of the scan the render reaches, in head breadths (the face and chin, not the shoulders). */
const FRAME_DEPTH_BREADTHS = 1.75;
const FRAME_MARGIN = 1.15;
/** Up to this share of the face landmarks may miss the scan (holes); more and the face is not taken as found. */
const MAX_MISSING = 0.05;
const BACKGROUND: [number, number, number, number] = [128, 128, 128, 255];

export interface ScanLandmarks {
  /** 478 points on the scan (xyz, cm, the scan's frame); missing ones are NaN. */
  points: Float32Array;
  /** The render the landmarks were found on, its camera and the landmarks on it (x, y pixels, z the model's depth). */
  render: RgbImage;
  camera: Camera;
  image: Float32Array;
}

export async function findScanLandmarks(scan: MeshData, texture: RgbImage): Promise<ScanLandmarks> {
  const items: RenderItem[] = [{ geometry: scan, texture: withAlpha(texture), doubleSided: true }];
  const frame = frontFrame(scan.positions);
  for (const turn of [0, 180, 90, 270]) {
    const camera = frame(turn);
    const rendered = renderMeshes(items, camera, { width: RENDER_SIZE, height: RENDER_SIZE, supersample: 2, background: BACKGROUND, light: PHOTO_TEXTURE_LIGHT });
    const render = dropAlpha(rendered);
    const faces = await detectFaces(render.data, render.width, render.height);
    if (faces.length === 0) continue;
    const face = faces.reduce((a, b) => (boxArea(b) > boxArea(a) ? b : a));
    const image = new Float32Array(face.mesh.length * 3);
    face.mesh.forEach((p, i) => image.set(p, i * 3));
    const pick = pickSurface(items, camera, { width: RENDER_SIZE, height: RENDER_SIZE });
    const points = new Float32Array(face.mesh.length * 3).fill(Number.NaN);
    let missing = 0;
    for (let i = 0; i < face.mesh.length; i++) {
      const hit = liftPoint(pick, image[i * 3], image[i * 3 + 1]);
      if (hit) points.set(hit.point, i * 3);
      else if (i < FACE_POINTS) missing++;
    }
    if (missing <= MAX_MISSING * FACE_POINTS) return { points, render, camera, image };
  }
  throw new PipelineError(PipelineCodes.meshNoFace, 'no face was found on the mesh (rendered with its texture from the front and the sides)');
}

const boxArea = (f: DetectedFace) => f.box[2] * f.box[3];

/** Orthographic cameras around the vertical axis (turn 0 looks at the face along -Z) framing the upper head. */
function frontFrame(positions: Float32Array): (turnDeg: number) => Camera {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[i + k]);
      hi[k] = Math.max(hi[k], positions[i + k]);
    }
  }
  const breadth = Math.max(hi[0] - lo[0], hi[2] - lo[2]);
  const bottom = Math.max(lo[1], hi[1] - FRAME_DEPTH_BREADTHS * Math.min(hi[0] - lo[0], hi[2] - lo[2]));
  const target: Vec3 = [(lo[0] + hi[0]) / 2, (bottom + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const viewHeight = Math.max(hi[1] - bottom, breadth) * FRAME_MARGIN;
  const distance = 2 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return (turnDeg) => {
    const r = (turnDeg * Math.PI) / 180;
    const eye: Vec3 = [target[0] + distance * Math.sin(r), target[1], target[2] + distance * Math.cos(r)];
    return { type: 'orthographic', viewHeight, eye, target, up: [0, 1, 0] };
  };
}

function dropAlpha(img: RgbaImage): RgbImage {
  const data = new Uint8Array(img.width * img.height * 3);
  for (let i = 0, j = 0; i < img.rgba.length; i += 4, j += 3) {
    data[j] = img.rgba[i];
    data[j + 1] = img.rgba[i + 1];
    data[j + 2] = img.rgba[i + 2];
  }
  return { width: img.width, height: img.height, data };
}

/** The scan's texture with alpha, kept for a second search on the same scan (turned to face the camera). */
const withAlphaOf = new WeakMap<RgbImage, RgbaImage>();

function withAlpha(img: RgbImage): RgbaImage {
  const kept = withAlphaOf.get(img);
  if (kept) return kept;
  const rgba = new Uint8Array(img.width * img.height * 4).fill(255);
  for (let i = 0, j = 0; j < img.data.length; i += 4, j += 3) {
    rgba[i] = img.data[j];
    rgba[i + 1] = img.data[j + 1];
    rgba[i + 2] = img.data[j + 2];
  }
  const out = { width: img.width, height: img.height, rgba };
  withAlphaOf.set(img, out);
  return out;
}
