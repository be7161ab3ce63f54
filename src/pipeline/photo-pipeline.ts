/**
 * The photo pipeline: face analysis -> fitting (expression and identity) -> textures -> (expressions) -> assembly -> preview.
 * The avatar is the neutral face: the photo's expression is fitted, reported and taken out; the photo is
 * sampled with the expression-posed fit, so that its lips and corners land on the neutral's.
 * Implements the Pipeline contract the service's worker calls.
 */
import type { AvatarModel, MeshData, TemplateVersion, Texture } from '../model/avatar.ts';
import type { Pipeline, PipelineInput, PipelineResult, ProgressFn } from './types.ts';
import { PipelineCodes, PipelineError } from './errors.ts';
import { LID_REST, restLids, stageClock, supportsMeta } from './stages.ts';
import {
  filesHere,
  photoPrepHere,
  renderHere,
  shapesHere,
  type FilesSource,
  type PhotoPrepSource,
  type RenderSource,
  type ShapeSource,
} from './helper-thread.ts';
import { assemble, fitRig, startPreviews } from './output.ts';
import { imagesInSharedMemory, ReusedSharedMemory } from './shared-memory.ts';
import { modelFileClaims } from '../formats/write/packages.ts';
import { encodeAvatarTextures, PART_ALPHA_TEXTURES } from './part-textures.ts';
import { placeBoundParts } from '../geometry/template/bound-parts.ts';
import { surfaceMaps } from './surface-maps.ts';
import { bakeHeadTextures, type HeadTextures } from './head-textures.ts';
import { analyseFace, type FaceAnalysis } from './face/analyse.ts';
import { outlineOnPerson } from './face/outline-on-person.ts';
import { faceSpot, subjectMatte } from './face/subject-matte.ts';
import { mirrorPartners } from './face/mirror-reading.ts';
import type { TemplateView } from './template-view.ts';
import { applySimilarityInPlace, fitHeadAndPosed, type FitSource, type FittedHead } from '../geometry/fit/fit-head.ts';
import { closeMouth, describeExpression, expressionBasis, expressionMotion, fitExpression } from '../geometry/fit/fit-expression.ts';
import { untangle } from '../geometry/fit/untangle.ts';
import { vertexNormals } from '../geometry/mesh/normals.ts';
import { CREASING_SHAPES } from '../geometry/texture/expression-creases.ts';
import { estimatePersonMatte, type PersonMatte } from './face/person-matte.ts';
import { personAboveFace, rollAsUploaded } from './face/photo-orientation.ts';
import type { HairObservation } from './hair/observation.ts';
import { chooseHairstyle, type StyleScore } from './hair/choose.ts';
import { hairLibrary, HAIR_MARGIN } from '../geometry/hair/library.ts';
import { avatarWarp, fitHair } from '../geometry/hair/fit-hair.ts';
import { tintHair } from '../geometry/hair/strand-texture.ts';
import { capUnderHair, hairCover } from '../geometry/hair/hair-cover.ts';
import { HAIR_TEXTURE } from './output.ts';
import type { Rgb } from '../geometry/texture/bake-parts.ts';
import type { PhotoCamera } from '../geometry/texture/photo-camera.ts';

/** What a run produces beyond the contract: the analysis and per-stage times (for the quality tool and bench). */
export interface PhotoPipelineResult extends PipelineResult {
  analysis: FaceAnalysis;
  /** The subject's share of the photo's person matte (subject-matte.ts), and what it shows of the hair. */
  matte: PersonMatte;
  hair: HairObservation;
  /** The hairstyle chosen for it (none for a bald head), with every style's score. */
  hairChoice?: { style: string; scores: StyleScore[] };
  camera: PhotoCamera;
  /** The photo's expression: weight of each fitted ARKit shape (the avatar itself is neutral). */
  expression: Record<string, number>;
  timings: Record<string, number>;
  /** CPU time of the process per stage (ms), see stageClock. */
  cpuTimings: Record<string, number>;
}

export class PhotoPipeline implements Pipeline {
  private readonly imageMemory = new ReusedSharedMemory();
  /** The head's albedo is baked into the last avatar's, given back with the other images (ReusedSharedMemory). */
  private readonly albedoMemory = new ReusedSharedMemory();

