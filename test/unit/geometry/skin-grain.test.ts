import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addSkinGrain, grainShare, measureGrain, photoGrain } from '../../../src/geometry/texture/skin-grain.ts';

/** A flat square, `cm` on a side, over the atlas's [0.1, 0.9] (two triangles). */
function square(cm: number) {
  return {
    positions: new Float32Array([0, 0, 0, cm, 0, 0, cm, cm, 0, 0, cm, 0]),
    uvs: new Float32Array([0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
  };
}

function flatAtlas(size: number, colour: [number, number, number]): Uint8Array {
  const rgba = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) rgba.set([...colour, 255], i * 4);
  return rgba;
}

function lightness(rgba: Uint8Array, i: number): number {
  return 0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2];
}

test('grainShare: the fill beside the face takes the grain, the photo, the cap, fixed colours and far skin do not', () => {
  // Vertices along x (cm) from an outline vertex at 0.
  const xs = [0, 1, 2, 4.5, 8, 1, 1, 1];
  const positions = new Float32Array(xs.flatMap((x) => [x, 0, 0]));
  const photoWeight = new Float32Array([0, 0, 0, 0, 0, 1, 0.5, 0]);
  const cap = new Float32Array([0, 0, 0, 0, 0, 0, 0, 0.75]);
  const share = grainShare(positions, [0], photoWeight, cap, [2]);
  assert.equal(share[0], 1, 'on the outline, no photo');
  assert.equal(share[1], 1, 'within 3 cm');
  assert.equal(share[2], 0, 'a fixed colour');
  assert.ok(share[3] > 0.1 && share[3] < 0.9, `half-way out fades: ${share[3]}`);
  assert.equal(share[4], 0, 'beyond 6 cm');
  assert.equal(share[5], 0, 'given by the photo');
  assert.equal(share[6], 0.5, 'half given by the photo');
  assert.equal(share[7], 0.25, 'under the cap');
});

test('measureGrain: flat skin has none; a fine pattern reads its strength and how each channel follows the lightness', () => {
  const size = 64;
  assert.ok(measureGrain(flatAtlas(size, [200, 150, 120]), size, [32, 32], 10, 2)!.strength < 1e-9);
  // A checker whose texels differ by +-3 % in red and green and +-4.5 % in blue: browner where darker.
  const rgba = flatAtlas(size, [200, 150, 120]);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const s = (x + y) % 2 ? 1 : -1, at = (y * size + x) * 4;
      rgba[at] = Math.round(200 * (1 + 0.03 * s));
      rgba[at + 1] = Math.round(150 * (1 + 0.03 * s));
      rgba[at + 2] = Math.round(120 * (1 + 0.045 * s));
    }
  }
  const grain = measureGrain(rgba, size, [32, 32], 10, 2)!;
  // The box blur of 5 x 5 texels keeps 1/25 of the checker: its detail is 24/25 of it.
  assert.ok(Math.abs(grain.strength - 0.031 * 0.96) < 0.003, `strength ${grain.strength}`);
  assert.ok(Math.abs(grain.channels[0] - grain.channels[1]) < 0.05, `red and green alike: ${grain.channels}`);
  assert.ok(grain.channels[2] > 1.35 * grain.channels[1], `blue varies more: ${grain.channels}`);
  assert.equal(measureGrain(rgba, size, [3, 32], 10, 2), undefined, 'a patch off the atlas is not measured');
});

test('photoGrain: measured where the photo gives the skin fully and the patch fits in the atlas', () => {
  const size = 64;
  // The square's corners and its centre; the density is read between the first two patches.
  const positions = new Float32Array([0, 0, 0, 4, 0, 0, 4, 4, 0, 0, 4, 0, 2, 2, 0]);
  const uvs = new Float32Array([0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9, 0.5, 0.5]);
  const rgba = flatAtlas(size, [200, 150, 120]);
  for (let i = 0; i < size * size; i += 3) rgba[i * 4] = 190;
  const all = new Float32Array([1, 1, 1, 1, 1]);
  const centre = photoGrain(rgba, size, positions, uvs, all, [0, 1, 4]);
  assert.ok(centre.strength > 0.005, `the centre's patch: ${centre.strength}`);
  assert.equal(photoGrain(rgba, size, positions, uvs, new Float32Array([1, 1, 1, 1, 0.5]), [0, 1, 4]).strength, 0, 'the centre half given');
  assert.equal(photoGrain(rgba, size, positions, uvs, all, [0, 1]).strength, 0, 'corners off the atlas');
});

test('addSkinGrain: grain of the asked strength where the share is, the colour kept on average, nothing elsewhere', () => {
  const size = 128, { uvs, indices } = square(4);
  const base: [number, number, number] = [200, 150, 120];
  const grain = { strength: 0.03, channels: [0.8, 1.1, 1.3] as [number, number, number] };
  const rgba = flatAtlas(size, base);
  addSkinGrain({ rgba, size, uvs, indices, share: new Float32Array([1, 1, 1, 1]), grain });
  const inside: number[] = [];
  for (let y = 20; y < 108; y++) for (let x = 20; x < 108; x++) inside.push(y * size + x);
  const light = inside.map((i) => lightness(rgba, i));
  const mean = light.reduce((s, l) => s + l, 0) / light.length;
  const sd = Math.sqrt(light.reduce((s, l) => s + (l - mean) ** 2, 0) / light.length);
  const flat = lightness(flatAtlas(1, base), 0);
  assert.ok(Math.abs(mean - flat) < 1, `mean lightness ${mean} against ${flat}`);
  assert.ok(Math.abs(sd / flat - 0.03 * 1.05) < 0.008, `relative SD ${sd / flat}`);
  // Blue follows the lightness more than red does.
  const spread = (c: number) => {
    const v = inside.map((i) => rgba[i * 4 + c] / base[c]);
    const m = v.reduce((s, x) => s + x, 0) / v.length;
    return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / v.length);
  };
  assert.ok(spread(2) > 1.3 * spread(0), `blue ${spread(2)} against red ${spread(0)}`);
  // Outside the square's texels, and everywhere with no share, nothing changes.
  assert.deepEqual([...rgba.subarray(0, 4)], [...base, 255]);
  const untouched = flatAtlas(size, base);
  addSkinGrain({ rgba: untouched, size, uvs, indices, share: new Float32Array(4), grain });
  assert.deepEqual(untouched, flatAtlas(size, base));
  // The same surface gives the same grain.
  const again = flatAtlas(size, base);
  addSkinGrain({ rgba: again, size, uvs, indices, share: new Float32Array([1, 1, 1, 1]), grain });
  assert.deepEqual(again, rgba);
});
