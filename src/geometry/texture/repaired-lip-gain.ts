/**
 * The de-lighting of lips the repair painted (lip-colour.ts). A repaired pixel holds the lips' colour as the lit lips
 * show it, not the photo's light at its place; dividing it by that place's shading brightens it wrongly where the
 * posed mouth turns away from the light: a smile's dark corner, painted lip pink and divided by a shading of 0.4,
 * became a pale pink blob on p08-a's upper lip. Those vertices take the gains of the lips the photo showed instead.
 */
import { LipPixel } from './lip-colour.ts';
import { median } from './sample.ts';

/**
 * `gain` (per vertex, linear RGB, from estimatePhotoLight) with each vertex whose photo pixel the repair replaced set,
 * in place, to the per-channel median gain of the seen vertices on kept lip pixels. `img`: the vertices' photo
 * positions (packed x, y); `pixels`: LipRepair.pixels of a photo `width` pixels wide; `visible`: per vertex, 0 where
 * the photo's camera did not see it. Unchanged when the photo showed no lip vertex.
 */
export function gainRepairedLipsAsSeen(gain: Float32Array, img: Float32Array, pixels: Uint8Array, width: number, visible?: Uint8Array): void {
  const height = pixels.length / width;
  const kept: number[] = [], replaced: number[] = [];
  for (let v = 0; v < gain.length / 3; v++) {
    const x = Math.floor(img[v * 2]), y = Math.floor(img[v * 2 + 1]);
    if (x < 0 || y < 0 || x >= width || y >= height) continue;
    const what = pixels[y * width + x];
    if (what === LipPixel.replaced) replaced.push(v);
    else if (what === LipPixel.kept && (!visible || visible[v])) kept.push(v);
  }
  if (kept.length === 0) return;
  // Loops, not a callback made per call: its optimised code died with it and was compiled again every avatar.
  const values: number[] = new Array(kept.length);
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < kept.length; k++) values[k] = gain[kept[k] * 3 + c];
    const lips = median(values);
    for (let k = 0; k < replaced.length; k++) gain[replaced[k] * 3 + c] = lips;
  }
}
