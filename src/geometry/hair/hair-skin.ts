/**
 * The hair's skin: each hair vertex follows the skin it lies over. Roots on the cranium ride the head bone
 * alone; long hair over the nape, beside the neck and on the shoulders takes the neck's and the chest's
 * weights there, so that a head tilted back, turned or rolled carries the hair with the skin under it
 * instead of swinging it through the neck and the back (on the head bone alone, p02-a's long hair stood
 * 5.7 cm inside the back with the neck tilted back 30 degrees).
 */
import type { MeshData, Skin } from '../../model/avatar.ts';
import { BONE } from '../template/types.ts';
import { BONE_COUNT, packSkin } from '../template/head-weights.ts';
import { neighbourLists, type NeighbourLists } from '../mesh/adjacency.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';

/**
 * Passes of neighbour averaging over the hair's edges: where the closest skin jumps (a strand in the air beside
 * the neck, nearest the jaw at one row and the shoulder at the next), a card bends over a few rows instead of
 * tearing at one (p02-a's neck turned 40 degrees: one edge grew 8.2 cm without, 3.5 with).
 */
const EVEN_PASSES = 8;
/**
 * Hair within HOLD.near cm of the skin keeps the skin's weights through the averaging, hair beyond HOLD.far takes
 * its neighbours' alone. Hair lying on the nape or a shoulder that took the head's share from the strand above it
 * went 2 cm into the back with the neck tilted back 30 degrees (p01-b, averaging without a hold), and hair hanging
 * 3-4 cm over a shoulder 2 cm into it with the head rolled 30 degrees (template 1.6, long-wavy, held to 3 cm).
 */
const HOLD = { near: 1, far: 5 };

/**
 * The skin of `hair` over `body` (the head and bust's triangles, `bodyIndices`, skinned by `bodySkin`): at each
 * vertex the closest body point's corners' weights, blended by where it falls, with the jaw's share given to
 * the head (hair does not open with the mouth), then evened along the hair's edges where it stands off the skin.
 */
export function hairSkin(hair: MeshData, body: TriangleBvh, bodyIndices: ArrayLike<number>, bodySkin: Skin): Skin {
  const n = hair.positions.length / 3;
  const under = new Float64Array(n * BONE_COUNT);
  const hold = new Float64Array(n);
  const hit = emptyClosestPoint();
  const p = hair.positions;
  for (let v = 0; v < n; v++) {
    body.closestPoint(p[3 * v], p[3 * v + 1], p[3 * v + 2], hit, Infinity, hit.triangle);
    const t = 3 * hit.triangle;
    const row = v * BONE_COUNT;
    addRow(under, row, bodySkin, bodyIndices[t], hit.wa);
    addRow(under, row, bodySkin, bodyIndices[t + 1], hit.wb);
    addRow(under, row, bodySkin, bodyIndices[t + 2], hit.wc);
    under[row + BONE.head] += under[row + BONE.jaw];
    under[row + BONE.jaw] = 0;
    hold[v] = 1 - smoothstepBetween(HOLD.near, HOLD.far, hit.distance);
  }
  const around = neighbourLists(n, hair.indices);
  const named = new Uint8Array(BONE_COUNT);
  for (let i = 0; i < under.length; i++) if (under[i] > 0) named[i % BONE_COUNT] = 1;
  const bones = [...named.keys()].filter((j) => named[j] === 1);
  let rows: Float64Array = under;
  for (let pass = 0; pass < EVEN_PASSES; pass++) rows = evenedHeld(rows, around, under, hold, bones);
  return packSkin(Array.from({ length: n }, (_, v) => Array.from(rows.subarray(v * BONE_COUNT, (v + 1) * BONE_COUNT))));
}

function addRow(rows: Float64Array, row: number, skin: Skin, vertex: number, share: number): void {
  for (let k = 0; k < 4; k++) rows[row + skin.joints[vertex * 4 + k]] += share * skin.weights[vertex * 4 + k];
}

/**
 * Each row averaged with its neighbours' mean, half and half, then moved the share `hold` of the way back to `under`
 * (new rows); only the `bones` any row names change, and a row held wholly stays `under`'s.
 */
function evenedHeld(rows: Float64Array, around: NeighbourLists, under: Float64Array, hold: Float64Array, bones: readonly number[]): Float64Array {
  const out = under.slice();
  for (let v = 0; v < hold.length; v++) {
    if (hold[v] === 1) continue;
    const row = v * BONE_COUNT;
    const first = around.start[v], count = around.start[v + 1] - first;
    for (const j of bones) {
      let sum = 0;
      for (let i = first; i < first + count; i++) sum += rows[around.list[i] * BONE_COUNT + j];
      const evened = count === 0 ? rows[row + j] : (rows[row + j] + sum / count) / 2;
      out[row + j] = evened + hold[v] * (under[row + j] - evened);
    }
  }
  return out;
}
