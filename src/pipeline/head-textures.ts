/**
 * The photo avatar's own textures: the head's albedo baked from the photo, un-warped through the expression-posed head
 * onto the template's UVs and cleaned on the way (the light divided out, the expression's creases eased, the lids'
 * lashes taken off), and the eyes' and mouth parts' images. The photo-side work it starts from (white balance, glasses,
 * lips' repair, eye texture) is done before, on the helper thread (photo-prep.ts).
 */
import type { MeshData } from '../model/avatar.ts';
import type { TemplateView } from './template-view.ts';
import type { PhotoTexturePrep } from './photo-prep.ts';
import type { SharedAllocator } from './shared-memory.ts';
import { partTextures } from './part-textures.ts';
import type { HairObservation } from './hair/observation.ts';
import type { EyeRest } from '../geometry/fit/fit-head.ts';
import { bakeAlbedo } from '../geometry/texture/bake-albedo.ts';
import { easeExpressionCreases } from '../geometry/texture/expression-creases.ts';
import { removeLidStreaks } from '../geometry/texture/lid-streaks.ts';
import { addSkinGrain, grainShare, photoGrain } from '../geometry/texture/skin-grain.ts';
import { hiddenByEyeballs, socketOutOfSight } from '../geometry/texture/socket-in-photo.ts';
import { blinkReach } from '../geometry/expressions/blink-reach.ts';
import { hairRootColour } from '../geometry/hair/strand-texture.ts';
import type { HairCover } from '../geometry/hair/hair-cover.ts';
import { MOUTH_INSIDE_COLOUR, EYE_SOCKET_COLOUR, type Rgb } from '../geometry/texture/bake-parts.ts';
import { projectPoints, visibleFromPhoto, type PhotoCamera } from '../geometry/texture/photo-camera.ts';
import { applyGains } from '../geometry/texture/white-balance.ts';
import type { RgbImage } from '../geometry/texture/rgb-image.ts';
import { estimatePhotoLight, type PhotoLight } from '../geometry/texture/photo-light.ts';
import { gainRepairedLipsAsSeen } from '../geometry/texture/repaired-lip-gain.ts';
import type { RgbaImage } from '../geometry/render/image.ts';

/**
 * Half of the photo's side light is divided out of the albedo (in the exponent): all of it made the renders less
 * like their photos (identity distance of p12-a 0.458 -> 0.517, p11-a 0.457 -> 0.550); half: 0.494, 0.508.
 */
const SIDE_LIGHT_REMOVED = 0.5;
/**
 * What that leaves of the difference between the face's two sides is divided out (side-light.ts): p11-a's far
 * cheek kept the photo's side light (the cheeks' balance on its preview 0.50).
 */
const SIDES_EVENED = 1;

/** Face points on plain skin (the cheeks, left and right, upper and lower) where the photo's grain is measured. */
const GRAIN_PATCHES = [50, 280, 205, 425];

/** What the bake needs beside the template. */
export interface HeadTextureInput {
  /** The head posed as the photo shows it, expression and all: the photo is sampled through it. */
  posedHead: MeshData;
  prep: PhotoTexturePrep;
  camera: PhotoCamera;
  hair: HairObservation;
  /** Where the albedo's atlas is allocated (shared memory the side views are drawn from without a copy). */
  allocate: SharedAllocator;
  /** The fitted eyeballs: the sockets the photo saw past them. */
  eyes: EyeRest[];
  /** Where the fitted hair mesh lies over the head, if there is one. */
  hairOver: HairCover | undefined;
  /** Per head vertex, how much the hair cap covers it. */
  cap: Float32Array;
  /** Per face point (468), how far the fitted expression's creasing shapes moved it (cm; expressionMotion). */
  motion: Float32Array;
}

/** The head's albedo and the parts' images, with the colours and the light the meta reports. */
export interface HeadTextures {
  images: Map<string, RgbaImage>;
  /** The skin tone under white light. */
  skin: Rgb;
  iris: Rgb;
  /** The hair seen in the photo, under the same white light as the skin. */
  hairColours: { base: Rgb; dark: Rgb; light: Rgb };
  glasses: boolean;
  light: PhotoLight & { colour: Rgb };
}

