/**
 * The photo pipeline: face analysis -> fitting -> textures -> (expressions) -> assembly -> preview.
 * Implements the Pipeline contract the service's worker calls.
 */
import sharp from 'sharp';
import type { AvatarMesh, AvatarModel, Material, MeshData, MorphTarget, Texture, TemplateVersion } from '../model/avatar.ts';
import type { Pipeline, PipelineInput, PipelineResult, ProgressFn } from './types.ts';
import { PipelineCodes, PipelineError } from './errors.ts';
import { featureShapes, stageClock, supportsMeta } from './stages.ts';
import { analyseFace, type FaceAnalysis } from './face/analyse.ts';
import { landmarkModel } from './face/landmark-model.ts';
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X, irisDiameterPx } from './face/pose.ts';
import type { TemplateView } from './template-view.ts';
import { loadTemplateView } from './template-source.ts';
import { applySimilarity, fitHead, type FittedHead } from '../geometry/fit/fit-head.ts';
import { untangle } from '../geometry/fit/untangle.ts';
import { fitBones } from '../geometry/fit/fit-bones.ts';
import { vertexNormals } from '../geometry/mesh/normals.ts';
import { bakeAlbedo, measureSkinTone } from '../geometry/texture/bake-albedo.ts';
import { sampleHairColour } from './hair.ts';
import {
  bakeEyeTexture,
  bakeSolidTexture,
  sampleIrisColour,
  MOUTH_INSIDE_COLOUR,
  EYE_SOCKET_COLOUR,
  TEETH_COLOUR,
  TONGUE_COLOUR,
  type Rgb,
} from '../geometry/texture/bake-parts.ts';
import { visibleFromPhoto, type PhotoCamera } from '../geometry/texture/photo-camera.ts';
import { modelItems, previewCamera, PREVIEW_SIZE } from '../geometry/render/preview.ts';
import { renderMeshes } from '../geometry/render/rasterize.ts';
import type { LightRig } from '../geometry/render/lighting.ts';
import { encodePreview } from '../geometry/render/encode-preview.ts';
import { runMeshPipeline } from './mesh/mesh-pipeline.ts';
import type { RgbaImage } from '../geometry/render/image.ts';

/** Landmarks sitting on plain skin (cheeks, forehead, chin) where the skin tone is measured. */
const SKIN_SAMPLE_LANDMARKS = [50, 280, 101, 330, 151, 9, 108, 337, 199, 205, 425];
const PART_TEXTURE_SIZE = 256;
const PNG_OPTIONS = { compressionLevel: 4, adaptiveFiltering: false } as const;

/** What a run produces beyond the contract: the analysis and per-stage times (for the quality tool and bench). */
export interface PhotoPipelineResult extends PipelineResult {
  analysis: FaceAnalysis;
  camera: PhotoCamera;
  timings: Record<string, number>;
}

export class PhotoPipeline implements Pipeline {
  constructor(private readonly template: (version: TemplateVersion) => TemplateView) {}

