import { test } from 'node:test';
import assert from 'node:assert/strict';
import { whiteBalance, applyGains, balanceIris, hueOfLinear, SKIN_HUE, SKIN_CHROMA } from '../../../src/geometry/texture/white-balance.ts';
import { srgbToLinear } from '../../../src/geometry/render/srgb.ts';
import { srgbToLab, deltaE } from '../../../tools/quality/skin-colour.ts';
import type { Rgb } from '../../../src/geometry/texture/rgb-image.ts';
import { SCLERA } from '../../../src/geometry/texture/bake-parts.ts';

/** The colour under a light of this linear RGB colour (a colour cast). */
const cast = (c: Rgb, light: Rgb): Rgb => applyGains(c, light);
const skin: Rgb = [205, 160, 135];
const sclera: Rgb = [186, 170, 166];

test('a colour cast on skin and eyes is removed: the skin comes back to its colour under white light', () => {
  for (const light of [[1.15, 0.85, 1.2], [1.2, 1.0, 0.7], [0.85, 1.1, 1.05]] as Rgb[]) {
    const wb = whiteBalance(cast(skin, light), { colour: cast(sclera, light), pixels: 5000 });
    const back = applyGains(cast(skin, light), wb.gains);
    // Luminance is kept, so compare colour (a*, b*) only.
    const [a, b] = [srgbToLab(back), srgbToLab(skin)];
    assert.ok(deltaE([0, a[1], a[2]], [0, b[1], b[2]]) < 2.5, `light ${light}: ${a} vs ${b}`);
    assert.ok(deltaE(srgbToLab(cast(skin, light)), srgbToLab(skin)) > 6, 'the cast is visible before');
  }
});

test('without the eyes, a strong cast is pulled back until the skin hue is a skin hue', () => {
  const pink = cast(skin, [1.1, 0.75, 1.35]);
  const lin = (c: Rgb) => c.map((v) => srgbToLinear[v]) as Rgb;
  assert.ok(hueOfLinear(lin(pink)) < SKIN_HUE[0]);
  const wb = whiteBalance(pink);
  const hue = hueOfLinear(lin(applyGains(pink, wb.gains)));
  assert.ok(hue >= SKIN_HUE[0] - 0.5 && hue <= SKIN_HUE[1], `hue ${hue}`);
  // The light reported is the cast: more red and blue than green.
  assert.ok(wb.light[1] < wb.light[0] && wb.light[1] < wb.light[2], `light ${wb.light}`);
});

test('without the eyes, a cast that leaves the skin grey is brought back to a skin colour, at its lightness', () => {
  // A cool light on pale skin: the hue lands inside the band's lower edge, but at a chroma no skin has.
  const pale: Rgb = [243, 209, 188];
  const grey = cast(pale, [0.8, 1, 1.3]);
  assert.ok(Math.hypot(srgbToLab(grey)[1], srgbToLab(grey)[2]) < 5, 'the cast takes the colour');
  const back = srgbToLab(applyGains(grey, whiteBalance(grey).gains));
  const chroma = Math.hypot(back[1], back[2]);
  assert.ok(chroma > SKIN_CHROMA[0] - 0.5 && chroma < SKIN_CHROMA[0] + 1, `chroma ${chroma}`);
  assert.ok(Math.abs(back[0] - srgbToLab(grey)[0]) < 0.5, `lightness ${back[0]}`);
});

test('without the eyes, a warm light on a flushed face is taken back to the most saturated skin', () => {
  const flushed: Rgb = [219, 148, 126];
  const vivid = cast(flushed, [1.25, 1, 0.7]);
  const before = srgbToLab(vivid);
  assert.ok(Math.hypot(before[1], before[2]) > SKIN_CHROMA[1] + 3, `chroma before ${before}`);
  const back = srgbToLab(applyGains(vivid, whiteBalance(vivid).gains));
  const chroma = Math.hypot(back[1], back[2]);
  assert.ok(chroma > SKIN_CHROMA[1] - 0.5 && chroma < SKIN_CHROMA[1] + 1, `chroma ${chroma}`);
});

test('a neutral photo is left as it is', () => {
  const wb = whiteBalance(skin, { colour: sclera, pixels: 5000 });
  wb.gains.forEach((g) => assert.ok(Math.abs(g - 1) < 0.02, `gains ${wb.gains}`));
});

