/**
 * Observes what each blendshape does: the avatar is rendered from the front with the shape at weight 1,
 * the 478 landmarks are detected on the render, and mouth, eye, brow, iris, nose and cheek measures are
 * compared with the neutral render's (in eye-centre distances, y up, x towards the subject's left).
 * Lips and lids are also checked on the posed mesh itself: the detector cannot see them cross.
 */
import type { AvatarModel, Vec3 } from '../../src/model/avatar.ts';
import type { Camera } from '../../src/geometry/render/camera.ts';
import type { RgbaImage } from '../../src/geometry/render/image.ts';
import { firstTriangleIds, renderMeshes, renderTriangleIds } from '../../src/geometry/render/rasterize.ts';
import { modelItems } from '../../src/geometry/render/preview.ts';
import type { LightRig } from '../../src/geometry/render/lighting.ts';
import { decodeMaterialTextures } from '../decode-image.ts';
import { posedModel } from '../posed-model.ts';
import { detectFaces } from '../../src/pipeline/face/landmark-model.ts';
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X } from '../../src/pipeline/face/pose.ts';
import { PHOTO_TEXTURE_LIGHT } from '../../src/pipeline/output.ts';
import { buildTemplate } from '../../src/pipeline/head-template.ts';
import { MADE_ON } from '../../src/geometry/expressions/arkit.ts';
import { rec601Luma } from '../../src/geometry/render/srgb.ts';

export const OBSERVE_SIZE = 768;
const FOV = 20;
/** Free space around the face landmarks, as a fraction of their half extent. */
const MARGIN = 1.25;
const BACKGROUND: [number, number, number, number] = [128, 128, 128, 255];
/**
 * The preview's light without its highlights: they are not the shape, and a catchlight on the eye
 * moves the detector's eye contour by more than its noise (eyeBlinkRight read 0.05 short on p03-a).
 */
const OBSERVE_LIGHT: LightRig = { ...PHOTO_TEXTURE_LIGHT, specular: 0 };

/** Landmark indices (canonical face mesh), per side of the subject. */
const SIDES = {
  left: {
    corner: 291, upperLip: 267, lowerLip: 314, lidUp: 386, lidDown: 374, eyeIn: 362, eyeOut: 263, iris: IRIS_PLUS_X,
    browIn: [285, 336], browOut: [276, 300], wing: 358, cheek: 425,
    eyeContour: [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
  },
  right: {
    corner: 61, upperLip: 37, lowerLip: 84, lidUp: 159, lidDown: 145, eyeIn: 133, eyeOut: 33, iris: IRIS_MINUS_X,
    browIn: [55, 107], browOut: [46, 70], wing: 129, cheek: 205,
    eyeContour: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  },
} as const;
export type SideName = keyof typeof SIDES;
const LIP = { upperInner: 13, lowerInner: 14, upperOuter: 0, lowerOuter: 17 };
const OUTER_LIPS = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];

/**
 * Shapes observed on top of another at weight 1 rather than on the neutral, as they are made and used (arkit.ts's
 * MADE_ON): ARKit's mouthClose acts with jawOpen (alone, it pushes the neutral's closed lips into each other).
 */
const OBSERVED_ON: Readonly<Partial<Record<string, string>>> = MADE_ON;

/** Measures of one render, in eye-centre distances of the neutral render; y up; x towards the subject's left (+X). */
export interface FaceMeasures {
  /** Inner lip gap at the centre (upper inner lip above lower inner lip). */
  mouthOpen: number;
  /** Outer lip height at the centre and width corner to corner. */
  mouthHeight: number;
  mouthWidth: number;
  /** Sideways position of the mouth (corners' midpoint) and of the lower lip's centre (jaw shifts). */
  mouthX: number;
  lowerLipX: number;
  cornerHeight: Record<SideName, number>;
  /** How far out the corner is from the face's middle (the eye corners' midpoint). */
  cornerOut: Record<SideName, number>;
  /** Heights of the upper and lower lip's outer edge half way to each corner. */
  upperLip: Record<SideName, number>;
  lowerLip: Record<SideName, number>;
  eyeOpen: Record<SideName, number>;
  browInner: Record<SideName, number>;
  browOuter: Record<SideName, number>;
  /** Iris (seen in the pixels) along the eye's corner line, 0 at the inner corner, 1 at the outer. */
  irisOut: Record<SideName, number>;
  /** Iris height above the corners' middle. */
  irisUp: Record<SideName, number>;
  noseWidth: number;
  cheekHeight: Record<SideName, number>;
}