  async run(input: PipelineInput, progress: ProgressFn): Promise<PhotoPipelineResult> {
    if (input.inputType !== 'photo') {
      throw new PipelineError(
        PipelineCodes.inputTypeUnsupported,
        `input type ${input.inputType} is not supported by this pipeline yet; upload a photo`,
      );
    }
    const { timings, lap } = stageClock(progress);

    const tpl = this.template(input.template);
    const head = tpl.meshes[0];
    const analysis = await analyseFace(input.file, head.geometry.positions.subarray(0, FACE_POINTS * 3));
    timings.detection = analysis.detectionMs;
    lap('face-analysis', 20);

    const fitted = fitHead(
      {
        head: head.geometry.positions,
        indices: head.geometry.indices,
        parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions])),
        eyes: tpl.eyes,
        openingPairs: tpl.openingPairs,
      },
      { landmarks: analysis.headLandmarks },
    );
    untangle(fitted.head, safeShape(head.geometry.positions, fitted), head.geometry.indices, tpl.foldProne);
    const geometries = tpl.meshes.map((m, i): MeshData => {
      const positions = i === 0 ? fitted.head : fitted.parts[m.name];
      return { positions, normals: vertexNormals(positions, m.geometry.indices), uvs: m.geometry.uvs, indices: m.geometry.indices };
    });
    lap('fitting', 35);

    const camera: PhotoCamera = {
      rotation: analysis.pose.rotation,
      pixelsPerCm: 1 / analysis.cmPerPixel,
      translation: analysis.pose.translation,
    };
    const textures = this.bakeTextures(tpl, geometries[0], analysis, camera);
    // PNG encoding runs on sharp's threads while the expressions and the preview are computed here.
    const encoding = encodeTextures(textures.images);
    encoding.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    lap('textures', 45);

    const { morphs, animations } = featureShapes(tpl, { head: fitted.head, parts: fitted.parts }, input.features);
    lap('expressions', 60);

    const model = assemble(tpl, geometries, fitted, textures.images, morphs);
    model.animations = animations;
    lap('assembly', 65);

    const preview = await renderAndEncodePreview(model, textures.images);
    const encoded = await encoding;
    model.textures = encoded;
    lap('preview', 95);

    return {
      model,
      preview,
      meta: pipelineMeta(input, model, analysis, textures),
      deformation: {
        template: head.geometry.positions,
        avatar: fitted.head,
        indices: head.geometry.indices,
      },
      analysis,
      camera,
      timings,
    };
  }

  private bakeTextures(tpl: TemplateView, headGeometry: MeshData, analysis: FaceAnalysis, camera: PhotoCamera) {
    const lm = analysis.landmarks;
    const skin = measureSkinTone(
      analysis.image,
      SKIN_SAMPLE_LANDMARKS.map((i) => [lm[i * 3], lm[i * 3 + 1]]),
      Math.max(2, Math.round(camera.pixelsPerCm * 0.4)),
    );
    const hair = sampleHairColour(analysis.image, lm, skin);
    const albedo = bakeAlbedo({
      size: tpl.textureSize,
      positions: headGeometry.positions,
      normals: headGeometry.normals,
      uvs: headGeometry.uvs,
      indices: headGeometry.indices,
      photo: analysis.image,
      camera,
      faceOval: tpl.faceOval,
      skin,
      visible: visibleFromPhoto(camera, analysis.image, headGeometry),
      hair: hair && { coverage: tpl.hairCoverage, colour: hair },
      fixed: [
        { vertices: tpl.mouthInside, colour: MOUTH_INSIDE_COLOUR },
        { vertices: tpl.eyeSockets, colour: EYE_SOCKET_COLOUR },
      ],
    });
    const irisRadius = irisDiameterPx(lm) / 2;
    const iris = sampleIrisColour(
      analysis.image,
      [IRIS_PLUS_X, IRIS_MINUS_X].map((c) => ({ x: lm[c * 3], y: lm[c * 3 + 1], r: irisRadius })),
    );
    const eye = bakeEyeTexture(PART_TEXTURE_SIZE, tpl.irisUv, iris);
    const images = new Map<string, RgbaImage>();
    images.set('head_baseColor.png', { width: tpl.textureSize, height: tpl.textureSize, rgba: albedo.rgba });
    for (const m of tpl.meshes.slice(1)) {
      const rgba =
        m.name in tpl.eyes
          ? eye
          : bakeSolidTexture(PART_TEXTURE_SIZE, m.name.startsWith('tongue') ? TONGUE_COLOUR : TEETH_COLOUR, 0.06);
      images.set(`${m.name}_baseColor.png`, { width: PART_TEXTURE_SIZE, height: PART_TEXTURE_SIZE, rgba });
    }
    return { images, skin, iris, hair };
  }
}

/** The template under the fit's similarity: the same size and pose as the avatar, and free of folds. */
function safeShape(template: Float32Array, fitted: FittedHead): Float32Array {
  const out = new Float32Array(template.length);
  for (let i = 0; i < template.length; i += 3) out.set(applySimilarity(fitted.global, template[i], template[i + 1], template[i + 2]), i);
  return out;
}

