/**
 * Textures of a mesh avatar: the head atlas transferred from the scan's texture (the mouth's inside and
 * the eye sockets painted like the photo path's, gaps filled smoothly), the iris colour measured on the
 * render the landmarks were found on, or for hifimesh on the eyes-open photo, whose eye region also
 * replaces the scan's closed eyes in the atlas (its lashes taken off the upper lids, as in the photo path). Eyes,
 * teeth and tongue as in the photo path.
 */
import type { MeshData } from '../../model/avatar.ts';
import type { RgbaImage } from '../../geometry/render/image.ts';
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import { transferTexture, type TransferScan } from '../../geometry/texture/transfer.ts';
import { blendPhotoRegion } from '../../geometry/texture/transfer-photo.ts';
import { removeLidStreaks } from '../../geometry/texture/lid-streaks.ts';
import { blinkReach } from '../../geometry/expressions/blink-reach.ts';
import { bakeAlbedo, measureSkinTone } from '../../geometry/texture/bake-albedo.ts';
import {
  bakeEyeTexture,
  EYE_SOCKET_COLOUR,
  MOUTH_INSIDE_COLOUR,
  SCLERA,
  type Rgb,
} from '../../geometry/texture/bake-parts.ts';
import { visibleFromPhoto, type PhotoCamera } from '../../geometry/texture/photo-camera.ts';
import { applySimilarity } from '../../geometry/fit/fit-head.ts';
import { applyMat3, fitSimilarity } from '../../geometry/fit/similarity.ts';
import type { FaceAnalysis } from '../face/analyse.ts';
import { FACE_POINTS } from '../face/pose.ts';
import { measureIris, measureSclera } from '../face/face-regions.ts';
import { balanceIris } from '../../geometry/texture/white-balance.ts';
import type { TemplateView } from '../template-view.ts';
import { EYE_TEXTURE_SIZE, partTextures } from '../part-textures.ts';
import { smoothstepBetween } from '../../geometry/mesh/smoothstep.ts';

/** Scan surface farther than this (cm) from the fitted head gives no colour (the fill takes over). */
const TRANSFER_REACH = 1;
/** Cheek and forehead landmarks where the skin tone is measured (on the render, or the photo the eyes come from). */
const SKIN_LANDMARKS = [50, 280, 101, 330, 151];

/** The skin tone at SKIN_LANDMARKS on an image with those landmarks. */
function skinTone(image: RgbImage, lm: ArrayLike<number>): Rgb {
  return measureSkinTone(image, SKIN_LANDMARKS.map((i) => [lm[i * 3], lm[i * 3 + 1]]), 3);
}

/** The eye region taken from the photo (hifimesh): full within `inner` cm of the eyelid contour, none beyond `outer`. */
const EYE_REGION = { inner: 0.5, outer: 1.1 };

export interface MeshTextures {
  images: Map<string, RgbaImage>;
  skin: Rgb;
  iris: Rgb;
}

/** Where the iris colour and the eyes come from: the render of the scan, or (hifimesh) the analysed photo. */
export type EyeSource =
  | { kind: 'render'; image: RgbImage; landmarks: Float32Array }
  | { kind: 'photo'; analysis: FaceAnalysis };

export function bakeMeshTextures(tpl: TemplateView, head: MeshData, scan: TransferScan, render: { image: RgbImage; landmarks: Float32Array }, eyes: EyeSource): MeshTextures {
  const size = tpl.textureSize;
  const { rgba } = transferTexture(
    {
      size,
      positions: head.positions,
      uvs: head.uvs,
      indices: head.indices,
      fixed: [
        { vertices: tpl.mouthInside, colour: MOUTH_INSIDE_COLOUR },
        { vertices: tpl.eyeSockets, colour: EYE_SOCKET_COLOUR },
      ],
    },
    scan,
    TRANSFER_REACH,
  );
  const lm = render.landmarks;
  const skin = skinTone(render.image, lm);
  const irisSource = eyes.kind === 'photo' ? { image: eyes.analysis.image, landmarks: eyes.analysis.landmarks } : eyes;
  // Its colour as it stands against its own white, as the photo path reads it; the scan's texture is not balanced.
  const irisSkin = eyes.kind === 'photo' ? skinTone(irisSource.image, irisSource.landmarks) : skin;
  const iris = balanceIris(measureIris(irisSource.image, irisSource.landmarks), [1, 1, 1], irisSkin, measureSclera(irisSource.image, irisSource.landmarks), SCLERA);
  if (eyes.kind === 'photo') {
    const photo = photoAlbedo(tpl, head, eyes.analysis, skin);
    blendPhotoRegion(rgba, photo, size, { uvs: head.uvs, indices: head.indices, weights: eyeRegion(tpl, head.positions) });
    // The photo's open eye shows the upper lid as a thin band under its lashes, which a blink spreads, as in the photo
    // path. A scan's own texture is the studio's and stays as it came.
    removeLidStreaks({ rgba, size, uvs: head.uvs, indices: head.indices, reach: blinkReach(tpl.source) });
  }
  const images = new Map<string, RgbaImage>();
  images.set('head_baseColor.png', { width: size, height: size, rgba });
  const eye = bakeEyeTexture(EYE_TEXTURE_SIZE, tpl.irisUv, iris);
  for (const [name, image] of partTextures(tpl, eye)) images.set(name, image);
  return { images, skin, iris };
}

/**
 * The photo's colours baked onto the fitted head: the head is put into the photo's head frame by the
 * similarity between its face vertices and the photo's landmarks, then baked as the photo path does.
 */
function photoAlbedo(tpl: TemplateView, head: MeshData, analysis: FaceAnalysis, skin: Rgb): Uint8Array {
  const sim = fitSimilarity(head.positions, analysis.headLandmarks, Uint32Array.from({ length: FACE_POINTS }, (_, i) => i));
  const positions = new Float32Array(head.positions.length);
  const normals = new Float32Array(head.normals.length);
  for (let i = 0; i < positions.length; i += 3) {
    positions.set(applySimilarity(sim, head.positions[i], head.positions[i + 1], head.positions[i + 2]), i);
    normals.set(applyMat3(sim.rotation, head.normals[i], head.normals[i + 1], head.normals[i + 2]), i);
  }
  const camera: PhotoCamera = { rotation: analysis.pose.rotation, pixelsPerCm: 1 / analysis.cmPerPixel, translation: analysis.pose.translation };
  const moved = { positions, normals, uvs: head.uvs, indices: head.indices };
  return bakeAlbedo({
    size: tpl.textureSize,
    ...moved,
    photo: analysis.image,
    camera,
    faceOval: tpl.faceOval,
    skin,
    visible: visibleFromPhoto(camera, analysis.image, moved),
  }).rgba;
}

/** Per head vertex, how much of the photo's eye region it takes (1 at the eyelids, 0 from EYE_REGION.outer on). */
function eyeRegion(tpl: TemplateView, positions: Float32Array): Float32Array {
  const contour = [...tpl.source.loops.leftEye, ...tpl.source.loops.rightEye];
  const out = new Float32Array(positions.length / 3);
  const sockets = new Set(tpl.eyeSockets);
  for (let v = 0; v < out.length; v++) {
    if (sockets.has(v)) continue;
    let d = Infinity;
    for (const c of contour) {
      d = Math.min(d, Math.hypot(positions[v * 3] - positions[c * 3], positions[v * 3 + 1] - positions[c * 3 + 1], positions[v * 3 + 2] - positions[c * 3 + 2]));
    }
    out[v] = smoothstepBetween(EYE_REGION.outer, EYE_REGION.inner, d);
  }
  return out;
}
