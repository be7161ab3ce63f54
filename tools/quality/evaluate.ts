/**
 * The quality measures of issue 3, per photo and overall: landmark error of a render made with the photo's
 * estimated camera, identity distance between photo and front render (face-api descriptors), verification
 * against the other photos, the mouth's gap and corner lift on the front preview (a neutral avatar's mouth is
 * closed and relaxed), and the mesh checks. Used by scripts/quality.ts and the pipeline tests.
 */
import type { PipelineInput } from '../../src/pipeline/types.ts';
import type { Feature } from '../../src/model/product.ts';
import { PipelineError } from '../../src/pipeline/errors.ts';
import { PHOTO_TEXTURE_LIGHT } from '../../src/pipeline/output.ts';
import type { PhotoPipeline, PhotoPipelineResult } from '../../src/pipeline/photo-pipeline.ts';
import { detectFaces } from '../../src/pipeline/face/landmark-model.ts';
import { normalisedLandmarkError } from './landmark-error.ts';
import { faceDescriptor, descriptorDistance } from './identity.ts';
import { renderedSkin, rgbOfHex, sideSkinHue, srgbToLab, samePersonDeltaE, betweenPersonSpread, type Lab, type SkinPair } from './skin-colour.ts';
import { mouthShape, meshMouthShape } from './mouth-shape.ts';
import { modelBesideFace } from './beside-face.ts';
import { renderMeshes } from '../../src/geometry/render/rasterize.ts';
import { posedModel } from '../posed-model.ts';
import { modelItems, previewCamera, PREVIEW_SIZE } from '../../src/geometry/render/preview.ts';
import { decodeImage, decodeMaterialTextures, decodeRgb } from '../decode-image.ts';
import { photoRenderCamera } from '../../src/geometry/texture/photo-camera.ts';
import { checkMesh, type MeshCheckReport } from '../../src/geometry/mesh/checks.ts';
import { boundaryLoops } from '../../src/geometry/mesh/adjacency.ts';
import type { Rgb, RgbImage } from '../../src/geometry/texture/rgb-image.ts';
import type { RgbaImage } from '../../src/geometry/render/image.ts';
import { avatarLandmarks, headSilhouetteLabels, labelsIoU } from './head-silhouette.ts';
import type { TemplateVersion } from '../../src/model/avatar.ts';
import { median } from '../../src/geometry/texture/sample.ts';
import { rec601Luma } from '../../src/geometry/render/srgb.ts';
import { measureIris, measureSclera } from '../../src/pipeline/face/face-regions.ts';

export interface PhotoCase {
  name: string;
  bytes: Uint8Array;
  /** Same id = same person (for verification). */
  person?: string;
}

export interface PhotoQuality {
  name: string;
  person?: string;
  status: 'done' | 'refused';
  code?: number;
  message?: string;
  /** Mean landmark distance / eye-centre distance, on the neutral avatar. */
  landmarkError?: number;
  /** The same with the photo's expression put back (the fitted weights on the avatar's blendshapes). */
  posedLandmarkError?: number;
  /** Inner-lip gap and mouth-corner lift over mouth width, detected on the front preview. */
  mouthGap?: number;
  mouthLift?: number;
  /** The same from the neutral head's own face vertices seen by the preview's camera (mouth-shape.ts meshMouthShape): what the mesh gives, without its texture. */
  meshMouthGap?: number;
  meshMouthLift?: number;
  /** Descriptor distance photo vs front render. */
  identityDistance?: number;
  /** Render closer to the person's other photos than to anyone else's; null without another photo of them. */
  verified?: boolean | null;
  /** Nearest other-photo distances behind `verified`. */
  samePersonDistance?: number;
  otherPersonDistance?: number;
  /** IoU of the photo's person matte and the preview's alpha in the head region (head-silhouette.ts). */
  headSilhouette?: number;
  /** CIE Lab skin colour on the front preview's cheeks and forehead. */
  skinLab?: Lab;
  /** The darker cheek's luminance over the brighter one's on the front preview (1 = even; skin-colour.ts). */
  cheekBalance?: number;
  cheekChroma?: number;
  /** The side view's skin behind the face: its hue's mean distance from the skin tone's (skin-colour.ts sideSkinHue). */
  sideSkinHue?: number;
  /** The skin filled in beside the face against the photo's cheeks, on the head's albedo: ΔL*, Δa*, Δb* (beside-face.ts). */
  besideFace?: Lab;
  /**
   * The same skin measure on the analysed photo itself: what the pipeline starts from, so that a difference
   * between two photos of a person can be told apart from one the pipeline adds.
   */
  photoSkinLab?: Lab;
  /** The front preview's iris against the photo's: the luma of each one's ring colour (sampleIrisColour, both eyes); 1 as light. */
  irisLightness?: number;
  /** The same for the white of the eyes (measureSclera: the brighter third of each eye's white); none through glasses. */
  scleraLightness?: number;
  /**
   * How far the front preview's iris hue, read against its eye's white, is from the photo's: the CIE a*b* distance
   * between the two (iris minus white) differences. A viewer reads a pale iris's colour against the white beside it.
   */
  irisTint?: number;
  mesh?: MeshCheckReport;
  meshValid?: boolean;
  totalMs?: number;
  /** The landmark model's and the person segmentation's own times in this run. */
  landmarkMs?: number;
  segmentationMs?: number;
  meta?: Record<string, string>;
}