export function assemble(
  tpl: TemplateView,
  geometries: MeshData[],
  fitted: FittedHead,
  images: Map<string, RgbaImage>,
  morphs: Partial<Record<string, MorphTarget[]>> | undefined,
): AvatarModel {
  const materials: Material[] = [];
  const meshes: AvatarMesh[] = tpl.meshes.map((m, i) => {
    const texture = `${m.name}_baseColor.png`;
    materials.push({
      name: m.name,
      baseColorFactor: [1, 1, 1, 1],
      baseColorTexture: images.has(texture) ? texture : undefined,
      roughness: m.name in tpl.eyes ? 0.15 : m.name === 'teeth' ? 0.35 : 0.6,
      metallic: 0,
      alphaMode: 'OPAQUE',
    });
    return { name: m.name, geometry: geometries[i], material: m.name, skin: m.skin, morphs: morphs?.[m.name] ?? [] };
  });
  return {
    name: 'avatar',
    template: tpl.version,
    meshes,
    bones: fitBones(tpl.bones, fitted),
    materials,
    textures: [],
    animations: [],
  };
}

export async function encodeTextures(images: Map<string, RgbaImage>): Promise<Texture[]> {
  return Promise.all(
    [...images].map(async ([name, img]) => {
      const png = await sharp(img.rgba, { raw: { width: img.width, height: img.height, channels: 4 } })
        .removeAlpha()
        .png(PNG_OPTIONS)
        .toBuffer();
      return { name, mimeType: 'image/png' as const, width: img.width, height: img.height, data: new Uint8Array(png.buffer, png.byteOffset, png.length) };
    }),
  );
}

/**
 * The preview's light: mostly ambient with a soft frontal key. The albedo is taken from a photo and already
 * carries that photo's shading; the studio rig's strong side light would shade the face a second time and
 * measurably hurts how much the render looks like the person (identity distance 0.53 -> 0.46 on six test photos).
 */
export const PHOTO_TEXTURE_LIGHT: LightRig = {
  ambient: 0.6,
  lights: [{ direction: [-0.2, -0.3, -0.93], intensity: 0.45 }],
  rim: 0.1,
};

export async function renderAndEncodePreview(model: AvatarModel, images: Map<string, RgbaImage>) {
  const render = renderMeshes(modelItems(model, images), previewCamera(model), {
    width: PREVIEW_SIZE,
    height: PREVIEW_SIZE,
    supersample: 2,
    light: PHOTO_TEXTURE_LIGHT,
  });
  const [jpg, png] = await Promise.all([encodePreview(render, 'jpg'), encodePreview(render, 'png')]);
  return { jpg, png };
}

function hex(c: Rgb): string {
  return '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
}

function pipelineMeta(input: PipelineInput, model: AvatarModel, a: FaceAnalysis, t: { skin: Rgb; iris: Rgb; hair?: Rgb }): Record<string, string> {
  const s = a.originalScale;
  const [x, y, w, h] = a.faceBox;
  return {
    ...supportsMeta(input.template, model),
    'face-count': String(a.faceCount),
    'face-box': [x, y, w, h].map((v) => Math.round(v * s)).join(','),
    'head-pose': [a.pose.yaw, a.pose.pitch, a.pose.roll].map((v) => v.toFixed(1)).join(','),
    'skin-tone': hex(t.skin),
    'iris-colour': hex(t.iris),
    'hair-colour': t.hair ? hex(t.hair) : 'none',
  };
}

/** The pipeline the service's worker uses; loads the landmark model up front so the first job is not slower. */
export async function createPipeline(): Promise<Pipeline> {
  await landmarkModel();
  const photo = new PhotoPipeline(loadTemplateView);
  return {
    run: (input, progress) => (input.inputType === 'photo' ? photo.run(input, progress) : runMeshPipeline(input, progress, loadTemplateView)),
  };
}