test('eyes whose white reads as red as the skin (lid skin, veins, blur) are not trusted, whatever the light', () => {
  // The white of a squinting or turned eye mixed with the lids: as red against blue as the skin itself.
  const mixed: Rgb = [200, 150, 120];
  assert.deepEqual(whiteBalance(skin, { colour: mixed, pixels: 5000 }).gains, whiteBalance(skin).gains);
  // The same under a cast: the white balance is then the skin's alone (the hue band), as without eyes.
  const light: Rgb = [1.1, 0.75, 1.35];
  const cast = whiteBalance(applyGains(skin, light), { colour: applyGains(mixed, light), pixels: 5000 });
  const skinOnly = whiteBalance(applyGains(skin, light));
  cast.gains.forEach((g, c) => assert.ok(Math.abs(g - skinOnly.gains[c]) < 1e-6, `gains ${cast.gains} vs ${skinOnly.gains}`));
  // A white sclera a little paler than that is trusted in part: the gains move towards the eyes' correction.
  const whiter: Rgb = [196, 160, 140];
  const part = whiteBalance(applyGains(skin, light), { colour: applyGains(whiter, light), pixels: 5000 });
  assert.notDeepEqual(part.gains, skinOnly.gains);
});

const teeth: Rgb = [235, 217, 203];

/**
 * The balanced skin under a light against the same skin balanced under white light, with eyes and teeth of this
 * many pixels (none when 0 or left out).
 */
function castLeft(c: Rgb, light: Rgb, pixels?: number, teethPixels?: number): number {
  const seen = (colour: Rgb, n: number | undefined, l: Rgb) => (n ? { colour: cast(colour, l), pixels: n } : undefined);
  const under = (l: Rgb) => srgbToLab(applyGains(cast(c, l), whiteBalance(cast(c, l), seen(sclera, pixels, l), seen(teeth, teethPixels, l)).gains));
  return deltaE(under(light), under([1, 1, 1]));
}

test('a pink or green light is taken out by the skin alone: skin varies little between people on that axis', () => {
  for (const c of [skin, [243, 209, 188], [150, 100, 75]] as Rgb[]) {
    for (const light of [[1.2, 0.8, 1.15], [0.85, 1.15, 0.85]] as Rgb[]) {
      assert.ok(deltaE(srgbToLab(cast(c, light)), srgbToLab(c)) > 10, 'the cast is visible before');
      const left = castLeft(c, light);
      assert.ok(left < 4, `skin ${c} light ${light}: ΔE ${left}`);
    }
  }
});

test('eyes of an ordinary photo (a few hundred pixels of white) take out a warm or cool light', () => {
  for (const light of [[1.25, 1, 0.7], [0.8, 1, 1.3]] as Rgb[]) {
    const left = castLeft(skin, light, 400);
    assert.ok(left < 2.5, `light ${light}: ΔE ${left}`);
    // Without the eyes only the hue band and the chroma range check a blue-yellow light: much of it stays.
    assert.ok(castLeft(skin, light) > left + 3, `light ${light}: without eyes ΔE ${castLeft(skin, light)}`);
  }
});

test('a pink eye white (veins, lids) in white light moves the skin less than the eyes alone would', () => {
  // The skin's green-magenta says there is no pink light, so that part of the eyes' reading goes; its blue-yellow
  // part (redder against blue than a white) stays, as the skin cannot check it.
  const pink: Rgb = [200, 165, 165];
  const balanced = srgbToLab(applyGains(skin, whiteBalance(skin, { colour: pink, pixels: 500 }).gains));
  const reference = srgbToLab(applyGains(skin, whiteBalance(skin, { colour: sclera, pixels: 500 }).gains));
  // The eyes alone: the gains that take the pink white to a white's colour.
  const lin = (c: Rgb) => c.map((v) => srgbToLinear[v]) as Rgb;
  const eyesAlone = srgbToLab(applyGains(skin, lin(sclera).map((w, c) => w / lin(pink)[c]) as Rgb));
  const [moved, alone] = [deltaE(balanced, reference), deltaE(eyesAlone, reference)];
  assert.ok(moved < 0.6 * alone, `ΔE ${moved} against ${alone} by the eyes alone`);
});

