/**
 * Where the identity distance comes from, per photo: the quality tool's descriptor distance (photo against
 * render) for variants of the same avatar, each taking one suspect away. The front preview as the pipeline
 * draws it and without one mesh (the lashes, the hair); the avatar drawn with the photo's own camera (the
 * preview's view taken out), neutral and with the photo's expression put back (the neutral expression taken
 * out); and on that last render, the photo's own pixels put back inside the eyes', the brows' or the lips'
 * contours (grown by EYE_GROW etc. about their centres, as much of the lids and lashes as the photo's eyes
 * carry): what the avatar's version of that feature costs; and inside the eyes' openings (the contours as they are)
 * the photo's irises alone (discs of the landmarks' iris radius, IRIS_GROW larger for the blurred rim) or its eyes'
 * white alone (the rest of the opening). Prints a row per photo and the means.
 *   node --import tsx scripts/identity-variants.ts PHOTO...
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PhotoPipeline, type PhotoPipelineResult } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { PHOTO_TEXTURE_LIGHT } from '../src/pipeline/output.ts';
import { EYE_CONTOURS, BROWS, fillPolygon, landmarkPoint, scaleAboutCentroid } from '../src/pipeline/face/face-regions.ts';
import { modelItems, previewCamera, softItems, PREVIEW_SIZE } from '../src/geometry/render/preview.ts';
import { renderMeshes } from '../src/geometry/render/rasterize.ts';
import { encodePreview } from '../src/formats/write/encode-preview.ts';
import type { RgbImage } from '../src/geometry/texture/rgb-image.ts';
import type { AvatarModel } from '../src/model/avatar.ts';
import { faceDescriptor, descriptorDistance } from '../tools/quality/identity.ts';
import { renderWithPhotoCamera } from '../tools/quality/evaluate.ts';
import { eyePartMask } from '../tools/quality/eye-parts.ts';
import { decodeMaterialTextures, decodeRgb } from '../tools/decode-image.ts';

const photos = process.argv.slice(2);
if (photos.length === 0) {
  console.error('usage: node --import tsx scripts/identity-variants.ts PHOTO...');
  process.exit(2);
}

/** How far each feature's contour is grown about its centre before the photo is put back inside it. */
const EYE_GROW = 1.3;
const BROW_GROW = 1.35;
const LIPS_GROW = 1.15;

/** The front preview as the pipeline draws it (output.ts startPreviews), of the model without the named mesh. */
async function frontWithout(result: PhotoPipelineResult, mesh: string): Promise<RgbImage> {
  const model: AvatarModel = { ...result.model, meshes: result.model.meshes.filter((m) => m.name !== mesh) };
  const items = softItems(modelItems(model, await decodeMaterialTextures(model)));
  const image = renderMeshes(items, previewCamera(model), { width: PREVIEW_SIZE, height: PREVIEW_SIZE, supersample: 2, light: PHOTO_TEXTURE_LIGHT });
  return decodeRgb(await encodePreview(image, 'jpg'));
}

/** Per photo pixel, 1 inside the given landmark loops, each grown by `grow` about its centre. */
function loopMask(result: PhotoPipelineResult, loops: readonly (readonly number[])[], grow: number): Uint8Array {
  const { image, landmarks } = result.analysis;
  const mask = new Uint8Array(image.width * image.height);
  for (const loop of loops) fillPolygon(mask, image.width, image.height, scaleAboutCentroid(loop.map((i) => landmarkPoint(landmarks, i)), grow));
  return mask;
}


/** `render` (the photo's size) with the photo's pixels where `mask` is set. */
function withPhotoInside(render: RgbImage, result: PhotoPipelineResult, mask: Uint8Array): RgbImage {
  const { image } = result.analysis;
  const data = render.data.slice();
  for (let i = 0; i < mask.length; i++) if (mask[i]) data.set(image.data.subarray(i * 3, i * 3 + 3), i * 3);
  return { ...render, data };
}

const VARIANTS = ['preview', 'no lashes', 'no hair', 'photo camera', '+ expression', '+ photo eyes', '+ photo irises', '+ photo whites', '+ photo brows', '+ photo lips'] as const;
type Variant = (typeof VARIANTS)[number];

const pipeline = new PhotoPipeline(loadTemplateView);
const lipsOuter = loadTemplateView('2.0').source.loops.lipsOuter;
const rows: Record<Variant, number>[] = [];
/** Each variant's column: wide enough for the longest name. */
const COLUMN = 16;
console.log('photo'.padEnd(14), VARIANTS.map((v) => v.padStart(COLUMN)).join(''));
for (const file of photos) {
  const result = await pipeline.run({ inputType: 'photo', file: readFileSync(file), template: '2.0', features: ['basic', 'expressions', 'visemes'] }, () => {});
  const photo = await faceDescriptor(result.analysis.image);
  const posed = await renderWithPhotoCamera(result, result.expression);
  const { image, landmarks } = result.analysis;
  const images: Record<Variant, () => Promise<RgbImage>> = {
    preview: () => decodeRgb(result.preview.jpg),
    'no lashes': () => frontWithout(result, 'eyelashes'),
    'no hair': () => frontWithout(result, 'hair'),
    'photo camera': () => renderWithPhotoCamera(result),
    '+ expression': async () => posed,
    '+ photo eyes': async () => withPhotoInside(posed, result, loopMask(result, EYE_CONTOURS, EYE_GROW)),
    '+ photo irises': async () => withPhotoInside(posed, result, eyePartMask(image.width, image.height, landmarks, 'irises')),
    '+ photo whites': async () => withPhotoInside(posed, result, eyePartMask(image.width, image.height, landmarks, 'whites')),
    '+ photo brows': async () => withPhotoInside(posed, result, loopMask(result, BROWS, BROW_GROW)),
    '+ photo lips': async () => withPhotoInside(posed, result, loopMask(result, [lipsOuter], LIPS_GROW)),
  };
  const row = {} as Record<Variant, number>;
  for (const v of VARIANTS) {
    const d = await faceDescriptor(await images[v]());
    row[v] = photo && d ? descriptorDistance(photo, d) : NaN;
  }
  rows.push(row);
  console.log(path.basename(file).padEnd(14), VARIANTS.map((v) => row[v].toFixed(3).padStart(COLUMN)).join(''));
}
const mean = (v: Variant) => rows.reduce((s, r) => s + r[v], 0) / rows.length;
console.log('mean'.padEnd(14), VARIANTS.map((v) => mean(v).toFixed(4).padStart(COLUMN)).join(''));
