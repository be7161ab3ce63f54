/**
 * Which library hairstyle the photo shows, and how full: every style, placed on the avatar's head by the
 * fit's similarity (close enough for a silhouette; only the chosen one is warped onto the cranium), is drawn
 * with the photo's camera on a grid over the head. Its score is how well the head with that hair covers the
 * person matte above the chin (the outline, which the matte finds more surely than the hair's colour does)
 * and how well the hair alone covers the observed hair region (hair beside or over the face), less
 * penalties where its length class, fringe or parting disagree with what was observed, or where it is curlier
 * than the photo's hair texture shows. The best few get
 * their volume fitted to the outline (volume-fit.ts) and are scored again. A bald head gets none; a shaved
 * one, stubble.
 */
import type { HairObservation } from './observation.ts';
import type { PhotoCamera } from '../../geometry/texture/photo-camera.ts';
import type { HairLibrary, LibraryStyle } from '../../geometry/hair/library.ts';
import type { HairStyle } from '../../geometry/hair/styles.ts';
import { LENGTH_ORDER } from '../../geometry/hair/styles.ts';
import { scaleVolume, warpedStyle } from '../../geometry/hair/fit-hair.ts';
import { faceFrame, fromFace, toFace, type FaceFrame } from './face-frame.ts';
import { andCells, coveredCells, hairSilhouette, headDepth, iou, maskOnGrid, orCells, silhouetteGrid, type SilhouetteGrid } from './silhouette.ts';
import { fitVolume } from './volume-fit.ts';
import { lengthGap } from './hair-measures.ts';

/** Cells across the longer side of the comparison grid. */
const GRID_CELLS = 96;
/** The grid's box around the face, in face widths across and face heights up from the chin (face-frame.ts). */
const BOX = { left: -1.15, right: 1.15, bottom: -0.7, top: 2.1 };
/** The outline is compared above the chin and within this many face widths of the face's middle: farther out are shoulders and other people. */
const HEAD_HALF_WIDTH = 1;
/** The hair region is compared down to this many face heights below the chin, over the shoulders. */
const BELOW_CHIN = 0.6;
/** Share of the outline's IoU in the silhouette score; the rest is the hair region's. */
const OUTLINE_WEIGHT = 0.5;
/** Score lost per length class of difference, per unit of fringe difference, and for the other parting. */
const LENGTH_PENALTY = 0.06;
const FRINGE_PENALTY = 0.2;
const PARTING_PENALTY = 0.03;
/**
 * Score lost by a gathered style (ponytail, bun) on hair not tied back, and by any other style on hair tied back:
 * from the front the two look alike (a ponytail shows short hair), so the observation decides.
 */
const TIED_PENALTY = 0.3;
/**
 * Score lost per unit of curl a curled style (short-curly, afro, long-wavy) shows beyond the photo's hair texture
 * (HairObservation.curl): a curled style needs curl evidence. By outline alone the fullest style won on short
 * straight hair (p04-a, p05-a, p10-a took short-curly by 0.015-0.055); their texture reads 0.31-0.41 against
 * short-curly's 0.64, which costs it 0.12-0.17. Only the shortfall counts: textured and tousled hair reads
 * somewhat curly, so straight styles pay nothing on curly-looking hair.
 */
const CURL_PENALTY = 0.5;
/** The best this many styles get their volume fitted and are scored again (each costs two warps of some 6,000 points). */
const RETRIED = 1;

export interface StyleScore {
  name: string;
  /** Mean factor on the style's standoff from the scalp. */
  volume: number;
  /** IoU of the head with this hair and the person matte; of this hair and the observed hair region. */
  outline: number;
  hair: number;
  score: number;
}

export interface HairChoice {
  style: LibraryStyle;
  /** Per vertex of the style, the factor on its standoff from the scalp. */
  volume: Float32Array;
  /** The style on the avatar's head at that volume (carried by ChoiceInput.warp). */
  positions: Float32Array;
  /** The cranium's centre carried the same way. */
  centre: [number, number, number];
  /** Every style's score (at its library volume, and fitted for the best few), best first. */
  scores: StyleScore[];
}

interface Scored extends Omit<StyleScore, 'name' | 'volume'> {
  style: LibraryStyle;
  volume: number | Float32Array;
}

export interface ChoiceInput {
  library: HairLibrary;
  observation: HairObservation;
  /** The photo's person matte (one byte a pixel, above 127 person). */
  matte: { width: number; height: number; alpha: Uint8Array };
  camera: PhotoCamera;
  /** Photo landmarks (x, y, z per point, pixels). */
  landmarks: ArrayLike<number>;
  /** Template space to the avatar's, roughly (the fit's similarity), in place: for comparing every style. */
  place: (positions: Float32Array) => Float32Array;
  /** Template space onto the avatar's head as the fit carries the chosen style (a new array): for fitting the volume. */
  warp: (positions: Float32Array) => Float32Array;
  avatar: { positions: Float32Array; indices: Uint32Array };
}

