/**
 * The last stages both inputs (photo and head mesh) share: the AvatarModel assembled from the fitted
 * geometry, its textures encoded, and the preview rendered under the photo-texture light.
 */
import type { AvatarMesh, AvatarModel, Bone, Material, MeshData, MorphTarget, Skin } from '../model/avatar.ts';
import type { TemplateView } from './template-view.ts';
import { surfaceMapName } from './surface-maps.ts';
import type { PipelineResult } from './types.ts';
import type { FittedHead } from '../geometry/fit/fit-head.ts';
import { fitBones, worldPositions } from '../geometry/fit/fit-bones.ts';
import { clearJawSkin } from '../geometry/fit/jaw-skin.ts';
import { BONE } from '../geometry/template/types.ts';
import { modelItems, previewCamera, softItems, PREVIEW_SIZE, type PreviewView } from '../geometry/render/preview.ts';
import { renderMeshes } from '../geometry/render/rasterize.ts';
import type { LightRig } from '../geometry/render/lighting.ts';
import { encodePreview } from '../formats/write/encode-preview.ts';
import type { RgbaImage } from '../geometry/render/image.ts';
import { renderHere, type RenderSource } from './helper-thread.ts';

/** The hair mesh, its material and its texture (colour with coverage in alpha). */
export const HAIR_MESH = 'hair';
export const HAIR_TEXTURE = `${HAIR_MESH}_baseColor.png`;
/** Coverage below which a hair texel is not drawn (MASK): low enough to keep the strands' thin tips. */
const HAIR_ALPHA_CUTOFF = 0.35;

/**
 * The eye's clear and fine parts. The cornea: a glossy film of low opacity over the iris (alpha blend,
 * which three.js, Blender and Unity all draw; KHR_materials_transmission is not read everywhere); its
 * darkness keeps the iris's colour and lets the highlight show. The tear line: a wet, faintly pink film.
 * The lashes: cards with coverage in alpha, seen from both sides, MASK like the hair (no sorting).
 */
const PART_MATERIALS: Partial<Record<string, Partial<Material>>> = {
  cornea: { baseColorFactor: [0.02, 0.02, 0.02, 0.18], alphaMode: 'BLEND', roughness: 0.03 },
  tearLine: { baseColorFactor: [0.8, 0.6, 0.6, 0.4], alphaMode: 'BLEND', roughness: 0.05 },
  eyelashes: { alphaMode: 'MASK', alphaCutoff: 0.3, doubleSided: true, roughness: 0.6 },
  caruncle: { roughness: 0.3 },
};

/** The rig fitted to an avatar: its skeleton, and its head's skin (the template's unless its jaw's weights were cleared). */
export interface FittedRig {
  bones: Bone[];
  headSkin: Skin;
}

/** The skeleton moved with the fit, and the jaw's weights cleared where the jaw bone would fold the neutral `head` (clearJawSkin). */
export function fitRig(tpl: TemplateView, fitted: FittedHead, head: ArrayLike<number>): FittedRig {
  const bones = fitBones(tpl.bones, fitted);
  const pivot = worldPositions(bones).subarray(3 * BONE.jaw, 3 * BONE.jaw + 3);
  const headSkin = clearJawSkin(head, tpl.meshes[0].skin, { bone: BONE.jaw, head: BONE.head, pivot: [pivot[0], pivot[1], pivot[2]] }, tpl.jawArea);
  return { bones, headSkin };
}