/** Mean absolute change of the render's pixels (0..255, RGB) per face region. */
export interface RegionChange {
  mouth: number;
  eyeLeft: number;
  eyeRight: number;
  cheekLeft: number;
  cheekRight: number;
  /** Everything in the face's box outside the regions above. */
  rest: number;
  /** The face's box on the subject's left (image right) and right of the eyes' midpoint. */
  halfLeft: number;
  halfRight: number;
}

/** Signed gaps on the posed head mesh at the centre (cm / eye-centre distance): negative means crossed. */
export interface MeshGaps {
  lips: number;
  lidsLeft: number;
  lidsRight: number;
}

export interface ShapeObservation {
  name: string;
  /** The shape it was observed on top of (its expectation's `on`): change, pixels and gaps are against that pose. */
  base?: { name: string; gaps: MeshGaps };
  /** False when no face was found on the render (then `change` is undefined). */
  detected: boolean;
  /** Shape minus neutral. */
  change?: FaceMeasures;
  measures?: FaceMeasures;
  pixels: RegionChange;
  gaps: MeshGaps;
  /** The render (for the contact sheet). */
  render: RgbaImage;
}

export interface ObservedAvatar {
  neutral: { measures: FaceMeasures; render: RgbaImage; gaps: MeshGaps };
  shapes: ShapeObservation[];
}

