import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strandPattern, tintHair } from '../../../src/geometry/hair/strand-texture.ts';
import type { Rgb } from '../../../src/geometry/texture/rgb-image.ts';
import { seededRandom } from '../../../src/util/seeded-random.ts';
import { ATLAS, cardColumn } from '../../../src/geometry/hair/atlas.ts';

/** The tint by its definition: dark to base to light by tone, times shade, rounded and clamped to a byte. */
function reference(colour: { base: Rgb; dark: Rgb; light: Rgb }): Uint8Array {
  const p = strandPattern();
  const out = new Uint8Array(p.size * p.size * 4);
  for (let i = 0; i < p.size * p.size; i++) {
    const t = p.tone[i];
    for (let k = 0; k < 3; k++) {
      const c = t < 0.5 ? colour.dark[k] + (colour.base[k] - colour.dark[k]) * (t * 2) : colour.base[k] + (colour.light[k] - colour.base[k]) * (t * 2 - 1);
      out[i * 4 + k] = Math.max(0, Math.min(255, Math.round(c * p.shade[i])));
    }
    out[i * 4 + 3] = p.alpha[i];
  }
  return out;
}

test('the tinted hair texture is the pattern in the observed colours, rounded and clamped as bytes', () => {
  const rnd = seededRandom(11);
  const colour = () => [0, 1, 2].map(() => Math.round(rnd() * 255)) as Rgb;
  // Black, white (the brightest strands clamp) and colours with fractions, where rounding decides.
  const cases = [
    { base: [0, 0, 0], dark: [0, 0, 0], light: [0, 0, 0] },
    { base: [250, 250, 250], dark: [200, 210, 220], light: [255, 255, 255] },
    { base: [80.5, 60.25, 40.75], dark: [30.5, 20.5, 10.5], light: [160.5, 120.5, 90.5] },
    { base: colour(), dark: colour(), light: colour() },
  ] as { base: Rgb; dark: Rgb; light: Rgb }[];
  for (const c of cases) {
    const image = tintHair(c);
    assert.equal(image.width, strandPattern().size);
    assert.ok(Buffer.from(image.rgba).equals(Buffer.from(reference(c))), JSON.stringify(c));
  }
});

test('a strand keeps its tone down its length: no row changes it by more than a fifth of what one strand to the next does', () => {
  const p = strandPattern();
  // The bodies of two card columns, the sheet and the under-layer shell, clear of their tips and padding.
  const regions: [number, number, number, number][] = [[...cardColumn(0), 0.3, 0.95], [...cardColumn(3), 0.3, 0.95], [ATLAS.sheet.u0, ATLAS.sheet.u1, 0.3, 0.95], [ATLAS.shell.u0, ATLAS.shell.u1, 0.6, 0.98]];
  for (const [u0, u1, v0, v1] of regions) {
    const x0 = Math.ceil(u0 * p.size) + 2, x1 = Math.floor(u1 * p.size) - 2, y0 = Math.ceil((1 - v1) * p.size), y1 = Math.floor((1 - v0) * p.size);
    for (let y = y0; y < y1 - 1; y++) {
      let along = 0, across = 0;
      for (let x = x0; x < x1 - 1; x++) {
        along += Math.abs(p.tone[(y + 1) * p.size + x] - p.tone[y * p.size + x]);
        across += Math.abs(p.tone[y * p.size + x + 1] - p.tone[y * p.size + x]);
      }
      assert.ok(along < 0.2 * across, `u ${u0.toFixed(2)}-${u1.toFixed(2)}, row ${y}: a seam across the strands (${(along / across).toFixed(2)} of a strand-to-strand step)`);
    }
  }
});

test('the hairline ends strand by strand, each a texel wide and fading over a fifth of the band or more', () => {
  const p = strandPattern();
  const x0 = Math.ceil(ATLAS.shell.u0 * p.size), x1 = Math.floor(ATLAS.shell.u1 * p.size);
  const y1 = Math.ceil((1 - ATLAS.shell.v0) * p.size), band = Math.round(ATLAS.shell.feather * p.size);
  const column = (x: number) => Array.from({ length: band }, (_, k) => p.alpha[(y1 - band + k) * p.size + x]);
  let same = 0;
  const soft: number[] = [];
  for (let x = x0; x < x1 - 1; x++) {
    const [a, b] = [column(x), column(x + 1)];
    if (a.every((v, k) => v === b[k])) same++;
    soft.push(a.filter((v) => v > 10 && v < 245).length);
  }
  soft.sort((a, b) => a - b);
  assert.ok(same < 0.1 * (x1 - x0), `${same} of ${x1 - x0} neighbouring columns end alike (strands wider than a texel)`);
  assert.ok(soft[soft.length >> 1] >= 0.2 * band, `a strand's tip fades over ${soft[soft.length >> 1]} texels, band ${band}`);
});
