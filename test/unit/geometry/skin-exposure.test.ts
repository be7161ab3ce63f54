import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exposureGain, EXPOSURE_SHARE, TYPICAL_SKIN_LUMINANCE } from '../../../src/geometry/texture/skin-exposure.ts';
import { applyGains } from '../../../src/geometry/texture/white-balance.ts';
import { srgbToLinear } from '../../../src/geometry/render/srgb.ts';
import type { Rgb } from '../../../src/geometry/texture/rgb-image.ts';

const luminance = (c: Rgb) => 0.2126 * srgbToLinear[c[0]] + 0.7152 * srgbToLinear[c[1]] + 0.0722 * srgbToLinear[c[2]];
const exposed = (c: Rgb, k: number) => applyGains(c, [k, k, k]);
const corrected = (c: Rgb) => { const k = exposureGain(c); return applyGains(c, [k, k, k]); };

test('two exposures of one skin come closer: their ratio keeps the skin-prior share of its logarithm', () => {
  const skin: Rgb = [200, 150, 125];
  const [dark, light] = [exposed(skin, 0.6), exposed(skin, 1.3)];
  const before = Math.log(luminance(light) / luminance(dark));
  const after = Math.log(luminance(corrected(light)) / luminance(corrected(dark)));
  assert.ok(Math.abs(after - (1 - EXPOSURE_SHARE) * before) < 0.03, `${after} vs ${before}`);
});

test('dark skin stays dark and light skin light, each moving by a share of its distance from typical skin', () => {
  const dark: Rgb = [95, 60, 45];
  const light: Rgb = [240, 205, 185];
  const [d, l] = [corrected(dark), corrected(light)];
  assert.ok(luminance(d) > luminance(dark) && luminance(d) < 0.5 * TYPICAL_SKIN_LUMINANCE, `dark ${d}`);
  assert.ok(luminance(l) < luminance(light) && luminance(l) > 1.3 * TYPICAL_SKIN_LUMINANCE, `light ${l}`);
  // Colour (the channels' ratios) is the white balance's business: exposure scales all channels alike.
  assert.ok(Math.abs(Math.log(srgbToLinear[d[0]] / srgbToLinear[d[2]]) - Math.log(srgbToLinear[dark[0]] / srgbToLinear[dark[2]])) < 0.05);
});