/** Observes the given shapes (default: every blendshape of the model) against the neutral avatar. */
export async function observeShapes(model: AvatarModel, names?: readonly string[]): Promise<ObservedAvatar> {
  const textures = await decodeMaterialTextures(model);
  const head = model.meshes.find((m) => m.name === 'head');
  if (!head) throw new RangeError('observeShapes: the model has no head mesh');
  const { leftEye, rightEye, lipsInner } = buildTemplate(model.template).loops;
  const gapLoops: GapLoops = { left: leftEye, right: rightEye, lips: lipsInner };
  const camera = faceCamera(head.geometry.positions);
  // Each pose is made once (morphs added, normals recomputed) and read by its render, its eyeball pixels and its gaps.
  const render = (posed: AvatarModel) => renderMeshes(modelItems(posed, textures), camera, {
    width: OBSERVE_SIZE,
    height: OBSERVE_SIZE,
    supersample: 2,
    background: BACKGROUND,
    light: OBSERVE_LIGHT,
  });
  const neutralPose = posedModel(model, {});
  const neutralRender = render(neutralPose);
  const neutralPoints = await landmarksOf(neutralRender);
  if (!neutralPoints) throw new Error('observeShapes: no face found on the neutral render');
  const eyes = Math.hypot(neutralPoints[IRIS_PLUS_X * 3] - neutralPoints[IRIS_MINUS_X * 3], neutralPoints[IRIS_PLUS_X * 3 + 1] - neutralPoints[IRIS_MINUS_X * 3 + 1]);
  // Where an eye shows no eyeball (closed), its iris is taken to lie between the neutral render's eye corners.
  const between = (s: (typeof SIDES)[SideName]): Point => [
    (neutralPoints[3 * s.eyeIn] + neutralPoints[3 * s.eyeOut]) / 2,
    (neutralPoints[3 * s.eyeIn + 1] + neutralPoints[3 * s.eyeOut + 1]) / 2,
  ];
  const irises = (img: RgbaImage, posed: AvatarModel) => {
    const seen = eyeballPixels(posed, camera);
    return { left: irisCentre(img, seen.left, between(SIDES.left)), right: irisCentre(img, seen.right, between(SIDES.right)) };
  };
  const neutral = measure(neutralPoints, eyes, irises(neutralRender, neutralPose), neutralPoints);
  const regions = faceRegions(neutralPoints, eyes);
  const all = names ?? head.morphs.map((m) => m.name);
  const bases = new Map<string, { render: RgbaImage; measures?: FaceMeasures; gaps: MeshGaps }>();
  const baseOf = async (name: string) => {
    if (!bases.has(name)) {
      const posed = posedModel(model, { [name]: 1 });
      const img = render(posed);
      const points = await landmarksOf(img);
      bases.set(name, { render: img, measures: points && measure(points, eyes, irises(img, posed), neutralPoints), gaps: meshGaps(headPositions(posed), gapLoops) });
    }
    return bases.get(name)!;
  };
  const shapes: ShapeObservation[] = [];
  for (const name of all) {
    const on = OBSERVED_ON[name];
    const base = on ? await baseOf(on) : { render: neutralRender, measures: neutral, gaps: undefined };
    const weights = on ? { [on]: 1, [name]: 1 } : { [name]: 1 };
    const posed = posedModel(model, weights);
    const img = render(posed);
    const points = await landmarksOf(img);
    const measures = points ? measure(points, eyes, irises(img, posed), neutralPoints) : undefined;
    shapes.push({
      name,
      base: on && base.gaps ? { name: on, gaps: base.gaps } : undefined,
      detected: !!measures && !!base.measures,
      measures,
      change: measures && base.measures && difference(measures, base.measures),
      pixels: regionChange(base.render, img, regions),
      gaps: meshGaps(headPositions(posed), gapLoops),
      render: img,
    });
  }
  return { neutral: { measures: neutral, render: neutralRender, gaps: meshGaps(head.geometry.positions, gapLoops) }, shapes };
}

/** The head mesh's positions of a posed model (observeShapes checked it has one). */
const headPositions = (posed: AvatarModel): Float32Array => posed.meshes.find((m) => m.name === 'head')!.geometry.positions;

/** A frontal camera framing the face landmarks' vertices (the head's first 468). */
function faceCamera(positions: Float32Array): Camera {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < FACE_POINTS; v++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[3 * v + k]);
      hi[k] = Math.max(hi[k], positions[3 * v + k]);
    }
  }
  const target: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  const half = (Math.max(hi[0] - lo[0], hi[1] - lo[1]) / 2) * MARGIN;
  const distance = half / Math.tan((FOV * Math.PI) / 360) + (hi[2] - lo[2]) / 2;
  return { type: 'perspective', fovY: FOV, eye: [target[0], target[1], target[2] + distance], target, up: [0, 1, 0] };
}

async function landmarksOf(img: RgbaImage): Promise<Float32Array | undefined> {
  const rgb = new Uint8Array(img.width * img.height * 3);
  for (let i = 0; i < img.width * img.height; i++) rgb.set(img.rgba.subarray(i * 4, i * 4 + 3), i * 3);
  const faces = await detectFaces(rgb, img.width, img.height);
  if (faces.length === 0) return undefined;
  const face = faces.reduce((a, b) => (b.box[2] * b.box[3] > a.box[2] * a.box[3] ? b : a));
  return new Float32Array(face.mesh.flat());
}

type Point = [number, number];

