import type { Bone, MeshData, Skin, TemplateVersion, Vec3 } from '../../model/avatar.ts';
import type { SurfaceBinding } from '../mesh/surface-binding.ts';
import type { FaceLoops } from './face-parts.ts';

/** Parts that ride on the head or the eyeballs (both eyes' in one mesh each); see bound-parts.ts. */
export const BOUND_PART_NAMES = ['cornea', 'eyelashes', 'tearLine', 'caruncle'] as const;
export type BoundPartName = (typeof BOUND_PART_NAMES)[number];
export type PartName = 'eyeLeft' | 'eyeRight' | 'teeth' | 'tongue' | BoundPartName;
export type MeshName = 'head' | PartName;
export const PART_NAMES: readonly PartName[] = ['eyeLeft', 'eyeRight', 'teeth', 'tongue', ...BOUND_PART_NAMES];
/** Parts that are open cards or shells by design (the rest are closed): the cornea, the lashes and the tear line. */
export const OPEN_PARTS: readonly PartName[] = ['cornea', 'eyelashes', 'tearLine'];

/** Bone indices of every template's skeleton (the order of `HeadTemplate.bones`). */
export const BONE = { root: 0, spine: 1, chest: 2, neck: 3, head: 4, jaw: 5, eyeLeft: 6, eyeRight: 7, tongue: 8 } as const;

/** Vertex index sets of the head mesh, ascending. */
export interface HeadRegions {
  /** The face: the 468 canonical vertices and, in 2.0, the vertices refined between them. */
  face: number[];
  /** Cranium and neck skin from the face oval to the neck cut, ears excluded. */
  skin: number[];
  /** Skin below the jaw line down to the cut. */
  neck: number[];
  /** Below the neck cut: shoulders, top of the chest and the flat bottom. */
  bust: number[];
  ears: number[];
  earLeft: number[];
  earRight: number[];
  mouthBag: number[];
  eyeSocketLeft: number[];
  eyeSocketRight: number[];
}

export interface EyeInfo {
  /** Rest centre of the eyeball (also its bone's position), cm. */
  centre: Vec3;
  radius: number;
}

/** How finely each bound part is built (per eye). */
export interface BoundResolution {
  /** The cornea takes the eyeball's segments and every `ringStep`-th of its rings over the iris. */
  cornea: { segments: number; ringStep: number };
  /** Columns of the upper and lower lash cards, and rows root to tip. */
  lashes: { upper: number; lower: number; rows: number };
  tearStations: number;
  caruncle: { segments: number; rings: number };
}

/**
 * Everything a fitting, texturing and expression stage needs about one template. Head vertices
 * 0..467 are the canonical face mesh in landmark order; all meshes share the template's frame
 * (cm, Y up, face along +Z) and its skeleton.
 */
export interface HeadTemplate {
  version: TemplateVersion;
  /** Width and height of the head atlas and the part textures, pixels. */
  textureSize: number;
  head: MeshData;
  parts: Record<PartName, MeshData>;
  /** root, spine, chest, neck, head, jaw, eyeLeft, eyeRight, tongue (indices in BONE); rotations identity. */
  bones: Bone[];
  /** Rest-pose world position of every bone. */
  boneWorld: Vec3[];
  skins: Record<MeshName, Skin>;
  faceVertexCount: 468;
  /** Ordered contours in head vertex numbering (all on the face, so the same in both templates). */
  loops: FaceLoops;
  /**
   * The bust's level bottom edge, ordered, on its sides; the flat bottom closing it has its own
   * copies of these vertices (a UV seam), so the head is closed.
   */
  bustEdge: number[];
  regions: HeadRegions;
  eyes: { left: EyeInfo; right: EyeInfo };
  /** The iris and pupil as discs in the eye texture's UV space (v up), the same for both eyes. */
  irisUv: { centre: [number, number]; radius: number; pupilRadius: number };
  /**
   * Per bound part, where each vertex holds to the head or an eyeball (hosts in BOUND_HOSTS order):
   * place them with placeBoundParts after anything moves their hosts.
   */
  bound: Record<BoundPartName, SurfaceBinding>;
  /** How finely the bound parts were built, so that an avatar's can be laid afresh as they were. */
  boundResolution: BoundResolution;
  /** Per eyelash vertex, the vertex at its column's root: a shape that would push a lash into the skin turns it about there. */
  lashRoots: Uint32Array;
  /** Teeth mesh vertices of the lower row (they follow the jaw); the rest are the upper row. */
  lowerTeeth: number[];
  /** Where the face's canonical UVs sit in the head atlas: atlas = offset + canonical * scale. */
  faceUv: { offset: [number, number]; scale: number };
}
