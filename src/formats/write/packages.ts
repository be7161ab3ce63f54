import { crc32 } from 'node:zlib';
import type { AvatarModel } from '../../model/avatar.ts';
import type { Platform } from '../../model/product.ts';
import type { PreviewView } from '../../geometry/render/preview.ts';
import { channelMapTextures } from './fbx/channel-maps.ts';
import { writeFbx } from './fbx/write.ts';
import { writeGlbParts } from './gltf.ts';
import { materialState } from './material-state.ts';
import { writeObj } from './obj-write.ts';
import { buildRig } from './rig-json.ts';
import { writeUnityJson } from './unity-json.ts';
import { crcOfParts, preparedEntry, preparedEntryOffThread, recurringEntry, writeZip, zipParts, type PartsEntry, type ZipEntry } from './zip-write.ts';

/** File names inside the packages (docs/FORMATS.md lists the layouts). */
export const PACKAGE_FILES = {
  fbx: 'avatar_model.fbx',
  glb: 'avatar_model.glb',
  unityJson: 'avatar_model.json',
  rig: 'avatar_rig.json',
  materialState: 'material_state.json',
  templateNeutral: 'template_neutral.obj',
  /** Renders of the avatar beside the model in every package (PNG, transparent). */
  views: { front: 'preview_front.png', threeQuarter: 'preview_three_quarter.png', side: 'preview_side.png' } satisfies Record<PreviewView, string>,
} as const;

/** What the packages carry besides the model: the template's neutral head (maya) and the views' PNGs (all). */
export interface PackageExtras {
  /** The same array for every avatar of a template (it is compressed once per array). */
  templateNeutralObj: Uint8Array;
  views: Record<PreviewView, Uint8Array>;
  /** The model's files, when already written (or being written, on another thread): see writeModelFiles. */
  modelFiles?: ModelFiles | Promise<ModelFiles>;
  /** With files being written elsewhere: those the other thread has not taken yet are written here instead of awaited. */
  modelFileClaims?: ModelFileClaims;
}

/** The model files of the packages that take longest to write: the FBX (maya, webviewer) and the Unity JSON, ready to zip. */
export interface ModelFiles {
  fbx?: Uint8Array;
  unityJson?: Required<ZipEntry>;
}

const needsFbx = (platforms: readonly Platform[]) => platforms.some((p) => p === 'maya' || p === 'webviewer');

/**
 * Which model files a thread has taken to write, one flag per file in shared memory: two threads that share
 * the writing of an avatar's files each write those they take first, so neither waits while the other still
 * has several to write.
 */
export type ModelFileClaims = Int32Array;
const CLAIM_SLOT: Record<keyof ModelFiles, number> = { fbx: 0, unityJson: 1 };
export const modelFileClaims = (): ModelFileClaims => new Int32Array(new SharedArrayBuffer(4 * Object.keys(CLAIM_SLOT).length));
const take = (claims: ModelFileClaims | undefined, file: keyof ModelFiles) => !claims || Atomics.compareExchange(claims, CLAIM_SLOT[file], 0, 1) === 0;

/**
 * The model files the packages of these platforms need (with `claims`, those no other thread has taken). Model
 * textures are read by name only, so this can run before the textures are encoded (with the names in their final order).
 */
export function writeModelFiles(model: AvatarModel, platforms: readonly Platform[], claims?: ModelFileClaims): ModelFiles {
  return {
    ...(needsFbx(platforms) && take(claims, 'fbx') ? { fbx: writeFbx(model) } : {}),
    ...(platforms.includes('unity') && take(claims, 'unityJson') ? { unityJson: preparedEntry(PACKAGE_FILES.unityJson, writeUnityJson(model)) } : {}),
  };
}

/** The Unity JSON's entry written on this thread, its zip body deflated on libuv's pool (the same bytes as preparedEntry). */
const unityJsonEntry = (model: AvatarModel): Promise<Required<ZipEntry>> => preparedEntryOffThread(PACKAGE_FILES.unityJson, writeUnityJson(model));

const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value, null, 1));

/** An entry whose CRC is computed once for every package that carries it (the views, textures, FBX and its maps). */
const shared = (name: string, data: Uint8Array): ZipEntry => ({ name, data, crc: crc32(data) });

/**
 * Download packages as zip bytes, one per platform asked for; the FBX is written once when both
 * `maya` and `webviewer` are asked for. Pure: writing them atomically and building them once per
 * avatar is the caller's job.
 */
export async function buildPackages(model: AvatarModel, platforms: readonly Platform[], extras: PackageExtras): Promise<Map<Platform, Uint8Array>> {
  const started = startPackages(model, platforms, extras);
  const out = new Map<Platform, Uint8Array>();
  for (const [p, zip] of started) out.set(p, Buffer.concat(await zip));
  return out;
}

/**
 * The packages of buildPackages, each settled as soon as it is made, so that a caller can store one while the
 * next is made, as the parts of its archive in order (zipParts: stored as they are, not copied into one array
 * first). This thread's own work comes first: the GLB, then the FBX and the Unity JSON if no other thread
 * has taken them (the Unity JSON's deflate then runs on libuv's pool while this thread goes on); the packages
 * that need model files written elsewhere are zipped when those arrive.
 */