export interface QualityReport {
  template: TemplateVersion;
  photos: PhotoQuality[];
  overall: {
    done: number;
    refused: number;
    meanLandmarkError: number;
    meanPosedLandmarkError: number;
    meanIdentityDistance: number;
    meanHeadSilhouette: number;
    minHeadSilhouette: number;
    meanMouthGap: number;
    maxMouthGap: number;
    meanMouthLift: number;
    maxMouthLift: number;
    verified: number;
    verifiable: number;
    meshValid: number;
    /** Mean CIE76 ΔE of the preview skin colour between photos of the same person, and how many pairs. */
    skinDeltaE: number;
    skinPairs: number;
    /** Each pair's ΔL*, Δa*, Δb* and ΔE on the previews: which channel carries the difference. */
    skinByPair: SkinPair[];
    /** The same over the photos' own skin (photoSkinLab). */
    photoSkinDeltaE: number;
    photoSkinByPair: SkinPair[];
    /** Different people's skin colours apart (skin-colour.ts betweenPersonSpread): mean ΔE between people, SD of their L*. */
    skinSpreadDeltaE: number;
    skinLightnessSd: number;
    /** The cheeks' balance on the front previews (1 = even): mean and lowest. */
    meanCheekBalance: number;
    minCheekBalance: number;
    /** The cheeks' a*b* distance on the front previews (0 = the same colour): mean and highest. */
    meanCheekChroma: number;
    maxCheekChroma: number;
    /** The side views' skin behind the face (sideSkinHue): mean and highest. */
    meanSideSkinHue: number;
    maxSideSkinHue: number;
    /** The skin beside the face against the cheeks (besideFace): mean ΔL* and mean ΔE. */
    meanBesideFaceLightness: number;
    meanBesideFaceDeltaE: number;
    /** The irises' lightness on the previews against the photos' (irisLightness): median, lowest and highest. */
    medianIrisLightness: number;
    minIrisLightness: number;
    maxIrisLightness: number;
    /** The same for the eyes' white (scleraLightness). */
    medianScleraLightness: number;
    minScleraLightness: number;
    maxScleraLightness: number;
    /** The irises' hue against their white on the previews against the photos' (irisTint): mean and largest. */
    meanIrisTint: number;
    maxIrisTint: number;
  };
  goals: typeof GOALS;
}

/** Landmark error and identity distance: means; head silhouette: mean and lowest; mouth gap: on every photo; mouth lift: mean. */
export const GOALS = { landmarkError: 0.04, identityDistance: 0.5, meanHeadSilhouette: 0.9, minHeadSilhouette: 0.8, skinDeltaE: 6, mouthGap: 0.03, mouthLift: 0.03 };
export const RENDER_BACKGROUND: [number, number, number, number] = [128, 128, 128, 255];

/** The avatar drawn with the photo's camera at the analysed photo's size, lit like the preview (RGBA, straight alpha, on `background`). */
async function photoCameraRender(result: PhotoPipelineResult, weights: Record<string, number>, background?: [number, number, number, number]): Promise<RgbaImage> {
  const { width, height } = result.analysis.image;
  const textures = await decodeMaterialTextures(result.model);
  return renderMeshes(modelItems(posedModel(result.model, weights), textures), photoRenderCamera(result.camera, width, height), {
    width,
    height,
    supersample: 2,
    background,
    light: PHOTO_TEXTURE_LIGHT,
  });
}

