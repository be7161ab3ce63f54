/**
 * What the photo shows of the person's hair (HairObservation): the hair region, its colour, whether the
 * head is bald or shaved, the length class, the fringe, the parting and the volume. Pure: the person
 * matte is estimated beforehand (face/person-matte.ts).
 */
import type { RgbImage } from '../../geometry/texture/rgb-image.ts';
import type { PersonMatte } from '../face/person-matte.ts';
import type { HairLength, HairObservation } from './observation.ts';
import { faceFrame, toFace } from './face-frame.ts';
import { hairGrid, type HairGrid } from './hair-grid.ts';
import { findHairRegion } from './hair-region.ts';
import { tailBesideNeck } from './tail.ts';
import { hairCurl } from './hair-curl.ts';
import { foreheadCover, findParting, hairColour, hairTip, lengthClass, silhouetteVolume } from './hair-measures.ts';

const BROW_OUTER = [70, 300];
const TEMPLES = [21, 251];
/** Above the brows by this much (face heights) the forehead is measured, clear of the brows themselves. */
const BROW_MARGIN = 0.04;
/**
 * A scalp whose fine texture is within this factor of the face skin's is bare: hair strands make edges
 * at every pixel, skin does not, whatever the colours. (Measured on the test photos: a bald scalp 2.3,
 * the least textured hair 5.)
 */
const BARE_SCALP_GRAIN = 3.5;
/**
 * A bare scalp is skin, so even its shaded parts keep a good share of the face's brightness; smooth
 * hair much darker than the skin is slicked hair, not skin. (Test photos: the bald scalp's non-skin-
 * coloured cells 0.62, slicked dark hair 0.24.)
 */
const BARE_SCALP_BRIGHTNESS = 0.4;
/** A bare scalp mostly coloured like the face is bald; one of another colour is covered by stubble (shaved). */
const BALD_SKIN_SHARE = 0.5;

export function observeHair(photo: RgbImage, landmarks: ArrayLike<number>, matte: PersonMatte): HairObservation {
  const frame = faceFrame(landmarks);
  const grid = hairGrid(photo, matte, landmarks, frame);
  const region = findHairRegion(grid, landmarks, frame);
  const at = (i: number) => toFace(frame, landmarks[i * 3], landmarks[i * 3 + 1]);
  const temples = TEMPLES.map((i) => [landmarks[i * 3], landmarks[i * 3 + 1]]) as [[number, number], [number, number]];
  const volume = silhouetteVolume(matte, frame, temples);

  const skinColour = () => {
    const f = region.skin.mean;
    // The skin model's mean back in sRGB: brightness and the two chroma differences undone.
    const l = Math.exp(f[0]);
    const rg = f[1] * l;
    const yb = f[2] * l;
    const b = l - 8 - (2 * yb) / 3;
    const r = b + yb + rg / 2;
    const g = b + yb - rg / 2;
    return [r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v)))) as [number, number, number];
  };

  const bareScalp = region.scalpCells > 0 && region.scalpGrain < BARE_SCALP_GRAIN && region.scalpBrightness > BARE_SCALP_BRIGHTNESS;
  if (!region.hairModel || bareScalp) {
    const length: HairLength = !region.hairModel || region.scalpSkinShare >= BALD_SKIN_SHARE ? 'none' : 'shaved';
    const hair = length === 'shaved' ? scalpCells(grid, region.hairline) : new Uint8Array(grid.s.length);
    const stubble = length === 'shaved' ? hairColour(grid, region.hair) : undefined;
    const colour = stubble ?? { base: skinColour(), dark: skinColour(), light: skinColour() };
    return { bald: true, length, colour, fringe: 0, parting: 'none', tiedBack: false, curl: 0, volume, mask: upsample(grid, hair, photo) };
  }

  const [outerA, outerB] = BROW_OUTER.map((i) => at(i)[0]);
  const cover = foreheadCover(grid, region.hair, {
    left: Math.min(outerA, outerB),
    right: Math.max(outerA, outerB),
    bottom: region.browTop + BROW_MARGIN,
    top: region.hairline,
  });
  const tip = hairTip(grid, region.hair, frame);
  // The region holds at least the scalp's hair cells that seeded it; the skin colour only guards an empty one.
  const colour = hairColour(grid, region.hair) ?? { base: skinColour(), dark: skinColour(), light: skinColour() };
  const length = tip === undefined ? 'short' : lengthClass(tip);
  const parting = findParting(grid, region.hair, region.browTop + BROW_MARGIN, cover);
  return {
    bald: false,
    length,
    tip: offBottom(grid, region.hair) ? undefined : tip,
    // Hair ending above the ears was gathered behind when it is combed down both sides of the head from a centre
    // parting, or when its tail shows behind the neck.
    tiedBack: length === 'short' && (parting === 'centre' || tailBesideNeck(grid, region, frame)),
    colour,
    fringe: cover.all,
    parting,
    curl: hairCurl(photo, grid, region.hair, frame) ?? 0,
    volume,
    mask: upsample(grid, region.hair, photo),
  };
}

/** Whether the hair reaches the photo's bottom edge (its last grid row). */
function offBottom(grid: HairGrid, hair: Uint8Array): boolean {
  for (let c = (grid.rows - 1) * grid.columns; c < hair.length; c++) if (hair[c]) return true;
  return false;
}

/** A shaved head's hair: the person's silhouette above the hairline. */
function scalpCells(grid: HairGrid, hairline: number): Uint8Array {
  const out = new Uint8Array(grid.s.length);
  for (let c = 0; c < out.length; c++) out[c] = grid.person[c] && grid.t[c] > hairline ? 1 : 0;
  return out;
}

function upsample(grid: HairGrid, cells: Uint8Array, photo: RgbImage): HairObservation['mask'] {
  const { width, height } = photo;
  const alpha = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    if (y % grid.step !== 0) {
      // Rows within one cell row are the same: copy the previous one.
      alpha.copyWithin(y * width, (y - 1) * width, y * width);
      continue;
    }
    const row = (y / grid.step) * grid.columns;
    for (let x = 0; x < width; x++) if (cells[row + Math.floor(x / grid.step)]) alpha[y * width + x] = 255;
  }
  return { width, height, alpha };
}