export function assemble(
  tpl: TemplateView,
  geometries: MeshData[],
  rig: FittedRig,
  images: Map<string, RgbaImage>,
  morphs: Partial<Record<string, MorphTarget[]>> | undefined,
  hair?: { geometry: MeshData; skin: Skin },
): AvatarModel {
  const materials: Material[] = [];
  const meshes: AvatarMesh[] = tpl.meshes.map((m, i) => {
    const texture = (name: string) => (images.has(name) ? name : undefined);
    const roughnessMap = texture(surfaceMapName(m.name, 'metallicRoughness'));
    materials.push({
      name: m.name,
      baseColorFactor: [1, 1, 1, 1],
      baseColorTexture: texture(`${m.name}_baseColor.png`),
      normalTexture: texture(surfaceMapName(m.name, 'normal')),
      occlusionTexture: texture(surfaceMapName(m.name, 'occlusion')),
      metallicRoughnessTexture: roughnessMap,
      // The map holds the roughness itself where there is one.
      roughness: roughnessMap ? 1 : m.name in tpl.eyes ? 0.15 : m.name === 'teeth' ? 0.35 : 0.6,
      metallic: 0,
      alphaMode: 'OPAQUE',
      ...PART_MATERIALS[m.name],
    });
    return { name: m.name, geometry: geometries[i], material: m.name, skin: i === 0 ? rig.headSkin : m.skin, morphs: morphs?.[m.name] ?? [] };
  });
  if (hair) {
    // Cards with coverage in alpha, seen from both sides; MASK rather than BLEND so that every viewer
    // draws them right without sorting the cards.
    materials.push({
      name: HAIR_MESH,
      baseColorFactor: [1, 1, 1, 1],
      baseColorTexture: HAIR_TEXTURE,
      // The hair's base volume is a smooth dome: less rough, it would show one plastic highlight instead of a sheen.
      roughness: 0.7,
      metallic: 0,
      alphaMode: 'MASK',
      alphaCutoff: HAIR_ALPHA_CUTOFF,
      doubleSided: true,
    });
    meshes.push({ name: HAIR_MESH, geometry: hair.geometry, material: HAIR_MESH, skin: hair.skin, morphs: [] });
  }
  return {
    name: 'avatar',
    template: tpl.version,
    meshes,
    bones: rig.bones,
    materials,
    textures: [],
    animations: [],
  };
}

/**
 * The preview's light: mostly ambient with a soft frontal key. The albedo is taken from a photo and already
 * carries that photo's shading; the studio rig's strong side light would shade the face a second time and
 * measurably hurts how much the render looks like the person (identity distance 0.53 -> 0.46 on six test photos).
 * Highlights at a quarter for the same reason: the photo's own shine is in the skin's albedo. At full strength
 * the key's highlight on the skin cost identity (0.428 -> 0.436 over 18 test photos; at a quarter 0.430), while
 * the eyes, smooth enough to saturate, keep their catchlights.
 */
export const PHOTO_TEXTURE_LIGHT: LightRig = {
  ambient: 0.6,
  lights: [{ direction: [-0.2, -0.3, -0.93], intensity: 0.45 }],
  rim: 0.1,
  specular: 0.25,
};

/** Size of the views in the packages: a thumbnail an asset browser shows, a quarter of the preview's pixels. */
export const PACKAGE_VIEW_SIZE = 512;

/**
 * The API's preview (the front view, JPEG and PNG) and the packages' views (PNG, transparent). The side
 * views are asked of `renderViews` at once (a helper thread's: it draws them while this thread draws the
 * front); the front is drawn when `front` is called, so that the caller can ask the helper for more work
 * in between. Each render is encoded on sharp's threads as soon as it is drawn; the front package view is
 * the preview scaled down.
 */
export function startPreviews(
  model: AvatarModel,
  images: Map<string, RgbaImage>,
  renderViews: RenderSource = renderHere,
): { front(): Promise<Pick<PipelineResult, 'preview' | 'views'>> } {
  const items = softItems(modelItems(model, images));
  const view = (v: PreviewView, size: number) => ({
    camera: previewCamera(model, v),
    opts: { width: size, height: size, supersample: 2 as const, light: PHOTO_TEXTURE_LIGHT },
  });
  const sides = renderViews(items, [view('side', PACKAGE_VIEW_SIZE), view('threeQuarter', PACKAGE_VIEW_SIZE)]).then((drawn) =>
    Promise.all(drawn.map((image) => encodePreview(image, 'png'))),
  );
  sides.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
  return {
    async front() {
      const { camera, opts } = view('front', PREVIEW_SIZE);
      const front = renderMeshes(items, camera, opts);
      const [jpg, png, frontView] = await Promise.all([encodePreview(front, 'jpg'), encodePreview(front, 'png'), encodePreview(front, 'png', { size: PACKAGE_VIEW_SIZE })]);
      const [side, threeQuarter] = await sides;
      return { preview: { jpg, png }, views: { front: frontView, side, threeQuarter } };
    },
  };
}