/**
 * Renders the avatar with the photo's camera at the analysed photo's size (RGB on a grey background, lit like
 * the preview), neutral or with blendshape weights applied.
 */
export async function renderWithPhotoCamera(result: PhotoPipelineResult, weights: Record<string, number> = {}): Promise<RgbImage> {
  const img = await photoCameraRender(result, weights, RENDER_BACKGROUND);
  const rgb = new Uint8Array(img.width * img.height * 3);
  for (let i = 0; i < img.width * img.height; i++) rgb.set(img.rgba.subarray(i * 4, i * 4 + 3), i * 3);
  return { width: img.width, height: img.height, data: rgb };
}

/** The irises' colour and the eyes' white (measureIris, measureSclera; no white where too little shows) at the landmarks `lm`. */
interface EyeColours {
  iris: Rgb;
  white?: Rgb;
}

function eyeColours(img: RgbImage, lm: ArrayLike<number>): EyeColours {
  return { iris: measureIris(img, lm), white: measureSclera(img, lm)?.colour };
}

/** The iris's CIE a*, b* less its eye's white's. */
function againstWhite(iris: Rgb, white: Rgb): [number, number] {
  const [, ia, ib] = srgbToLab(iris);
  const [, wa, wb] = srgbToLab(white);
  return [ia - wa, ib - wb];
}

/**
 * The preview's eyes against the photo's (PhotoQuality's irisLightness, scleraLightness and irisTint), each measured
 * once; NaN where the preview's face was not found, and the white's figures where a white does not show or through
 * glasses.
 */
function eyeFigures(preview: EyeColours | undefined, photo: EyeColours, glasses: boolean): { irisLightness: number; scleraLightness: number; irisTint: number } {
  if (!preview) return { irisLightness: NaN, scleraLightness: NaN, irisTint: NaN };
  const irisLightness = rec601Luma(preview.iris) / rec601Luma(photo.iris);
  if (glasses || !preview.white || !photo.white) return { irisLightness, scleraLightness: NaN, irisTint: NaN };
  const [p, q] = [againstWhite(preview.iris, preview.white), againstWhite(photo.iris, photo.white)];
  return { irisLightness, scleraLightness: rec601Luma(preview.white) / rec601Luma(photo.white), irisTint: Math.hypot(p[0] - q[0], p[1] - q[1]) };
}

/** The landmarks of the largest face detected on an RGB image, or undefined. */
export async function detectLandmarks(img: RgbImage): Promise<Float32Array | undefined> {
  const faces = await detectFaces(img.data, img.width, img.height);
  if (faces.length === 0) return undefined;
  const face = faces.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  return new Float32Array(face.mesh.flat());
}

/** Landmark error of one result, neutral or posed; NaN when no face is found on the render. */
export async function landmarkErrorOf(result: PhotoPipelineResult, weights: Record<string, number> = {}): Promise<number> {
  const lm = await detectLandmarks(await renderWithPhotoCamera(result, weights));
  return lm ? normalisedLandmarkError(result.analysis.landmarks, lm) : NaN;
}

/**
 * Per photo pixel, the person matte against the avatar's alpha (head-silhouette.ts labels). The avatar is drawn
 * with the photo's estimated camera, not taken from the front preview: the preview's perspective (20 degrees at
 * about 1.2 m) and fixed front view make the face larger against the head's outline than in the photo (by some
 * 8 %, and more for a head turned or bowed), which cost the figure about 0.1 on every photo whatever the hair;
 * the landmark error is measured on the same render. The render is aligned on the avatar's own landmarks
 * (avatarLandmarks), not on landmarks detected on it.
 */
export async function headSilhouetteLabelsOf(result: PhotoPipelineResult): Promise<Uint8Array> {
  const img = await photoCameraRender(result, {});
  const alpha = Uint8Array.from({ length: img.width * img.height }, (_, i) => img.rgba[i * 4 + 3]);
  const head = result.model.meshes.find((m) => m.name === 'head')!.geometry.positions;
  return headSilhouetteLabels(result.matte, result.analysis.landmarks, { width: img.width, height: img.height, alpha }, avatarLandmarks(result.camera, head));
}