test('teeth take out a warm or cool light where the eyes are not seen (glasses), and agree with the eyes', () => {
  for (const light of [[1.25, 1, 0.7], [0.8, 1, 1.3]] as Rgb[]) {
    const left = castLeft(skin, light, 0, 400);
    assert.ok(left < 2.5, `light ${light}: ΔE ${left}`);
    assert.ok(castLeft(skin, light) > left + 3, `light ${light}: without teeth ΔE ${castLeft(skin, light)}`);
    assert.ok(castLeft(skin, light, 400, 400) < 2.5, `light ${light}: eyes and teeth ΔE ${castLeft(skin, light, 400, 400)}`);
  }
  const neutral = whiteBalance(skin, { colour: sclera, pixels: 5000 }, { colour: teeth, pixels: 5000 });
  neutral.gains.forEach((g) => assert.ok(Math.abs(g - 1) < 0.03, `gains ${neutral.gains}`));
});

test('a mouth whose bright part is lips or tongue (pinker than the skin) is no reference, whatever the light', () => {
  const lips: Rgb = [200, 120, 125];
  for (const light of [[1, 1, 1], [1.25, 1, 0.7], [0.8, 1, 1.3]] as Rgb[]) {
    const withMouth = whiteBalance(cast(skin, light), undefined, { colour: cast(lips, light), pixels: 5000 });
    const without = whiteBalance(cast(skin, light));
    withMouth.gains.forEach((g, c) => assert.ok(Math.abs(g - without.gains[c]) < 1e-6, `light ${light}: ${withMouth.gains} vs ${without.gains}`));
  }
});

/** An iris's CIE a*, b* less a white's. */
const against = (iris: Rgb, white: Rgb): [number, number] => {
  const [i, w] = [srgbToLab(iris), srgbToLab(white)];
  return [i[1] - w[1], i[2] - w[2]];
};
/** The avatar's own white, as the eye texture draws it. */
const avatarWhite = SCLERA;
const greyGreenIris: Rgb = [78, 80, 70];
const pinkWhite: Rgb = [190, 168, 170];

test("a pale iris takes its colour against its own white: a grey-green iris by a pink white is greener on the avatar's white", () => {
  const photo = against(greyGreenIris, pinkWhite);
  const iris = balanceIris(greyGreenIris, [1, 1, 1], skin, { colour: pinkWhite, pixels: 800 }, avatarWhite);
  const avatar = against(iris, avatarWhite);
  const plain = against(greyGreenIris, avatarWhite);
  // Green against the white, as in the photo, where the colour as it was would read warm grey; more strongly than the
  // photo's (the preview's cornea and shade leave about 0.6 of it), and of the same hue.
  assert.ok(photo[0] < -8 && plain[0] > -3, `photo ${photo}, as it was ${plain}`);
  assert.ok(Math.hypot(...avatar) > Math.hypot(...photo), `avatar ${avatar}, photo ${photo}`);
  const hue = (ab: [number, number]) => (Math.atan2(ab[1], ab[0]) * 180) / Math.PI;
  assert.ok(Math.abs(hue(avatar) - hue(photo)) < 20, `hue ${hue(avatar)} against ${hue(photo)}`);
  // Its lightness is the balanced colour's.
  assert.ok(Math.abs(srgbToLab(iris)[0] - srgbToLab(greyGreenIris)[0]) < 0.5, `${iris}`);
});

test('a colour cast on the iris and its white cancels out: the same iris under any light', () => {
  const plain = balanceIris(greyGreenIris, [1, 1, 1], skin, { colour: pinkWhite, pixels: 800 }, avatarWhite);
  for (const light of [[1.2, 1.0, 0.75], [0.85, 1.1, 1.1]] as Rgb[]) {
    const photoSkin = cast(skin, light);
    const wb = whiteBalance(photoSkin, { colour: cast(pinkWhite, light), pixels: 800 });
    const iris = balanceIris(cast(greyGreenIris, light), wb.gains, photoSkin, { colour: cast(pinkWhite, light), pixels: 800 }, avatarWhite);
    const [a, b] = [srgbToLab(iris), srgbToLab(plain)];
    assert.ok(deltaE([0, a[1], a[2]], [0, b[1], b[2]]) < 2, `light ${light}: ${iris} against ${plain}`);
  }
});

test('without a white to trust (none seen, or as red as the skin) the iris is the globally balanced colour', () => {
  const gains: Rgb = [0.9, 1.05, 1.1];
  const balanced = applyGains(greyGreenIris, gains);
  assert.deepEqual(balanceIris(greyGreenIris, gains, skin, undefined, avatarWhite), balanced);
  assert.deepEqual(balanceIris(greyGreenIris, gains, skin, { colour: [200, 150, 130], pixels: 800 }, avatarWhite), balanced);
});