  /**
   * `helper` does the photo-only work (photo-prep.ts), builds the blendshapes, draws the side views and writes the
   * packages' FBX and Unity JSON; a HelperThread does it while this thread fits the head, fits the hair and bakes
   * the textures, draws the front view, and (for the FBX and the Unity JSON) while the caller puts the packages together.
   */
  constructor(
    private readonly template: (version: TemplateVersion) => TemplateView,
    private readonly helper: { photo: PhotoPrepSource; shapes: ShapeSource; render: RenderSource; files: FilesSource } = {
      photo: photoPrepHere,
      shapes: shapesHere,
      render: renderHere,
      files: filesHere,
    },
  ) {}

  async run(input: PipelineInput, progress: ProgressFn): Promise<PhotoPipelineResult> {
    if (input.inputType !== 'photo') {
      throw new PipelineError(
        PipelineCodes.inputTypeUnsupported,
        `input type ${input.inputType} is not supported by this pipeline yet; upload a photo`,
      );
    }
    const { timings, cpuTimings, lap } = stageClock(progress);

    const tpl = this.template(input.template);
    const head = tpl.meshes[0];
    const { analysis, matte: everyone, segmentationMs } = await analyseUpright(input.file, tpl.canonicalFace);
    timings.detection = analysis.detectionMs;
    timings.segmentation = segmentationMs;
    // Everything read off the matte from here on is the subject's: no one beside them is hair or skin of theirs.
    const matte = subjectMatte(everyone, faceSpot(analysis.landmarks), analysis.otherFaces);
    // The fit's landmarks: an outline the landmark model put on the background takes the other side's, mirrored.
    const headLandmarks = outlineOnPerson(analysis.landmarks, analysis.headLandmarks, matte, mirrorPartners(tpl.canonicalFace));
    // What needs only the photo is made beside the fitting (on the helper thread, or here when first awaited). Its
    // times are taken where it runs: `hair-observation` and `photo-textures` (not in this thread's laps when on the helper).
    const prep = this.helper.photo(tpl, { image: analysis.image, landmarks: analysis.landmarks, cmPerPixel: analysis.cmPerPixel, matte });
    prep.hair.catch(() => undefined); // awaited below; this only keeps a failure before then from counting as unhandled
    prep.textures.catch(() => undefined);
    lap('face-analysis', 20);

    const source: FitSource = {
      head: head.geometry.positions,
      indices: head.geometry.indices,
      parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions])),
      eyes: tpl.eyes,
      openingPairs: tpl.openingPairs,
      ears: tpl.ears,
    };
    const expression = fitExpression(expressionBasis(tpl.source), head.geometry.positions, headLandmarks);
    // The head as the photo shows it, expression and all, is fitted with it (no parts: only the texture needs it).
    const [fitted, posed] = fitHeadAndPosed(source, { landmarks: expression.neutral }, { landmarks: headLandmarks });
    // The fit can fold the face anywhere (p04-a turned 12 degrees: beside the nose, 2 cm from the eye); what follows only
    // next to the openings.
    untangle(fitted.head, safeShape(head.geometry.positions, fitted), head.geometry.indices, tpl.faceTriangles);
    // Closing can fold the skin where the lips meet at the corners: those spots open again as far as needed.
    const open = fitted.head.slice();
    fitted.head.set(closeMouth(tpl.source, fitted));
    untangle(fitted.head, open, head.geometry.indices, tpl.foldProne);
    // The lashes, corneas, tear lines and caruncles ride on the finished lids and eyeballs.
    Object.assign(fitted.parts, placeBoundParts(tpl.source, { head: fitted.head, eyeLeft: fitted.parts.eyeLeft, eyeRight: fitted.parts.eyeRight }));
    const geometries = tpl.meshes.map((m, i): MeshData => {
      const positions = i === 0 ? fitted.head : fitted.parts[m.name];
      return { positions, normals: vertexNormals(positions, m.geometry.indices), uvs: m.geometry.uvs, indices: m.geometry.indices };
    });
    // The blendshapes need only the fitted geometry: started now (before the posed head is untangled, which only
    // the texture needs), awaited at the assembly.
    const shaping = this.helper.shapes(tpl, { head: fitted.head, parts: fitted.parts }, input.features, LID_REST);
    shaping.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    // The photo is sampled with the posed head and written to the same UVs, which un-warps the photo onto the neutral.
    untangle(posed.head, safeShape(head.geometry.positions, posed), head.geometry.indices, tpl.foldProne);
    const posedHead: MeshData = { ...geometries[0], positions: posed.head, normals: vertexNormals(posed.head, head.geometry.indices) };
    lap('fitting', 35);

    const camera: PhotoCamera = {
      rotation: analysis.pose.rotation,
      pixelsPerCm: 1 / analysis.cmPerPixel,
      translation: analysis.pose.translation,
    };
    const { result: hair, ms: hairMs } = await prep.hair;
    timings['hair-observation'] = hairMs;
    const library = hairLibrary(tpl.source, tpl.hairCoverage);
    const avatarHead = { positions: fitted.head, indices: head.geometry.indices };
    const choice = chooseHairstyle({
      library,
      observation: hair,
      matte,
      camera,
      landmarks: analysis.landmarks,
      place: (p) => placeBySimilarity(p, fitted),
      warp: avatarWarp(library.warp, head.geometry.positions, fitted.head),
      avatar: avatarHead,
    });
    const hairMesh = choice && fitHair(library, choice.style, choice.positions, choice.centre, fitted.head, HAIR_MARGIN);
    lap('hair', 40);

    const { result: photoTextures, ms: photoTexturesMs } = await prep.textures;
    timings['photo-textures'] = photoTexturesMs;
    const albedoMemory = this.albedoMemory.lend();
    const hairTree = hairMesh && choice.style.tree.refit(hairMesh.geometry.positions);
    // Without a hair mesh the cap stands for the hair; with one, it is the scalp seen between its cards.
    const cap = hairTree ? capUnderHair(tpl.hairCoverage, fitted.head, geometries[0].normals, tpl.headNeighbours, hairTree) : tpl.hairCoverage;
    const textures = bakeHeadTextures(tpl, {
      posedHead,
      prep: photoTextures,
      camera,
      hair,
      allocate: albedoMemory.allocate,
      eyes: Object.values(fitted.eyes),
      hairOver: hairTree && hairCover(fitted.head, hairTree),
      cap,
      motion: expressionMotion(expressionBasis(tpl.source), expression.weights, CREASING_SHAPES),
    });
    prep.done();
    if (hairMesh) textures.images.set(HAIR_TEXTURE, tintHair(textures.hairColours));
    // In shared memory (the template's already are): the helper draws the side views from them without a copy. The
    // memory is the last avatar's, given back once the views are drawn and the textures encoded (ReusedSharedMemory).
    const imageMemory = this.imageMemory.lend();
    textures.images = imagesInSharedMemory(textures.images, imageMemory.allocate);
    // PNG encoding runs on sharp's threads while the expressions and the preview are computed here.
    const encoding = encodeAvatarTextures(tpl, textures.images, new Set([HAIR_TEXTURE, ...PART_ALPHA_TEXTURES]));
    encoding.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    lap('textures', 45);

    // While the helper finishes the shapes. Resting the lids (below) moves nothing round the mouth, where the jaw's
    // weights are cleared.
    const rig = fitRig(tpl, fitted, fitted.head);
    const {
      shapes: { morphs, animations, rest },
      ms: shapesMs,
      release,
    } = await shaping;
    // The neutral's upper lids where the photo's are: below its lash line (LID_REST).
    restLids(tpl, geometries, rest);
    // The lap is the wait for them; their own time beside it (on the other thread when they ran there).
    timings['expressions-build'] = shapesMs;
    lap('expressions', 60);

    // The PBR maps are the template's, baked and encoded once for all its avatars.
    const maps = surfaceMaps(tpl);
    const images = new Map([...textures.images, ...maps.images]);
    const model = assemble(tpl, geometries, rig, images, morphs, hairMesh);
    model.animations = animations;
    lap('assembly', 65);

    const previews = startPreviews(model, images, this.helper.render);
    // Asked after the side views, so that the helper draws them first, and before the front is drawn here, so that
    // it goes on to them while this thread draws; the textures by name, in the order they will have.
    const names = [...images].map(([name, image]): Texture => ({ name, mimeType: 'image/png', width: image.width, height: image.height, data: new Uint8Array(0) }));
    const claims = modelFileClaims();
    const modelFiles = input.platforms && this.helper.files(tpl, { ...model, textures: names }, input.platforms, claims);
    modelFiles?.catch(() => undefined); // awaited by the caller; this only keeps an early failure from counting as unhandled
    const { preview, views } = await previews.front();
    model.textures = [...(await encoding), ...(await maps.textures)];
    imageMemory.giveBack();
    albedoMemory.giveBack();
    if (model.textures.some((t, k) => t.name !== names[k]?.name)) throw new Error('the textures are not in the order the model files were written with');
    lap('preview', 95);

    return {
      model,
      preview,
      views,
      meta: {
        ...pipelineMeta(input, model, analysis, { ...textures, hair }),
        hairstyle: choice?.style.style.name ?? 'none',
        'photo-expression': describeExpression(expression.expression) || 'none',
      },
      modelFiles,
      modelFileClaims: claims,
      release,
      deformation: {
        template: head.geometry.positions,
        avatar: fitted.head,
        indices: head.geometry.indices,
      },
      analysis,
      matte,
      hair,
      hairChoice: choice && { style: choice.style.style.name, scores: choice.scores },
      camera,
      expression: expression.expression,
      timings,
      cpuTimings,
    };
  }

}

