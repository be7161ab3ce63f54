/**
 * Which grid cells show hair: the person matte minus the face skin, the ears, the neck and the clothes.
 * Colour models are fitted on the photo's own pixels: skin on the face's plain skin, hair on the scalp
 * above the forehead, clothes below the neck. A cell is hair when the hair model explains its colour
 * better than the others, it lies where hair can be (not on the eyes, the beard or the neck), and it is
 * connected to the hair on the scalp.
 */
import { GATE, cost, distance2, fitColourMixture, fitColourModel, type ColourModel } from './colour-model.ts';
import { borderCells, cellGrain, cellsAround, featuresOf, matteEdgeDistance, type HairGrid } from './hair-grid.ts';
import type { FaceFrame } from './face-frame.ts';
import { toFace } from './face-frame.ts';

/** Plain skin: upper cheeks, the nose's bridge and sides, the middle of the forehead, the chin. */
const SKIN_LANDMARKS = [50, 280, 101, 330, 117, 346, 6, 197, 195, 5, 151, 9, 108, 337, 199, 175];
/** The brows' upper edge. */
const BROW_TOP = [105, 66, 334, 296];
const NOSE_TIP = 1;
/** Radius of the skin samples around each landmark, in face heights. */
const SKIN_SAMPLE_RADIUS = 0.035;
/**
 * The forehead of a bare face reaches above the brows by about half the brows' height above the chin
 * (the classical thirds of a face); this is where the hairline of an average forehead lies.
 */
const FOREHEAD_OVER_BROWS = 0.45;
/**
 * The scalp seen from the front, in face-frame units: from the top of the face mesh (a little below an
 * average hairline, so that a matte that misses light hair against a busy background still reaches it)
 * up to the crown.
 */
const SCALP = { bottom: 1.0, top: 1.55, halfWidth: 0.35 };
/** Clothes are sampled below the neck, across its width. */
const CLOTHES = { top: -0.4, bottom: -1.0, halfWidth: 0.3 };
/** Clothes are often two-coloured (a pattern, a shirt under a jacket). */
const CLOTHES_COLOURS = 2;
/** Above this height nothing is taken for clothes (collars reach up to the jaw's corners). */
const COLLAR_TOP = 0.25;
/** A beard reaches this far outside the jaw's landmarks (face widths); hair beside the jaw lies farther out. */
const BEARD_MARGIN = 0.08;
/** The neck below the chin, half its width in face widths. */
const NECK_HALF_WIDTH = 0.3;
/** Above the brows by this much (face heights) a fringe can begin; below, the brows themselves are dark. */
const BROW_MARGIN = 0.04;
/** Texture (over the face skin's) above which a skin-coloured cell is hair: as for a bare scalp (observe.ts). */
export const HAIR_GRAIN = 3.5;
/** The background is sampled on the photo's border, this many cells deep, where the matte shows no person. */
const BORDER_DEPTH = 2;
/** A background is often several colours (a backdrop's print, lights, a crowd). */
const BACKGROUND_COLOURS = 3;
/**
 * Within this many face widths of the matte's edge, a cell coloured more like the background than like the
 * hair is background: the matte is soft there and takes in a band of backdrop beside hair (p09-a: 0.3 face
 * widths). Deeper inside, the matte is trusted, so hair coloured like the backdrop is kept.
 */
const EDGE_REACH = 0.35;
/** Passes of growing the hair region and refitting its colour model. */
const GROWTH_PASSES = 3;

export interface HairRegion {
  /** 1 per hair cell. */
  hair: Uint8Array;
  skin: ColourModel;
  /** The hair colour model, undefined when the scalp shows no hair at all. */
  hairModel?: ColourModel;
  /** The colours of the backdrop (the photo's border). */
  background: ColourModel[];
  /** Fine texture of the face's plain skin (cellGrain), the unit of the grain measures. */
  skinGrain: number;
  /** Scalp cells (in the matte) and the share of them coloured like the face's skin. */
  scalpCells: number;
  scalpSkinShare: number;
  /** Fine texture of the scalp's cells not coloured like skin, over the face skin's (about 1-2 for a bald scalp, several times that for hair). */
  scalpGrain: number;
  /** Brightness of those cells over the face skin's. */
  scalpBrightness: number;
  /** Face-frame heights of the brows' top and of an average forehead's hairline. */
  browTop: number;
  hairline: number;
}