/** The head-silhouette figure of one result. */
export async function headSilhouetteOf(result: PhotoPipelineResult): Promise<number> {
  return labelsIoU(await headSilhouetteLabelsOf(result));
}

export function headMeshReport(result: PhotoPipelineResult): { report: MeshCheckReport; valid: boolean } {
  const head = result.model.meshes.find((m) => m.name === 'head')!.geometry;
  // The neck cut is the head's one allowed opening: the longest boundary loop.
  const loops = boundaryLoops(head.indices);
  const neck = loops.reduce<number[]>((a, b) => (b.length > a.length ? b : a), []);
  const report = checkMesh(head, { openBoundaries: neck.length ? [neck] : [] });
  const valid =
    report.closed && report.manifold && report.outwardFacing && report.selfIntersections === 0 && report.degenerateTriangles === 0 && report.uvOutOfRange === 0 && report.uvOverlaps === 0;
  return { report, valid };
}

export async function evaluatePhotos(
  pipeline: PhotoPipeline,
  cases: PhotoCase[],
  opts: { template: TemplateVersion; features: Feature[]; onPreview?: (name: string, jpg: Uint8Array) => void },
): Promise<QualityReport> {
  const photos: PhotoQuality[] = [];
  const photoDescriptors = new Map<string, Float32Array | undefined>();
  const renderDescriptors = new Map<string, Float32Array | undefined>();
  for (const c of cases) {
    const input: PipelineInput = { inputType: 'photo', file: c.bytes, template: opts.template, features: opts.features };
    const t0 = performance.now();
    let result: PhotoPipelineResult;
    try {
      result = await pipeline.run(input, () => {});
    } catch (e) {
      if (!(e instanceof PipelineError)) throw e;
      photos.push({ name: c.name, person: c.person, status: 'refused', code: e.code, message: e.message });
      photoDescriptors.set(c.name, await faceDescriptor(await decodeRgb(c.bytes)));
      continue;
    }
    const totalMs = performance.now() - t0;
    opts.onPreview?.(c.name, result.preview.jpg);
    const landmarkError = await landmarkErrorOf(result);
    const posedLandmarkError = await landmarkErrorOf(result, result.expression);
    const photoDesc = await faceDescriptor(result.analysis.image);
    const preview = await decodeRgb(result.preview.jpg);
    const renderDesc = await faceDescriptor(preview);
    const previewLandmarks = await detectLandmarks(preview);
    const mouth = previewLandmarks ? mouthShape(previewLandmarks) : { gap: NaN, lift: NaN };
    photoDescriptors.set(c.name, photoDesc);
    renderDescriptors.set(c.name, renderDesc);
    const head = result.model.meshes.find((m) => m.name === 'head');
    const meshMouth = head ? meshMouthShape(head.geometry.positions, previewCamera(result.model), PREVIEW_SIZE) : { gap: NaN, lift: NaN };
    const mesh = headMeshReport(result);
    const headSilhouette = await headSilhouetteOf(result);
    const skin = await renderedSkin(preview);
    const photoSkin = await renderedSkin(result.analysis.image);
    const sideHue = sideSkinHue(await decodeImage(result.views.side), rgbOfHex(result.meta['skin-tone']));
    const { irisLightness, scleraLightness, irisTint } = eyeFigures(
      previewLandmarks && eyeColours(preview, previewLandmarks),
      eyeColours(result.analysis.image, result.analysis.landmarks),
      result.meta.glasses === 'true',
    );
    photos.push({
      name: c.name,
      person: c.person,
      status: 'done',
      landmarkError,
      posedLandmarkError,
      mouthGap: mouth.gap,
      mouthLift: mouth.lift,
      meshMouthGap: meshMouth.gap,
      meshMouthLift: meshMouth.lift,
      identityDistance: photoDesc && renderDesc ? descriptorDistance(photoDesc, renderDesc) : NaN,
      headSilhouette,
      mesh: mesh.report,
      meshValid: mesh.valid,
      skinLab: skin?.lab,
      cheekBalance: skin?.cheekBalance,
      cheekChroma: skin?.cheekChroma,
      sideSkinHue: sideHue?.mean,
      besideFace: (await modelBesideFace(result.model))?.difference,
      photoSkinLab: photoSkin?.lab,
      irisLightness,
      scleraLightness,
      irisTint,
      totalMs,
      landmarkMs: result.timings.detection,
      segmentationMs: result.timings.segmentation,
      meta: result.meta,
    });
  }
  for (const p of photos) {
    const render = renderDescriptors.get(p.name);
    if (!render || !p.person) continue;
    let same = Infinity;
    let other = Infinity;
    for (const q of cases) {
      const d = photoDescriptors.get(q.name);
      if (q.name === p.name || !d || !q.person || q.person === 'multi') continue;
      const dist = descriptorDistance(render, d);
      if (q.person === p.person) same = Math.min(same, dist);
      else other = Math.min(other, dist);
    }
    p.samePersonDistance = Number.isFinite(same) ? same : undefined;
    p.otherPersonDistance = Number.isFinite(other) ? other : undefined;
    p.verified = Number.isFinite(same) ? same < other : null;
  }
  const done = photos.filter((p) => p.status === 'done');
  const skinPairs = samePersonDeltaE(done.map((p) => ({ name: p.name, person: p.person, lab: p.skinLab })));
  const photoSkinPairs = samePersonDeltaE(done.map((p) => ({ name: p.name, person: p.person, lab: p.photoSkinLab })));
  const skinSpread = betweenPersonSpread(done.map((p) => ({ person: p.person, lab: p.skinLab })));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const max = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);
  const min = (xs: number[]) => (xs.length ? Math.min(...xs) : NaN);
  const irises = done.map((p) => p.irisLightness!).filter((x) => !Number.isNaN(x));
  const scleras = done.map((p) => p.scleraLightness!).filter((x) => !Number.isNaN(x));
  const irisTints = done.map((p) => p.irisTint!).filter((x) => !Number.isNaN(x));
  return {
    template: opts.template,
    photos,
    overall: {
      done: done.length,
      refused: photos.length - done.length,
      meanLandmarkError: mean(done.map((p) => p.landmarkError!)),
      meanPosedLandmarkError: mean(done.map((p) => p.posedLandmarkError!)),
      meanIdentityDistance: mean(done.map((p) => p.identityDistance!)),
      meanHeadSilhouette: mean(done.map((p) => p.headSilhouette!)),
      minHeadSilhouette: done.length ? Math.min(...done.map((p) => p.headSilhouette!)) : NaN,
      meanMouthGap: mean(done.map((p) => p.mouthGap!)),
      maxMouthGap: max(done.map((p) => p.mouthGap!)),
      meanMouthLift: mean(done.map((p) => p.mouthLift!)),
      maxMouthLift: max(done.map((p) => p.mouthLift!)),
      verified: done.filter((p) => p.verified === true).length,
      verifiable: done.filter((p) => p.verified !== null && p.verified !== undefined).length,
      meshValid: done.filter((p) => p.meshValid).length,
      skinDeltaE: skinPairs.mean,
      skinPairs: skinPairs.pairs,
      skinByPair: skinPairs.byPair,
      photoSkinDeltaE: photoSkinPairs.mean,
      photoSkinByPair: photoSkinPairs.byPair,
      skinSpreadDeltaE: skinSpread.meanDeltaE,
      skinLightnessSd: skinSpread.lightnessSd,
      meanCheekBalance: mean(done.map((p) => p.cheekBalance!)),
      minCheekBalance: done.length ? Math.min(...done.map((p) => p.cheekBalance!)) : NaN,
      meanCheekChroma: mean(done.map((p) => p.cheekChroma!)),
      maxCheekChroma: max(done.map((p) => p.cheekChroma!)),
      meanSideSkinHue: mean(done.map((p) => p.sideSkinHue!)),
      maxSideSkinHue: max(done.map((p) => p.sideSkinHue!)),
      meanBesideFaceLightness: mean(done.flatMap((p) => (p.besideFace ? [p.besideFace[0]] : []))),
      meanBesideFaceDeltaE: mean(done.flatMap((p) => (p.besideFace ? [Math.hypot(...p.besideFace)] : []))),
      medianIrisLightness: irises.length ? median(irises) : NaN,
      minIrisLightness: min(irises),
      maxIrisLightness: max(irises),
      medianScleraLightness: scleras.length ? median(scleras) : NaN,
      minScleraLightness: min(scleras),
      maxScleraLightness: max(scleras),
      meanIrisTint: mean(irisTints),
      maxIrisTint: max(irisTints),
    },
    goals: GOALS,
  };
}
