/**
 * Which library hairstyle the photo shows: every style, placed on the avatar's head by the fit's
 * similarity (close enough for a silhouette; only the chosen one is warped onto the cranium), is drawn with the
 * photo's camera and compared with the observed hair region (IoU over the head and down to the
 * shoulders), less penalties where its length class, fringe or parting disagree with what was observed.
 * The best few are tried again with more and less volume. A bald head gets none; a shaved one, stubble.
 */
import type { HairObservation } from './observation.ts';
import type { PhotoCamera } from '../../geometry/texture/photo-camera.ts';
import type { HairLibrary, LibraryStyle } from '../../geometry/hair/library.ts';
import { LENGTH_ORDER } from '../../geometry/hair/styles.ts';
import { scaleVolume } from '../../geometry/hair/fit-hair.ts';
import { hairSilhouette, headDepth, iou, maskOnGrid, silhouetteGrid } from './silhouette.ts';

/** Cells across the longer side of the comparison grid. */
const GRID_CELLS = 96;
/** Score lost per length class of difference, per unit of fringe difference, and for the other parting. */
const LENGTH_PENALTY = 0.06;
const FRINGE_PENALTY = 0.2;
const PARTING_PENALTY = 0.03;
/** Volume scales tried on the best styles. */
const VOLUMES = [0.7, 1.35];
const RETRIED = 2;
/** The comparison reaches this many face heights (brow to chin) below the chin, over the shoulders. */
const BELOW_CHIN = 0.6;
const CHIN = 152;
const FOREHEAD_TOP = 10;

export interface HairChoice {
  style: LibraryStyle;
  /** Scale of the style's distance from the scalp. */
  volume: number;
  /** Silhouette IoU and the final score of every style tried, best first. */
  scores: { name: string; volume: number; iou: number; score: number }[];
}

export interface ChoiceInput {
  library: HairLibrary;
  observation: HairObservation;
  camera: PhotoCamera;
  /** Photo landmarks (x, y, z per point, pixels). */
  landmarks: ArrayLike<number>;
  /** Template space to the avatar's, roughly (the fit's similarity), in place. */
  place: (positions: Float32Array) => Float32Array;
  avatar: { positions: Float32Array; indices: Uint32Array };
}

export function chooseHairstyle(input: ChoiceInput): HairChoice | undefined {
  const { library, observation: obs, camera } = input;
  if (obs.bald && obs.length === 'none') return undefined;
  const candidates = obs.bald ? library.styles.filter((s) => s.style.shellOnly) : library.styles.filter((s) => !s.style.shellOnly);
  const grid = silhouetteGrid(obs.mask.width, obs.mask.height, GRID_CELLS);
  const observed = maskOnGrid(obs.mask, grid);
  const head = headDepth(camera, grid, input.avatar);
  const chin = input.landmarks[CHIN * 3 + 1], top = input.landmarks[FOREHEAD_TOP * 3 + 1];
  const lastRow = Math.floor((chin + BELOW_CHIN * Math.abs(chin - top)) / grid.step);
  const score = (s: LibraryStyle, volume: number) => {
    const positions = input.place(scaleVolume(s.mesh, library.map, volume));
    const overlap = iou(hairSilhouette(camera, grid, head, { positions, indices: s.mesh.indices }), observed, grid, lastRow);
    return { style: s, volume, iou: overlap, score: overlap - penalty(s, obs) };
  };
  const tried = candidates.map((s) => score(s, 1)).sort((a, b) => b.score - a.score);
  for (const best of tried.slice(0, RETRIED)) for (const v of VOLUMES) tried.push(score(best.style, v));
  tried.sort((a, b) => b.score - a.score);
  const best = tried[0];
  return {
    style: best.style,
    volume: best.volume,
    scores: tried.map((t) => ({ name: t.style.style.name, volume: t.volume, iou: t.iou, score: t.score })),
  };
}

function penalty(s: LibraryStyle, obs: HairObservation): number {
  const st = s.style;
  const lengthGap = Math.abs(LENGTH_ORDER.indexOf(st.length) - LENGTH_ORDER.indexOf(obs.length));
  const parting = obs.parting !== 'none' && st.parting !== 'none' && st.parting !== obs.parting ? PARTING_PENALTY : 0;
  return LENGTH_PENALTY * lengthGap + FRINGE_PENALTY * Math.abs(st.fringe - obs.fringe) + parting;
}