// The region is found without closures made per call: a per-call closure that TurboFan inlines into a long-lived
// function dies with the job and takes that function's optimized code with it ("weak objects"), so findHairRegion,
// its cell test and its growth were compiled again every job. The tests and loops are module functions reading
// their state from a literal (`Cells`), whose object shape V8 keeps from one job to the next; findHairRegion, run
// once per job, keeps no long loop of its own (it was compiled on stack, OSR, every job).
export function findHairRegion(grid: HairGrid, landmarks: ArrayLike<number>, frame: FaceFrame): HairRegion {
  let browTop = -Infinity;
  for (const i of BROW_TOP) browTop = Math.max(browTop, faceY(frame, landmarks, i));
  const hairline = browTop * (1 + FOREHEAD_OVER_BROWS);
  const noseTip = faceY(frame, landmarks, NOSE_TIP);

  const skinCells = new Set<number>();
  for (const i of SKIN_LANDMARKS) {
    for (const c of cellsAround(grid, landmarks[i * 3], landmarks[i * 3 + 1], SKIN_SAMPLE_RADIUS * frame.height)) skinCells.add(c);
  }
  const skin = fitColourModel(featuresOf(grid, [...skinCells]));
  if (!skin) throw new RangeError('findHairRegion: the face is too small to sample its skin');

  const background = fitColourMixture(featuresOf(grid, borderCells(grid, BORDER_DEPTH)), BACKGROUND_COLOURS);
  const edge = matteEdgeDistance(grid);
  const nearEdge = (EDGE_REACH * frame.width) / grid.step;

  const scalp: number[] = [];
  const clothes: number[] = [];
  scalpAndClothes(grid, skin, scalp, clothes);
  const scalpHair: number[] = [];
  for (const c of scalp) if (!skinLike(grid, skin, c)) scalpHair.push(c);
  const scalpSkinShare = scalp.length ? 1 - scalpHair.length / scalp.length : 1;
  // Texture and brightness are judged where the scalp is not skin-coloured: a bare forehead below the hairline does not count.
  const skinGrain = Math.max(1e-6, median(grains(grid, [...skinCells])));
  const scalpGrain = median(grains(grid, scalpHair)) / skinGrain;
  const scalpBrightness = scalpHair.length ? Math.exp(median(brightnesses(grid, scalpHair)) - skin.mean[0]) : 1;
  const clothesModels = fitColourMixture(featuresOf(grid, clothes), CLOTHES_COLOURS);

  // The scalp's hair seeds the hair model, less backdrop at the matte's edge that the scalp's colours do not
  // explain (a colour both explain, dark hair before a dark backdrop, stays with the matte).
  const seedModel = fitColourModel(featuresOf(grid, scalpHair));
  const seeds: number[] = [];
  if (seedModel) {
    for (const c of scalpHair) if (!(isBackdrop(grid, edge, nearEdge, background, c) && distance2(seedModel, grid.feature, c * 3) > GATE)) seeds.push(c);
  }
  let hairModel = fitColourModel(featuresOf(grid, seeds)) ?? seedModel;
  let hair: Uint8Array = new Uint8Array(grid.s.length);
  // The scalp's hair is lit from above; each pass refits the model on all the hair found so far, so
  // the next one reaches the same hair in the shade beside the face.
  for (let pass = 0; pass < GROWTH_PASSES && hairModel; pass++) {
    const cells: Cells = { grid, noseTip, browTop, hairline, skinGrain, hairModel, skin, clothes: clothesModels, background, edge, nearEdge };
    hair = grow(cells, scalp);
    if (pass === GROWTH_PASSES - 1) break;
    hairModel = fitColourModel(featuresOf(grid, cellsSet(hair))) ?? hairModel;
  }
  // Field by field, not spread from a part built earlier: a spread copy's object shape is not kept from one job to the
  // next, and the code reading the region (tailBesideNeck and the hair measures) was compiled again every job.
  return { skin, background, skinGrain, scalpCells: scalp.length, scalpSkinShare, scalpGrain, scalpBrightness, browTop, hairline, hair, hairModel };
}

/** The person's cells on the scalp, and those below the neck not coloured like the skin (clothes). */
function scalpAndClothes(grid: HairGrid, skin: ColourModel, scalp: number[], clothes: number[]): void {
  for (let c = 0; c < grid.s.length; c++) {
    if (!grid.person[c]) continue;
    const s = Math.abs(grid.s[c]);
    const t = grid.t[c];
    if (s < SCALP.halfWidth && t > SCALP.bottom && t < SCALP.top) scalp.push(c);
    else if (s < CLOTHES.halfWidth && t < CLOTHES.top && t > CLOTHES.bottom && !skinLike(grid, skin, c)) clothes.push(c);
  }
}

