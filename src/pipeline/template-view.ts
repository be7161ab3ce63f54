/**
 * What the photo pipeline needs from a head template, in one place: the template module's HeadTemplate
 * is mapped onto this view so that fitting and texturing do not depend on its internal layout.
 */
import type { Bone, MeshData, Skin, TemplateVersion } from '../model/avatar.ts';
import type { EarRest, EyeRest } from '../geometry/fit/fit-head.ts';
import type { IrisUv } from '../geometry/texture/bake-parts.ts';
import type { HeadTemplate } from '../geometry/template/types.ts';
import type { JawArea } from '../geometry/fit/jaw-skin.ts';
import type { NeighbourLists } from '../geometry/mesh/adjacency.ts';

export interface TemplatePart {
  name: string;
  geometry: MeshData;
  skin: Skin;
}

export interface TemplateView {
  /** The template itself, for stages that take it whole (expressions). */
  source: HeadTemplate;
  version: TemplateVersion;
  textureSize: number;
  /** The head first, then eyes, teeth, tongue. */
  meshes: TemplatePart[];
  /**
   * The head's first 468 vertices (cm, xyz), the canonical face the landmarks are read against: one array per template,
   * so that what is derived from it (the landmarks' mirror partners) is made once.
   */
  canonicalFace: Float32Array;
  bones: Bone[];
  /** Eyeball rest centre and radius by eye mesh name. */
  eyes: Record<string, EyeRest>;
  /** [upper, lower] head vertex pairs facing each other across the mouth and eye openings. */
  openingPairs: [number, number][];
  /** The ears, placed and sized from the face beside them. */
  ears: EarRest[];
  /** Head triangles next to the mouth and eye openings, where closing the mouth and resting the lids can fold the surface. */
  foldProne: Uint32Array;
  /** Head triangles round the mouth, where the jaw bone turned open can fold a fitted face's skin (clearJawSkin). */
  jawArea: JawArea;
  /** Every head triangle of the face, the mouth and the eye sockets, where the fit itself can fold the surface: checked once after it. */
  faceTriangles: Uint32Array;
  /** Ordered vertex ids of the face's outer boundary (head mesh). */
  faceOval: number[];
  /** Ordered vertex ids of the outer lip contour (head mesh). */
  lipsOuter: number[];
  /** Head vertices on the front of the neck, where the photo's neck colour is sampled for the neck and the bust. */
  neckFront: number[];
  /** Head vertices inside the mouth (painted dark, never from the photo). */
  mouthInside: number[];
  /** Per head vertex, how much hair would cover it (0 on the face, ears and neck). */
  hairCoverage: Float32Array;
  /** The head's one ring of every vertex (the hair cap's gaps are closed over it). */
  headNeighbours: NeighbourLists;
  /** Head vertices of the eye sockets behind the eyeballs (painted dark). */
  eyeSockets: number[];
  irisUv: IrisUv;
  /** The teeth texture holds the gums below this v, the crowns above. */
  gumsBelowV: number;
}