export function startPackages(model: AvatarModel, platforms: readonly Platform[], extras: PackageExtras): Map<Platform, Promise<Uint8Array[]>> {
  const f = PACKAGE_FILES;
  const claims = extras.modelFileClaims;
  // The images every package carries: the views and the textures.
  const images: ZipEntry[] = [
    ...Object.entries(f.views).map(([view, name]) => shared(name, extras.views[view as PreviewView])),
    ...model.textures.map((t) => shared(t.name, t.data)),
  ];
  // The FBX's grey maps encode on sharp's threads while the model files are written.
  const withFbx = needsFbx(platforms);
  const maps = withFbx ? channelMapTextures(model).then((t) => t.map((m) => shared(m.name, m.data))) : Promise.resolve([]);
  // The GLB as its parts: stored in the zip as they are (10 MB, most of it the textures, not joined first).
  const glbFile = platforms.includes('webviewer') ? writeGlbParts(model) : undefined;
  const glb: PartsEntry | undefined = glbFile && { name: f.glb, parts: glbFile, crc: crcOfParts(glbFile) };
  // Once the GLB is written, the model files no other thread has taken, in writeModelFiles' order (the GLB's
  // temporaries are then garbage before the Unity JSON's are made; the other thread has had time to take more).
  const fbx = withFbx
    ? (async () => {
        const data = (claims && take(claims, 'fbx') ? writeFbx(model) : undefined) ?? (await extras.modelFiles)?.fbx ?? writeFbx(model);
        return shared(f.fbx, data);
      })()
    : undefined;
  const unityHere = claims && platforms.includes('unity') && take(claims, 'unityJson') ? unityJsonEntry(model) : undefined;
  const unity = async (): Promise<ZipEntry> => (await unityHere) ?? (await extras.modelFiles)?.unityJson ?? { name: f.unityJson, data: writeUnityJson(model) };
  const build = async (platform: Platform): Promise<Uint8Array[]> => {
    switch (platform) {
      case 'maya':
        return zipParts([
          await fbx!,
          ...(await maps),
          ...images,
          { name: f.materialState, data: json(materialState(model)) },
          recurringEntry(f.templateNeutral, extras.templateNeutralObj),
        ]);
      case 'webviewer':
        return zipParts([
          await fbx!,
          ...(await maps),
          { name: f.rig, data: json(buildRig(model, { glb: f.glb, fbx: f.fbx })) },
          glb!,
          ...images,
        ]);
      case 'unity':
        return zipParts([await unity(), ...images]);
    }
  };
  const out = new Map(platforms.map((p) => [p, build(p)] as const));
  // Awaited by the caller; these only keep an early failure from counting as unhandled.
  for (const p of [maps, fbx, unityHere, ...out.values()]) p?.catch(() => undefined);
  return out;
}

/** The download package of one platform (see buildPackages). */
export async function buildPackage(model: AvatarModel, platform: Platform, extras: PackageExtras): Promise<Uint8Array> {
  return (await buildPackages(model, [platform], extras)).get(platform)!;
}

/**
 * execute/blendshapes: `neutral.obj` and `<blendshape>.obj` per blendshape of the head (the
 * mesh with morphs; `head` when several have): same vertex order, faces and UVs. An avatar with hair
 * also gets `neutral_hair.obj`, the hair mesh as it sits on the neutral head (it has no blendshapes). No normals:
 * every file then carries only what the shapes share or move, and tools recompute them alike.
 */
/** The hair mesh of the blendshape zip (not a blendshape, hence not `hair.obj`). */
export const NEUTRAL_HAIR_OBJ = 'neutral_hair.obj';

export function buildBlendshapeZip(model: AvatarModel): Uint8Array {
  const withMorphs = model.meshes.filter((m) => m.morphs.length > 0);
  const head = withMorphs.find((m) => m.name === 'head') ?? withMorphs[0];
  if (!head) throw new Error('the avatar has no blendshapes');
  const hair = model.meshes.find((m) => m.name === 'hair');
  const g = head.geometry;
  return writeZip([
    { name: 'neutral.obj', data: writeObj({ positions: g.positions, uvs: g.uvs, indices: g.indices }, { name: 'neutral' }) },
    ...(hair ? [{ name: NEUTRAL_HAIR_OBJ, data: writeObj({ positions: hair.geometry.positions, uvs: hair.geometry.uvs, indices: hair.geometry.indices }, { name: 'hair' }) }] : []),
    ...head.morphs.map((morph) => {
      const shape = { positions: g.positions.map((p, k) => p + morph.deltas[k]), uvs: g.uvs, indices: g.indices };
      // Blendshape names become file names: keep them to safe characters.
      return { name: `${morph.name.replace(/[^\w@.-]/g, '_')}.obj`, data: writeObj(shape, { name: morph.name }) };
    }),
  ]);
}