function cellsSet(mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let c = 0; c < mask.length; c++) if (mask[c]) out.push(c);
  return out;
}

/** Landmark i's height in the face frame. */
function faceY(frame: FaceFrame, landmarks: ArrayLike<number>, i: number): number {
  return toFace(frame, landmarks[i * 3], landmarks[i * 3 + 1])[1];
}

function skinLike(grid: HairGrid, skin: ColourModel, c: number): boolean {
  return distance2(skin, grid.feature, c * 3) < GATE;
}

/** At the matte's edge and coloured like the backdrop. */
function isBackdrop(grid: HairGrid, edge: Float32Array, nearEdge: number, background: ColourModel[], c: number): boolean {
  if (!(edge[c] < nearEdge)) return false;
  for (const m of background) if (distance2(m, grid.feature, c * 3) < GATE) return true;
  return false;
}

function grains(grid: HairGrid, cells: number[]): number[] {
  const out: number[] = [];
  for (const c of cells) out.push(cellGrain(grid, c));
  return out;
}

function brightnesses(grid: HairGrid, cells: number[]): number[] {
  const out: number[] = [];
  for (const c of cells) out.push(grid.feature[c * 3]);
  return out;
}

/** The upper median (0 for none); sorts `v`. */
function median(v: number[]): number {
  v.sort(ascending);
  return v.length ? v[v.length >> 1] : 0;
}

/** What decides whether a cell may be hair, for one growth pass. */
interface Cells {
  grid: HairGrid;
  noseTip: number;
  browTop: number;
  hairline: number;
  skinGrain: number;
  hairModel: ColourModel;
  skin: ColourModel;
  clothes: ColourModel[];
  background: ColourModel[];
  edge: Float32Array;
  nearEdge: number;
}

function allowedCell(k: Cells, c: number): boolean {
  const { grid, browTop, hairModel, skin } = k;
  if (!grid.person[c]) return false;
  const s = grid.s[c];
  const t = grid.t[c];
  const inside = grid.oval[c];
  if (inside > 0 && t < browTop + BROW_MARGIN) return false; // eyes, nose, mouth
  if (t < k.noseTip && inside > -BEARD_MARGIN) return false; // beard and jaw
  if (t < 0 && Math.abs(s) < NECK_HALF_WIDTH) return false; // neck
  const f = grid.feature;
  const o = c * 3;
  const d = distance2(hairModel, f, o);
  const h = d + hairModel.logDet;
  // Above the hairline the person is hair unless it is skin (highlights and dyed streaks included) or, at the
  // matte's edge, a backdrop colour that the hair model does not explain.
  if (t > k.hairline && distance2(skin, f, o) > GATE && !(d > GATE && isBackdrop(grid, k.edge, k.nearEdge, k.background, c))) return true;
  if (d > GATE) return false;
  // Hair as light as the skin is told from it by its strands, above the ears (whose folds make edges too).
  if (h > cost(skin, f, o) && (t < browTop || cellGrain(grid, c) < HAIR_GRAIN * k.skinGrain)) return false;
  if (t < COLLAR_TOP) for (const m of k.clothes) if (cost(m, f, o) < h) return false;
  return true;
}

/** The cells reachable from the seeds through allowed cells (4-neighbours). */
function grow(k: Cells, seeds: number[]): Uint8Array {
  const n = k.grid.s.length;
  const out = new Uint8Array(n);
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const c of seeds) tail = visit(k, seen, out, queue, tail, c);
  const { columns } = k.grid;
  while (head < tail) {
    const c = queue[head++];
    const x = c % columns;
    if (x > 0) tail = visit(k, seen, out, queue, tail, c - 1);
    if (x < columns - 1) tail = visit(k, seen, out, queue, tail, c + 1);
    if (c >= columns) tail = visit(k, seen, out, queue, tail, c - columns);
    if (c + columns < n) tail = visit(k, seen, out, queue, tail, c + columns);
  }
  return out;
}

/** Marks cell c seen and, when allowed, hair, queued at `tail`; returns the queue's new tail. */
function visit(k: Cells, seen: Uint8Array, out: Uint8Array, queue: Int32Array, tail: number, c: number): number {
  if (seen[c]) return tail;
  seen[c] = 1;
  if (!allowedCell(k, c)) return tail;
  out[c] = 1;
  queue[tail] = c;
  return tail + 1;
}

// A module function: a comparator written inline is a new closure every call, and its optimized code died with it
// (compiled again every job).
function ascending(a: number, b: number): number {
  return a - b;
}