export function chooseHairstyle(input: ChoiceInput): HairChoice | undefined {
  const { library, observation: obs, camera } = input;
  if (obs.bald && obs.length === 'none') return undefined;
  const candidates = obs.bald ? library.styles.filter((s) => s.style.shellOnly) : library.styles.filter((s) => !s.style.shellOnly);
  const frame = faceFrame(input.landmarks);
  const grid = headGrid(frame);
  const [outlineRegion, hairRegion] = regions(frame, grid);
  const matteCells = maskOnGrid(input.matte, grid);
  const matte = andCells(matteCells, outlineRegion);
  const observed = maskOnGrid(obs.mask, grid);
  const head = headDepth(camera, grid, input.avatar);
  const headCells = coveredCells(head);
  const placed = (s: LibraryStyle, volume: number | Float32Array) => input.place(scaleVolume(s.mesh, library.map, volume));
  const score = (s: LibraryStyle, volume: number | Float32Array, positions = placed(s, volume)): Scored => {
    const hair = hairSilhouette(camera, grid, head, { positions, indices: s.mesh.indices });
    const hairIoU = iou(hair, observed, hairRegion);
    const outline = orCells(hair, headCells);
    const outlineIoU = iou(outline, matte, outlineRegion);
    const silhouette = OUTLINE_WEIGHT * outlineIoU + (1 - OUTLINE_WEIGHT) * hairIoU;
    return { style: s, volume, outline: outlineIoU, hair: hairIoU, score: silhouette - penalty(s, obs) };
  };
  const tried = candidates.map((s) => score(s, 1)).sort((a, b) => b.score - a.score);
  const centre = input.warp(new Float32Array(library.map.centre));
  const person = orCells(matteCells, observed);
  const scene = { camera, grid, head, matte, person, frame, centre: [centre[0], centre[1], centre[2]] as [number, number, number] };
  const fitted = tried.slice(0, RETRIED).map(({ style }) => {
    const warped = warpedStyle(library.map, style.mesh, input.warp);
    const volume = fitVolume(scene, style.mesh.positions.length / 3, style.mesh.indices, warped);
    const positions = warped(volume);
    return { ...score(style, volume, positions), volume, positions };
  });
  fitted.sort((a, b) => b.score - a.score);
  const best = fitted[0];
  const all = [...fitted, ...tried].sort((a, b) => b.score - a.score);
  return {
    style: best.style,
    volume: best.volume,
    positions: best.positions,
    centre: scene.centre,
    scores: all.map(({ style, volume, outline, hair, score }) => ({ name: style.style.name, volume: meanOf(volume), outline, hair, score })),
  };
}

function meanOf(v: number | Float32Array): number {
  return typeof v === 'number' ? v : v.reduce((a, b) => a + b, 0) / v.length;
}

/** The grid over the face frame's BOX. */
function headGrid(frame: FaceFrame): SilhouetteGrid {
  const corners = [
    [BOX.left, BOX.bottom],
    [BOX.left, BOX.top],
    [BOX.right, BOX.bottom],
    [BOX.right, BOX.top],
  ].map(([s, t]) => fromFace(frame, s, t));
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  return silhouetteGrid(Math.max(...xs) - x0, Math.max(...ys) - y0, GRID_CELLS, x0, y0);
}

/** The cells where the outline is compared, and where the hair region is. */
function regions(frame: FaceFrame, grid: SilhouetteGrid): [Uint8Array, Uint8Array] {
  const outline = new Uint8Array(grid.columns * grid.rows);
  const hair = new Uint8Array(outline.length);
  for (let y = 0; y < grid.rows; y++) {
    for (let x = 0; x < grid.columns; x++) {
      const [s, t] = toFace(frame, grid.x0 + (x + 0.5) * grid.step, grid.y0 + (y + 0.5) * grid.step);
      outline[y * grid.columns + x] = t > 0 && Math.abs(s) < HEAD_HALF_WIDTH ? 1 : 0;
      hair[y * grid.columns + x] = t > -BELOW_CHIN ? 1 : 0;
    }
  }
  return [outline, hair];
}

function penalty(s: LibraryStyle, obs: HairObservation): number {
  const st = s.style;
  const gathered = st.flow === 'gather';
  const tied = gathered !== obs.tiedBack ? TIED_PENALTY : 0;
  // Gathered hair's length is the tail's, which the front does not show; others are measured in face heights.
  const measured = gathered || obs.tip === undefined ? undefined : lengthGap(obs.tip, st.length);
  const length = gathered && obs.tiedBack ? 0 : measured ?? Math.abs(LENGTH_ORDER.indexOf(st.length) - LENGTH_ORDER.indexOf(obs.length));
  const parting = obs.parting !== 'none' && st.parting !== 'none' && st.parting !== obs.parting ? PARTING_PENALTY : 0;
  const curl = CURL_PENALTY * Math.max(0, styleCurl(st) - obs.curl);
  return LENGTH_PENALTY * length + FRINGE_PENALTY * Math.abs(st.fringe - obs.fringe) + parting + tied + curl;
}

/**
 * The curl (hair-curl.ts: 1 less the coherence of the strands' orientation) a photo of the style would show:
 * a strand curling with amplitude A cm at n turns per 10 cm runs at up to theta = atan(2 pi A n / 10) off its
 * course, and strand directions spread evenly over +-theta have the coherence sin(2 theta) / (2 theta). Straight
 * styles 0, long-wavy 0.32, short-curly 0.64, afro 0.75.
 */
export function styleCurl(st: Pick<HairStyle, 'curl' | 'curlRate'>): number {
  const theta = Math.atan((2 * Math.PI * st.curl * st.curlRate) / 10);
  return theta > 0 ? 1 - Math.sin(2 * theta) / (2 * theta) : 0;
}
