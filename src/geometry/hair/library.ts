/**
 * The hairstyle library of a head template: every style of styles.ts grown over the template's cranium,
 * built on first use and kept (the pipeline only fits the chosen one).
 */
import type { MeshData, Skin, TemplateVersion } from '../../model/avatar.ts';
import type { HeadTemplate } from '../template/types.ts';
import { generateHairstyle, orientFaces, type CardBudget, type FaceClearance } from './cards.ts';
import { craniumCentre, scalpMap, type ScalpMap } from './scalp-map.ts';
import { HAIRSTYLES, type HairStyle } from './styles.ts';
import { keepOutside, keepOutsideMesh, OUTSIDE_PASSES } from './keep-outside.ts';
import { TriangleBvh } from '../spatial/triangle-bvh.ts';
import { scalpWarp, type ScalpWarp } from './fit-hair.ts';
import { hairSkin } from './hair-skin.ts';

/** Triangle budgets per template (the issue's: 5,000 for 2.0, 2,000 for 1.6). */
export const HAIR_BUDGET: Record<TemplateVersion, CardBudget> = {
  '2.0': { triangles: 5000, maxNodes: 10, sheetNodes: 16, shellAround: 44, shellUp: 16 },
  '1.6': { triangles: 2000, maxNodes: 6, sheetNodes: 9, shellAround: 28, shellUp: 10 },
};

export interface LibraryStyle {
  style: HairStyle;
  mesh: MeshData;
  /** An index over the mesh's triangles, for refitting to the style fitted on an avatar (TriangleBvh.refit). */
  tree: TriangleBvh;
  /** Its skin, the same on every avatar (hair-skin.ts). */
  skin: Skin;
}

export interface HairLibrary {
  styles: LibraryStyle[];
  /** The template's head as the generator saw it. */
  map: ScalpMap;
  face: FaceClearance;
  /** Scalp correspondences for carrying a style onto an avatar's head. */
  warp: ScalpWarp;
  /** Head vertices the hair may rest on (outerVertices). */
  outer: number[];
  /** The template's head and bust, closed, for inside tests; an avatar's head refits it (TriangleBvh.refit). */
  body: TriangleBvh;
}

/** Canonical landmarks the clearance is measured at: the forehead top, the brows' tops, the outer eye corners. */
const FOREHEAD_TOP = 10;
const BROW_TOPS = [105, 334, 66, 296];
const EYE_OUTER = [33, 263];

/** Least distance of a hair vertex from the skin, cm. */
export const HAIR_MARGIN = 0.08;


const libraries = new WeakMap<HeadTemplate, HairLibrary>();

/** `coverage`: per head vertex, how much hair covers it (the template view's hairCoverage). */
export function hairLibrary(template: HeadTemplate, coverage: Float32Array): HairLibrary {
  let lib = libraries.get(template);
  if (!lib) {
    lib = buildLibrary(template, coverage);
    libraries.set(template, lib);
  }
  return lib;
}

/** Head vertices the hair may rest on: all but the mouth and the eye sockets. */
export function outerVertices(template: HeadTemplate): number[] {
  const inside = new Set([...template.regions.mouthBag, ...template.regions.eyeSocketLeft, ...template.regions.eyeSocketRight]);
  const out: number[] = [];
  for (let v = 0; v < template.head.positions.length / 3; v++) if (!inside.has(v)) out.push(v);
  return out;
}

export function faceClearance(positions: ArrayLike<number>, ears: readonly number[]): FaceClearance {
  const y = (v: number) => positions[v * 3 + 1];
  let earTop = -Infinity, earBack = Infinity;
  for (const v of ears) {
    earTop = Math.max(earTop, y(v));
    earBack = Math.min(earBack, positions[v * 3 + 2]);
  }
  const eyeZ = Math.min(...EYE_OUTER.map((v) => positions[v * 3 + 2]));
  return {
    hairlineY: y(FOREHEAD_TOP),
    browY: Math.max(...BROW_TOPS.map(y)),
    halfWidth: Math.max(...EYE_OUTER.map((v) => Math.abs(positions[v * 3]))) + 1.8,
    front: eyeZ - 2.5,
    earTop,
    earBack: earBack - 0.6,
  };
}

function buildLibrary(t: HeadTemplate, coverage: Float32Array): HairLibrary {
  const p = t.head.positions;
  const outer = outerVertices(t);
  const map = scalpMap(p, outer, coverage, craniumCentre(p, coverage));
  const face = faceClearance(p, t.regions.ears);
  const budget = HAIR_BUDGET[t.version];
  const body = TriangleBvh.build(p, t.head.indices);
  const styles = HAIRSTYLES.map((style) => {
    const mesh = generateHairstyle(style, map, face, budget, body);
    keepOutside(mesh.positions, map, HAIR_MARGIN);
    // The map is sampled at the head's vertices; between them the surface can stand a little further out.
    keepOutsideMesh(mesh.positions, body, HAIR_MARGIN, OUTSIDE_PASSES);
    // A push can fold a triangle over: wind it again.
    orientFaces(mesh);
    return { style, mesh, tree: TriangleBvh.build(mesh.positions, mesh.indices), skin: hairSkin(mesh, body, t.head.indices, t.skins.head) };
  });
  return { map, face, styles, warp: scalpWarp(p, outer), outer, body };
}