/** `eyeFrame`: the neutral render's landmarks, whose eye corners the iris is placed between (the corners jitter more than the iris moves). */
function measure(p: Float32Array, eyes: number, iris: Record<SideName, Point>, eyeFrame: Float32Array): FaceMeasures {
  // Image x grows to the subject's left in a frontal view; image y grows down. Positions are taken from
  // the eye corners' midpoint of the same render: the detector shifts all its points together by a few
  // pixels from one render to the next.
  const corners = [SIDES.left.eyeIn, SIDES.left.eyeOut, SIDES.right.eyeIn, SIDES.right.eyeOut];
  const ox = corners.reduce((a, i) => a + p[3 * i], 0) / 4, oy = corners.reduce((a, i) => a + p[3 * i + 1], 0) / 4;
  const x = (i: number) => (p[3 * i] - ox) / eyes;
  const y = (i: number) => -(p[3 * i + 1] - oy) / eyes;
  const fx = (i: number) => eyeFrame[3 * i] / eyes;
  const fy = (i: number) => -eyeFrame[3 * i + 1] / eyes;
  const meanY = (ids: readonly number[]) => ids.reduce((a, i) => a + y(i), 0) / ids.length;
  const perSide = (f: (s: (typeof SIDES)[SideName], side: SideName, dir: number) => number): Record<SideName, number> => ({
    left: f(SIDES.left, 'left', 1),
    right: f(SIDES.right, 'right', -1),
  });
  return {
    mouthOpen: y(LIP.upperInner) - y(LIP.lowerInner),
    mouthHeight: y(LIP.upperOuter) - y(LIP.lowerOuter),
    mouthWidth: x(SIDES.left.corner) - x(SIDES.right.corner),
    mouthX: (x(SIDES.left.corner) + x(SIDES.right.corner)) / 2,
    lowerLipX: x(LIP.lowerOuter),
    cornerHeight: perSide((s) => y(s.corner)),
    cornerOut: perSide((s, _, dir) => dir * x(s.corner)),
    upperLip: perSide((s) => y(s.upperLip)),
    lowerLip: perSide((s) => y(s.lowerLip)),
    eyeOpen: perSide((s) => y(s.lidUp) - y(s.lidDown)),
    browInner: perSide((s) => meanY(s.browIn)),
    browOuter: perSide((s) => meanY(s.browOut)),
    irisOut: perSide((s, side) => {
      const ax = fx(s.eyeOut) - fx(s.eyeIn), ay = fy(s.eyeOut) - fy(s.eyeIn);
      return ((iris[side][0] / eyes - fx(s.eyeIn)) * ax + (-iris[side][1] / eyes - fy(s.eyeIn)) * ay) / (ax * ax + ay * ay);
    }),
    irisUp: perSide((s, side) => -iris[side][1] / eyes - (fy(s.eyeIn) + fy(s.eyeOut)) / 2),
    noseWidth: x(SIDES.left.wing) - x(SIDES.right.wing),
    cheekHeight: perSide((s) => y(s.cheek)),
  };
}

/**
 * Per pixel of the observer's render, 1 where that eye's eyeball is the nearest surface of the head and the eyeballs:
 * the iris is looked for there, wherever the posed lids leave the eyeball open. Looked for inside the neutral's lid
 * margin instead, a lid coming down over the opening (skin, liner, lash line: as dark as an iris against the sclera)
 * drew the centroid up into the lid, and a lid going up hid the iris's top the render shows.
 */
function eyeballPixels(model: AvatarModel, camera: Camera): Record<SideName, Uint8Array> {
  const meshes = ['head', 'eyeLeft', 'eyeRight'].map((name) => model.meshes.find((m) => m.name === name)!);
  const items = meshes.map((m) => ({ geometry: m.geometry }));
  const [, leftFrom, rightFrom] = firstTriangleIds(items);
  const rightTo = rightFrom + meshes[2].geometry.indices.length / 3;
  const { ids } = renderTriangleIds(items, camera, { width: OBSERVE_SIZE, height: OBSERVE_SIZE });
  const left = new Uint8Array(ids.length), right = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] >= leftFrom && ids[i] < rightFrom) left[i] = 1;
    else if (ids[i] >= rightFrom && ids[i] < rightTo) right[i] = 1;
  }
  return { left, right };
}

