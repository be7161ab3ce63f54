/**
 * Issue 20 item 4: the mouth's parts and inside are shaded as an open mouth shades them (its inside is closed at
 * rest, so the occlusion map cannot): back teeth, the gums' back, the tongue's root and the throat darker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bakeMouthPartTexture } from '../../../src/geometry/texture/bake-parts.ts';
import { CROWN_U, GUMS_BELOW_V, TOOTH_COLUMNS } from '../../../src/geometry/template/mouth-parts.ts';

const SIZE = 256;
/** Mean luminance of the texture's texels in the UV rectangle [u0, u1) x [v0, v1) (v up). */
function brightness(rgba: Uint8Array, u0: number, u1: number, v0: number, v1: number): number {
  let sum = 0, n = 0;
  for (let y = Math.floor((1 - v1) * SIZE); y < Math.ceil((1 - v0) * SIZE); y++) {
    for (let x = Math.floor(u0 * SIZE); x < Math.ceil(u1 * SIZE); x++) {
      const i = 4 * (y * SIZE + x);
      sum += 0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2];
      n++;
    }
  }
  return sum / n;
}

test('the teeth darken from the incisors back to the molars and towards the gums; the gums towards the back', () => {
  const teeth = bakeMouthPartTexture(SIZE, 'teeth', GUMS_BELOW_V);
  const crown = (k: number, from: number, to: number) => {
    const u = k / TOOTH_COLUMNS + CROWN_U[0], w = CROWN_U[1] - CROWN_U[0];
    return brightness(teeth, u + from * w, u + to * w, GUMS_BELOW_V + 0.05, 0.95);
  };
  assert.ok(crown(TOOTH_COLUMNS - 1, 0, 1) < 0.6 * crown(0, 0, 1), `molars ${crown(TOOTH_COLUMNS - 1, 0, 1).toFixed(0)}, incisors ${crown(0, 0, 1).toFixed(0)}`);
  assert.ok(crown(0, 0, 0.2) < 0.9 * crown(0, 0.8, 1), 'an incisor darker at its root than at its edge');
  const gums = (u0: number, u1: number) => brightness(teeth, u0, u1, 0.01, GUMS_BELOW_V - 0.01);
  assert.ok(gums(0.02, 0.1) < 0.7 * gums(0.45, 0.55) && gums(0.9, 0.98) < 0.7 * gums(0.45, 0.55), 'the gums darker at the back');
});

test("the tongue darkens towards its root and underside, with a groove down its top", () => {
  const tongue = bakeMouthPartTexture(SIZE, 'tongue', GUMS_BELOW_V);
  const top = 0.74;
  assert.ok(brightness(tongue, 0.02, 0.1, top - 0.1, top + 0.1) < 0.6 * brightness(tongue, 0.7, 0.8, top - 0.1, top + 0.1), 'root darker than the front');
  assert.ok(brightness(tongue, 0.6, 0.8, 0.2, 0.3) < 0.8 * brightness(tongue, 0.6, 0.8, top + 0.05, top + 0.15), 'underside darker than the top');
  assert.ok(brightness(tongue, 0.6, 0.8, top - 0.01, top + 0.01) < 0.9 * brightness(tongue, 0.6, 0.8, top + 0.05, top + 0.1), 'the groove darker beside it');
});
