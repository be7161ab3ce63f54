/**
 * The head-mesh pipeline (`lofimesh_texture`, `hifimesh_texture_photo`): scan -> landmarks on a render ->
 * registration of the template (landmarks, then closest-point fit) -> texture transfer -> the photo
 * path's expressions, assembly and preview. The result has the template's topology like a photo avatar.
 */
import type { MeshData, TemplateVersion } from '../../model/avatar.ts';
import { vertexNormals } from '../../geometry/mesh/normals.ts';
import type { Rgb } from '../../geometry/texture/rgb-image.ts';
import type { MeshInputType } from '../../model/product.ts';
import type { PipelineInput, PipelineResult, ProgressFn } from '../types.ts';
import { PipelineCodes, PipelineError } from '../errors.ts';
import { LID_REST, featureShapes, restLids, stageClock, supportsMeta } from '../stages.ts';
import { analyseFace } from '../face/analyse.ts';
import { FACE_POINTS } from '../face/pose.ts';
import type { TemplateView } from '../template-view.ts';
import { assemble, fitRig, startPreviews } from '../output.ts';
import { encodeAvatarTextures, PART_ALPHA_TEXTURES } from '../part-textures.ts';
import { placeBoundParts } from '../../geometry/template/bound-parts.ts';
import { loadScan, type Scan } from './scan.ts';
import { findScanLandmarks, type ScanLandmarks } from './scan-landmarks.ts';
import { applyMat3, fitSimilarity, transposeMat3 } from '../../geometry/fit/similarity.ts';
import { registerScan, type Registration } from './register-scan.ts';
import { bakeMeshTextures, type EyeSource } from './mesh-textures.ts';

/** What a run produces beyond the contract: the registration (for tests) and per-stage times (for the bench). */
export interface MeshPipelineResult extends PipelineResult {
  registration: Registration;
  scan: Scan;
  timings: Record<string, number>;
}

export async function runMeshPipeline(
  input: PipelineInput,
  progress: ProgressFn,
  template: (version: TemplateVersion) => TemplateView,
): Promise<MeshPipelineResult> {
  const type = meshType(input.inputType);
  const { timings, lap } = stageClock(progress);

  const scan = await loadScan(type, input.file);
  lap('read', 10);
  const tpl = template(input.template);
  const canonical = tpl.canonicalFace;
  const found = await faceTheCamera(scan, canonical);
  // hifimesh: the photo (eyes open) gives the lids and irises their shape and the eye region its colours.
  const photo = scan.photo ? await analyseFace(scan.photo, canonical) : undefined;
  lap('face-analysis', 20);

  const registration = registerScan(tpl, scan.geometry, found.points, photo?.headLandmarks);
  const { fitted, head } = registration;
  // The lashes, corneas, tear lines and caruncles ride on the fitted lids and eyeballs.
  Object.assign(fitted.parts, placeBoundParts(tpl.source, { head, eyeLeft: fitted.parts.eyeLeft, eyeRight: fitted.parts.eyeRight }));
  const geometries = tpl.meshes.map((m, i): MeshData => {
    const positions = i === 0 ? head : fitted.parts[m.name];
    return { positions, normals: vertexNormals(positions, m.geometry.indices), uvs: m.geometry.uvs, indices: m.geometry.indices };
  });
  lap('fitting', 35);

  // The photo's lids rest as in the photo path (after the bake below, which samples the photo with the fitted lids).
  const { morphs, animations, rest } = featureShapes(tpl, { head, parts: fitted.parts }, input.features, undefined, photo ? LID_REST : 0);
  lap('expressions', 45);

  const eyes: EyeSource = photo ? { kind: 'photo', analysis: photo } : { kind: 'render', image: found.render, landmarks: found.image };
  const textures = bakeMeshTextures(
    tpl,
    geometries[0],
    { bvh: registration.scanBvh, indices: registration.scan.indices, uvs: registration.scan.uvs, texture: scan.texture },
    { image: found.render, landmarks: found.image },
    eyes,
  );
  lap('textures', 55);

  restLids(tpl, geometries, rest);
  const model = assemble(tpl, geometries, fitRig(tpl, fitted, geometries[0].positions), textures.images, morphs);
  model.animations = animations;
  lap('assembly', 65);

  const [encoded, { preview, views }] = await Promise.all([encodeAvatarTextures(tpl, textures.images, PART_ALPHA_TEXTURES), startPreviews(model, textures.images).front()]);
  model.textures = encoded;
  lap('preview', 95);

  const meta: Record<string, string> = {
    ...supportsMeta(input.template, model),
    'mesh-unit': scan.unit,
    'mesh-orientation': `up=${vector(scan.orientation.up)};front=${vector(scan.orientation.front)}`,
    'mesh-triangles': String(scan.geometry.indices.length / 3),
    'skin-tone': hex(textures.skin),
    'iris-colour': hex(textures.iris),
  };
  return {
    model,
    preview,
    views,
    meta,
    deformation: { template: tpl.meshes[0].geometry.positions, avatar: head, indices: tpl.meshes[0].geometry.indices },
    registration,
    scan,
    timings,
  };
}

/** The landmark model is most accurate on a face seen from the front. */
const MAX_VIEW_TURN_DEG = 4;

/**
 * Finds the landmarks; when the face turned out not to look straight at the camera (the shape-based
 * orientation is only rough), the scan is turned to face it (in place) and the landmarks found again.
 */
async function faceTheCamera(scan: Scan, canonical: Float32Array): Promise<ScanLandmarks> {
  const first = await findScanLandmarks(scan.geometry, scan.texture);
  const found = Uint32Array.from({ length: FACE_POINTS }, (_, i) => i).filter((i) => Number.isFinite(first.points[i * 3]));
  const r = fitSimilarity(canonical, first.points, found).rotation;
  const turnDeg = (Math.acos(Math.max(-1, Math.min(1, (r[0] + r[4] + r[8] - 1) / 2))) * 180) / Math.PI;
  if (turnDeg <= MAX_VIEW_TURN_DEG) return first;
  const rt = transposeMat3(r);
  for (const xyz of [scan.geometry.positions, scan.geometry.normals]) {
    for (let i = 0; i < xyz.length; i += 3) xyz.set(applyMat3(rt, xyz[i], xyz[i + 1], xyz[i + 2]), i);
  }
  return findScanLandmarks(scan.geometry, scan.texture);
}

function meshType(type: PipelineInput['inputType']): MeshInputType {
  if (type === 'photo') throw new PipelineError(PipelineCodes.internal, 'the mesh pipeline was given a photo');
  return type;
}

const vector = (v: readonly number[]) => v.map((x) => x.toFixed(3)).join(',');
const hex = (c: Rgb) => '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