/**
 * The iris centre seen where the eyeball shows (`eyeball`, per pixel): the centroid of the pixels darker than the
 * sclera; `closed` where none shows. The detector's own iris points follow a turned eyeball poorly.
 */
function irisCentre(img: RgbaImage, eyeball: Uint8Array, closed: Point): Point {
  let sclera = -Infinity;
  for (let i = 0; i < eyeball.length; i++) if (eyeball[i]) sclera = Math.max(sclera, rec601Luma(img.rgba, 4 * i));
  let sx = 0, sy = 0, sw = 0;
  for (let i = 0; i < eyeball.length; i++) {
    if (!eyeball[i]) continue;
    const w = Math.max(0, 0.75 * sclera - rec601Luma(img.rgba, 4 * i));
    sx += w * ((i % img.width) + 0.5);
    sy += w * (Math.floor(i / img.width) + 0.5);
    sw += w;
  }
  return sw > 0 ? [sx / sw, sy / sw] : closed;
}

function difference(a: FaceMeasures, b: FaceMeasures): FaceMeasures {
  const out = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(a)) {
    const w = (b as unknown as Record<string, unknown>)[k];
    out[k] = typeof v === 'number' ? v - (w as number) : { left: v.left - (w as Record<SideName, number>).left, right: v.right - (w as Record<SideName, number>).right };
  }
  return out as unknown as FaceMeasures;
}

type Box = [number, number, number, number];
type Regions = Record<'mouth' | 'eyeLeft' | 'eyeRight' | 'cheekLeft' | 'cheekRight', Box> & { face: Box; middleX: number };

/** Pixel boxes (x0, y0, x1, y1) around the neutral render's mouth, eyes and cheeks, and the face. */
function faceRegions(p: Float32Array, eyes: number): Regions {
  const around = (ids: readonly number[], pad: number): Box => {
    const xs = ids.map((i) => p[3 * i]), ys = ids.map((i) => p[3 * i + 1]);
    return [Math.min(...xs) - pad * eyes, Math.min(...ys) - pad * eyes, Math.max(...xs) + pad * eyes, Math.max(...ys) + pad * eyes];
  };
  const face = Array.from({ length: FACE_POINTS }, (_, i) => i);
  return {
    // The chin moves with the jaw: the mouth box reaches down past the lower lip.
    mouth: around([...OUTER_LIPS, 152], 0.15),
    eyeLeft: around([...SIDES.left.eyeContour, ...SIDES.left.browIn, ...SIDES.left.browOut], 0.1),
    eyeRight: around([...SIDES.right.eyeContour, ...SIDES.right.browIn, ...SIDES.right.browOut], 0.1),
    cheekLeft: around([SIDES.left.cheek, 352, 411], 0.15),
    cheekRight: around([SIDES.right.cheek, 123, 187], 0.15),
    face: around(face, 0),
    middleX: (p[3 * IRIS_PLUS_X] + p[3 * IRIS_MINUS_X]) / 2,
  };
}

function regionChange(a: RgbaImage, b: RgbaImage, regions: Regions): RegionChange {
  const inside = (box: Box, px: number, py: number) => px >= box[0] && px < box[2] && py >= box[1] && py < box[3];
  const keys = ['mouth', 'eyeLeft', 'eyeRight', 'cheekLeft', 'cheekRight'] as const;
  const sum = { mouth: 0, eyeLeft: 0, eyeRight: 0, cheekLeft: 0, cheekRight: 0, rest: 0, halfLeft: 0, halfRight: 0 };
  const count = { ...sum };
  const [fx0, fy0, fx1, fy1] = regions.face.map((v, i) => Math.max(0, Math.min(i % 2 ? a.height : a.width, Math.round(v))));
  for (let py = fy0; py < fy1; py++) {
    for (let px = fx0; px < fx1; px++) {
      const o = 4 * (py * a.width + px);
      const d = (Math.abs(a.rgba[o] - b.rgba[o]) + Math.abs(a.rgba[o + 1] - b.rgba[o + 1]) + Math.abs(a.rgba[o + 2] - b.rgba[o + 2])) / 3;
      const hit = keys.filter((k) => inside(regions[k], px + 0.5, py + 0.5));
      for (const k of [...(hit.length ? hit : (['rest'] as const)), px + 0.5 > regions.middleX ? 'halfLeft' : 'halfRight'] as const) {
        sum[k] += d;
        count[k]++;
      }
    }
  }
  return Object.fromEntries(Object.entries(sum).map(([k, s]) => [k, count[k as keyof RegionChange] ? s / count[k as keyof RegionChange] : 0])) as unknown as RegionChange;
}