export function bakeHeadTextures(tpl: TemplateView, input: HeadTextureInput): HeadTextures {
  const { posedHead, prep, camera, hair, allocate, eyes, hairOver, cap, motion } = input;
  const { features, balance, person } = prep;
  const photo = thisThreadsImage(prep.photo);
  const skin = applyGains(prep.photoSkin, balance.gains);
  // The hair seen in the photo, under the same white light as the skin.
  const hairColours = {
    base: applyGains(hair.colour.base, balance.gains),
    dark: applyGains(hair.colour.dark, balance.gains),
    light: applyGains(hair.colour.light, balance.gains),
  };
  const visible = visibleFromPhoto(camera, photo, posedHead);
  const light = estimatePhotoLight({
    positions: posedHead.positions,
    normals: posedHead.normals,
    photo,
    camera,
    faceOval: tpl.faceOval,
    visible,
    features,
    matte: person,
    gains: balance.gains,
    skin: prep.photoSkin,
    sideLight: SIDE_LIGHT_REMOVED,
    evenSides: SIDES_EVENED,
  });
  gainRepairedLipsAsSeen(light.vertexGain, projectPoints(camera, posedHead.positions), prep.lipPixels, photo.width, visible);
  const albedo = bakeAlbedo({
    size: tpl.textureSize,
    positions: posedHead.positions,
    normals: posedHead.normals,
    uvs: posedHead.uvs,
    indices: posedHead.indices,
    // The photo's expression was taken out of the shape; its creases come out of the skin.
    photo: easeExpressionCreases(thisThreadsImage(prep.lipsPhoto), {
      points: projectPoints(camera, posedHead.positions.subarray(0, motion.length * 3)),
      motion,
      features,
      skin: prep.photoSkin,
      pixelsPerCm: camera.pixelsPerCm,
    }),
    camera,
    faceOval: tpl.faceOval,
    neck: tpl.neckFront,
    skin,
    visible: hiddenByEyeballs(visible, tpl.eyeSockets, posedHead.positions, camera, eyes),
    lips: { contour: tpl.lipsOuter, colour: prep.lipColour },
    // The scalp takes the roots' colour: between the cards and at the parting, the skin reads as roots.
    hair: hair.bald ? undefined : { coverage: cap, colour: hairRootColour(hairColours.base) },
    hairOver,
    fixed: [
      { vertices: tpl.mouthInside, colour: MOUTH_INSIDE_COLOUR },
      { vertices: socketOutOfSight(tpl.eyeSockets, posedHead.positions, eyes), colour: EYE_SOCKET_COLOUR },
    ],
    photoGain: light.vertexGain,
    matte: person,
    highlights: { skin, features },
    // Where the textures go next (imagesInSharedMemory keeps it): no copy of the atlas.
    out: new Uint8Array(allocate(tpl.textureSize * tpl.textureSize * 4), 0, tpl.textureSize * tpl.textureSize * 4),
  });
  // The photo's lashes painted on the upper lids would streak a closed eye (lid-streaks.ts).
  removeLidStreaks({ rgba: albedo.rgba, size: tpl.textureSize, uvs: posedHead.uvs, indices: posedHead.indices, reach: blinkReach(tpl.source) });
  // The skin filled in beside the face takes the photo's grain (skin-grain.ts).
  const { positions, uvs, indices } = posedHead;
  addSkinGrain({
    rgba: albedo.rgba,
    size: tpl.textureSize,
    uvs,
    indices,
    share: grainShare(positions, tpl.faceOval, albedo.photoWeight, cap, [...tpl.mouthInside, ...tpl.eyeSockets]),
    grain: photoGrain(albedo.rgba, tpl.textureSize, positions, uvs, albedo.photoWeight, GRAIN_PATCHES),
  });
  const images = new Map<string, RgbaImage>();
  images.set('head_baseColor.png', { width: tpl.textureSize, height: tpl.textureSize, rgba: albedo.rgba });
  // Here, not with the eye texture on the helper: the other parts' images are this thread's template's own, which
  // their encoding (done once per process) is found by.
  for (const [name, image] of partTextures(tpl, prep.eye)) images.set(name, image);
  return { images, skin, iris: prep.iris, hairColours, glasses: prep.glasses, light: { ...light, colour: balance.light } };
}

/**
 * The image as a literal of this thread. Read out of the helper's answer, an image has a hidden class that dies with
 * the avatar: the light's and the bake's loops, which check it, were compiled again on every avatar.
 */
function thisThreadsImage(image: RgbImage): RgbImage {
  return { width: image.width, height: image.height, data: image.data };
}