/** Points (in place) under the fit's similarity. */
function placeBySimilarity(points: Float32Array, fitted: FittedHead): Float32Array {
  return applySimilarityInPlace(fitted.global, points);
}

/** The template under the fit's similarity: the same size and pose as the avatar, and free of folds. */
function safeShape(template: Float32Array, fitted: FittedHead): Float32Array {
  return placeBySimilarity(new Float32Array(template), fitted);
}

function hex(c: Rgb): string {
  return '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
}

/**
 * The face analysis and the person matte of a photo. Where the person lies above the face as read (personAboveFace:
 * the photo is upside down, and the model read the face upright all the same), the photo is read again turned half
 * round, and that reading is taken if the person lies below its face.
 */
async function analyseUpright(file: Uint8Array, canonical: ArrayLike<number>): Promise<{ analysis: FaceAnalysis; matte: PersonMatte; segmentationMs: number }> {
  const analysis = await analyseFace(file, canonical);
  let start = performance.now();
  const matte = await estimatePersonMatte(analysis.image);
  let segmentationMs = performance.now() - start;
  if (!personAboveFace(analysis.landmarks, matte)) return { analysis, matte, segmentationMs };
  // A refusal of the turned reading leaves the photo's own.
  const turned = await analyseFace(file, canonical, true).catch((e: unknown) => {
    if (e instanceof PipelineError) return undefined;
    throw e;
  });
  if (!turned) return { analysis, matte, segmentationMs };
  start = performance.now();
  const turnedMatte = await estimatePersonMatte(turned.image);
  segmentationMs += performance.now() - start;
  turned.detectionMs += analysis.detectionMs;
  return personAboveFace(turned.landmarks, turnedMatte) ? { analysis, matte, segmentationMs } : { analysis: turned, matte: turnedMatte, segmentationMs };
}

function pipelineMeta(
  input: PipelineInput,
  model: AvatarModel,
  a: FaceAnalysis,
  t: HeadTextures & { hair: HairObservation },
): Record<string, string> {
  const s = a.originalScale;
  // The roll as the photo was uploaded, before the turns and the levelling that stood its face upright (the box is so already).
  return {
    ...supportsMeta(input.template, model),
    'face-count': String(a.faceCount),
    'face-box': a.faceBox.map((v) => Math.round(v * s)).join(','),
    'head-pose': [a.pose.yaw, a.pose.pitch, rollAsUploaded(a.orientation, a.pose.roll)].map((v) => v.toFixed(1)).join(','),
    'skin-tone': hex(t.skin),
    'iris-colour': hex(t.iris),
    'hair-colour': t.hair.length === 'none' ? 'none' : hex(t.hairColours.base),
    glasses: String(t.glasses),
    light: `${t.light.direction.map((v) => v.toFixed(2)).join(',')} ${hex(t.light.colour)}`,
    exposure: a.exposure.toFixed(2),
  };
}
