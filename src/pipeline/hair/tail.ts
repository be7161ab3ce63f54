/**
 * Whether the front shows a tail of hair behind the neck: hair gathered at the back of the head (a ponytail)
 * hangs down right behind the neck and shows beside it, below the ears, where short hair leaves the neck, the
 * collar and the backdrop. The tail is apart from the hair around the face (the ears and the jaw lie between)
 * and often outside the person matte (thin, and behind the person), so it is found by its colour and texture
 * alone: coloured like the scalp's hair rather than like the skin or the backdrop, and with the strands' grain.
 * Colour does not tell it from dark clothes (p01-a's black dress explains half of her tail's cells, and a dark
 * suit is coloured like dark hair); where it lies does: a tail lies against the neck's skin, a lapel beyond a
 * collar (couple.jpg's man: 0.36 of a side's band hair-coloured, none of it near the neck's skin).
 */
import { GATE, cost, distance2, type ColourModel } from './colour-model.ts';
import { cellGrain, type HairGrid } from './hair-grid.ts';
import { HAIR_GRAIN, type HairRegion } from './hair-region.ts';
import type { FaceFrame } from './face-frame.ts';

/**
 * Beside the neck, in face-frame units: from the jaw's corners (earlobes and earrings above) down to above
 * the shoulders, from the neck's side out to about the head's side.
 */
const BESIDE_NECK = { bottom: -0.6, top: 0.25, inner: 0.3, outer: 0.75 };
/** Cells this far outside the face oval (face widths) or nearer are the jaw's and a beard's. */
const JAW_MARGIN = 0.08;
/** A tail's cell has the neck's skin (outside the jaw) within this many face widths towards the face's middle. */
const NECK_REACH = 0.2;
/**
 * A tail fills at least this share of the band on one side: half of a strand a tenth of a face width wide
 * down half the band's height (0.11). (Test photos: p01-a's ponytail 0.11; short hair at most 0.03.)
 */
const TAIL_SHARE = 0.06;

export function tailBesideNeck(grid: HairGrid, region: HairRegion, frame: FaceFrame): boolean {
  const { hairModel, skin, background, skinGrain } = region;
  if (!hairModel) return false;
  const f = grid.feature;
  const reach = Math.max(1, Math.round((NECK_REACH * frame.width) / grid.step));
  const cells = [0, 0];
  const hair = [0, 0];
  for (let c = 0; c < grid.s.length; c++) {
    const s = grid.s[c];
    const t = grid.t[c];
    const out = Math.abs(s);
    if (t < BESIDE_NECK.bottom || t > BESIDE_NECK.top || out < BESIDE_NECK.inner || out > BESIDE_NECK.outer || grid.oval[c] > -JAW_MARGIN) continue;
    const side = s < 0 ? 0 : 1;
    cells[side]++;
    if (distance2(hairModel, f, c * 3) > GATE) continue;
    const h = cost(hairModel, f, c * 3);
    if (h > cost(skin, f, c * 3) || cheaperThan(background, f, c * 3, h)) continue;
    if (cellGrain(grid, c) > HAIR_GRAIN * skinGrain && nearNeck(grid, skin, reach, c, side === 0 ? 1 : -1)) hair[side]++;
  }
  return [0, 1].some((side) => cells[side] > 0 && hair[side] / cells[side] >= TAIL_SHARE);
}

// Module functions, not closures made per call: tailBesideNeck inlined them by identity, and its optimized code died
// with them (compiled again every job).

/** Whether the neck's skin lies within `reach` cells of cell c along its row, towards the face's middle (dx). */
function nearNeck(grid: HairGrid, skin: ColourModel, reach: number, c: number, dx: number): boolean {
  const x = c % grid.columns;
  for (let k = 1; k <= reach && x + k * dx >= 0 && x + k * dx < grid.columns; k++) {
    const n = c + k * dx;
    if (grid.oval[n] <= -JAW_MARGIN && distance2(skin, grid.feature, n * 3) < GATE) return true;
  }
  return false;
}

/** Whether any of the models explains the colour at f[o] at a cost below h. */
function cheaperThan(models: ColourModel[], f: ArrayLike<number>, o: number, h: number): boolean {
  for (const m of models) if (cost(m, f, o) < h) return true;
  return false;
}