/** The template's contours the mesh gaps are read along: the eyelids' and the inner lips' loops. */
export interface GapLoops {
  left: readonly number[];
  right: readonly number[];
  lips: readonly number[];
}

/** The inner lips' corners (canonical face mesh). */
const INNER_LIP_CORNERS = [78, 308] as const;

/**
 * Upper minus lower at the centre of the lips and lids, on the head mesh's face vertices, each upper centre measured
 * against the other contour right below it: the lids' centre vertices sit a few millimetres apart across the face,
 * where a closed eye's sloping lower lid is higher or lower, and a mouth kept a little sideways (p12-a's lower lip
 * 2.6 mm to the side of its upper) has its lips' centres apart as well. An upper lid below the lower one but in front
 * of it lies over it (a closed eye): gap 0, not crossed.
 */
export function meshGaps(positions: Float32Array, loops: GapLoops): MeshGaps {
  const at = (v: number): Vec3 => [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
  const mid = (a: number, b: number) => at(a).map((c, k) => (c + at(b)[k]) / 2);
  const l = mid(SIDES.left.eyeIn, SIDES.left.eyeOut), r = mid(SIDES.right.eyeIn, SIDES.right.eyeOut);
  const eyes = Math.hypot(l[0] - r[0], l[1] - r[1], l[2] - r[2]);
  /** `up` over the part of `loop` between `corners` that holds `down`, at up's x: the gap and that part's depth there. */
  const below = (up: number, down: number, loop: readonly number[], corners: readonly [number, number]) => {
    const a = loop.indexOf(corners[0]), b = loop.indexOf(corners[1]);
    const [i, j] = a < b ? [a, b] : [b, a];
    const one = loop.slice(i, j + 1), other = [...loop.slice(j), ...loop.slice(0, i + 1)];
    const lower = (one.includes(down) ? one : other).map(at).sort((p, q) => p[0] - q[0]);
    const x = positions[3 * up];
    let [y, z] = lower[x < lower[0][0] ? 0 : lower.length - 1].slice(1);
    for (let k = 1; k < lower.length; k++) {
      if (x >= lower[k - 1][0] && x <= lower[k][0]) {
        const t = (x - lower[k - 1][0]) / (lower[k][0] - lower[k - 1][0] || 1);
        [y, z] = [lower[k - 1][1] + (lower[k][1] - lower[k - 1][1]) * t, lower[k - 1][2] + (lower[k][2] - lower[k - 1][2]) * t];
        break;
      }
    }
    return { gap: (positions[3 * up + 1] - y) / eyes, z };
  };
  const lidGap = (side: (typeof SIDES)[SideName], loop: readonly number[]) => {
    const { gap, z } = below(side.lidUp, side.lidDown, loop, [side.eyeIn, side.eyeOut]);
    // A closed upper lid lies over the lower one, in front of it: it has come down past it, not through it.
    return positions[3 * side.lidUp + 2] > z ? Math.max(0, gap) : gap;
  };
  return {
    lips: below(LIP.upperInner, LIP.lowerInner, loops.lips, INNER_LIP_CORNERS).gap,
    lidsLeft: lidGap(SIDES.left, loops.left),
    lidsRight: lidGap(SIDES.right, loops.right),
  };
}
