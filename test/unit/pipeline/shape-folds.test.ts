/**
 * The avatars' blendshapes and jaw keep the fitted head free of crossings.
 * - A lip vertex that lands behind the teeth's front is pushed forward off them; pushed alone (up to 0.38 mouth units
 *   on mouthLeft) it stood out of its neighbours, and mouthLeft and mouthRight folded the lips at the mouth's far
 *   corner on every test photo (43-55 vertices of crossing triangles at mouthLeft on these three).
 * - Where a shape still cuts the closed lips through each other, or into the mouth bag, the crossing corners are pushed
 *   back, and what still crosses has the motion round it smoothed or taken back (lip-clearance.ts). Before, 16 of
 *   p01-a's 84 shapes and visemes crossed there (viseme_PP 61 vertices, jawLeft 51) and 12 of p07-a's (viseme_PP 56).
 * - The jaw's weight fades out behind the jaw's angle over 4 cm. Over 3 cm the skin there folded at jawOpen on 6 of
 *   the 18 photos (8-11 vertices of crossing triangles; p01-a and p07-a here), and with the jaw bone turned open 20
 *   degrees on all 18 (3-16 pairs of crossing triangles). Down the throat it fades out from the template's height
 *   -11 cm over 7 cm: from -9.5 over 5, the jaw bone's turn folded the skin under p12-a's full chin (226 pairs).
 *   The bone at 20 degrees crossed at p02-a's and p03-a's lower lip (5 and 3 pairs, from 15 degrees) until the
 *   neutral's lips were sealed by the lip each vertex belongs to on the template (`lipSides`); since, it crosses at
 *   p12-a's mouth corners (8 pairs, from 17 degrees; the `talk` clip opens it 8.4), whose lower lip, sealed now to
 *   the corners, stands ahead of the upper one there (jawForward 1.0 in its face's make). Since the avatar's jaw weights
 *   are evened where the bone turned open would fold the fitted face (clearJawSkin), none does, on 1.6 either.
 * - The neck tilted back presses the nape together, the head nodded the throat under the chin: over the 4.5 cm fades
 *   the nape folded from 15 degrees on p03-a (42 pairs; at 20 degrees 146, p12-a 105), the throat at 30 degrees (256,
 *   259); both fades are 7.5 cm there now (PRESSED_FADE).
 * - A squinting lower lid's back takes less of its margin's push out the further it lies from the margin; taking all of
 *   it, it came out through the skin in front of it under the lid on 5 of the 36 squints (p11-a's right eye 18
 *   vertices, p06-a's 10).
 * - What still crosses round the eyes in a shape that moves the lids is taken back (eye-untangle.ts).
 * - Where two crossing triangles share a corner (a fan folded round it), that corner is laid back among its neighbours
 *   (lip-clearance.ts). The clearing did not look at such pairs, and on p12-a's 1.6 head jawOpen, viseme_aa and polly_a
 *   folded the fan round the lip corner (7 vertices of crossing triangles each).
 * About two minutes (six photos' avatars).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PhotoPipeline, type PhotoPipelineResult } from '../../../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { checkMesh } from '../../../src/geometry/mesh/checks.ts';
import { intersectingVertices } from '../../../src/geometry/fit/untangle.ts';
import { JAW_OPEN, LID_SHAPES, MADE_ON, type ArkitName } from '../../../src/geometry/expressions/arkit.ts';
import { BONE } from '../../../src/geometry/template/types.ts';
import type { AvatarMesh } from '../../../src/model/avatar.ts';
import type { TemplateVersion } from '../../../src/model/product.ts';
import { axisAngle, poseVertices } from '../../../tools/skinning.ts';

const face = (name: string) => readFileSync(new URL(`../../fixtures/faces/${name}.jpg`, import.meta.url));
const pipeline = new PhotoPipeline(loadTemplateView);
const { lipsInner } = loadTemplateView('2.0').source.loops;
const runs = new Map<string, Promise<PhotoPipelineResult>>();
function avatar(photo: string, template: TemplateVersion = '2.0'): Promise<PhotoPipelineResult> {
  const key = `${photo} ${template}`;
  let run = runs.get(key);
  if (!run) {
    run = pipeline.run({ inputType: 'photo', file: new Uint8Array(face(photo)), template, features: ['expressions', 'visemes'] }, () => {});
    runs.set(key, run);
  }
  return run;
}
const headOf = (result: PhotoPipelineResult) => result.model.meshes.find((m) => m.name === 'head')!;
const crossings = (head: AvatarMesh, positions: Float32Array) => checkMesh({ ...head.geometry, positions }).selfIntersections;
const withShape = (head: AvatarMesh, name: string) => {
  const deltas = head.morphs.find((m) => m.name === name)!.deltas;
  return head.geometry.positions.map((x, i) => x + deltas[i]);
};
/** The head at a shape, a shape made for use on another one (MADE_ON) on it. */
const asUsed = (head: AvatarMesh, name: string) => {
  const base = MADE_ON[name as ArkitName];
  const shaped = withShape(head, name);
  if (base) head.morphs.find((m) => m.name === base)!.deltas.forEach((d, i) => (shaped[i] += d));
  return shaped;
};

test('mouthLeft and mouthRight do not fold the fitted heads at the mouth\'s corners (p03-a, p12-a, p07-a)', { timeout: 300_000 }, async () => {
  for (const photo of ['p03-a', 'p12-a', 'p07-a']) {
    const head = headOf(await avatar(photo));
    for (const name of ['mouthLeft', 'mouthRight']) assert.equal(crossings(head, withShape(head, name)), 0, `${photo} ${name}`);
  }
});

const jawBoneOpen = (result: PhotoPipelineResult, angle = JAW_OPEN) =>
  poseVertices(headOf(result).geometry.positions, headOf(result).skin, result.model.bones, new Map([[BONE.jaw, axisAngle([1, 0, 0], angle)]]));
/** Head vertices within `cm` of the inner lip contour on the neutral head. */
function nearLips(head: AvatarMesh, cm: number): Set<number> {
  const p = head.geometry.positions, contour = lipsInner.map((c) => [p[c * 3], p[c * 3 + 1], p[c * 3 + 2]]);
  const near = new Set<number>();
  for (let v = 0; v < p.length / 3; v++) if (contour.some((c) => Math.hypot(c[0] - p[v * 3], c[1] - p[v * 3 + 1], c[2] - p[v * 3 + 2]) < cm)) near.add(v);
  return near;
}
const allTriangles = (head: AvatarMesh) => Uint32Array.from({ length: head.geometry.indices.length / 3 }, (_, t) => t);

test('jawOpen and the jaw bone turned as far do not fold the fitted heads (p01-a, p07-a, p02-a, p03-a, p12-a)', { timeout: 300_000 }, async () => {
  // p12-a's lower lip stands ahead of the upper at the corners: before the jaw's weights were cleared there
  // (clearJawSkin), the jaw bone turned 17 degrees and more swept it through the upper rim (8 pairs at 20).
  for (const photo of ['p01-a', 'p07-a', 'p02-a', 'p03-a', 'p12-a']) {
    const result = await avatar(photo);
    const head = headOf(result);
    assert.equal(crossings(head, withShape(head, 'jawOpen')), 0, `${photo} jawOpen`);
    assert.equal(crossings(head, jawBoneOpen(result)), 0, `${photo} jaw bone`);
    assert.equal(crossings(head, jawBoneOpen(result, JAW_OPEN / 2)), 0, `${photo} jaw bone half open`);
  }
});

test('the neck tilted back 30 degrees folds no nape, the head nodded 30 degrees no throat (p03-a, p12-a)', { timeout: 300_000 }, async () => {
  for (const photo of ['p03-a', 'p12-a']) {
    const result = await avatar(photo);
    const head = headOf(result);
    for (const [bone, degrees] of [[BONE.neck, -30], [BONE.head, 30]]) {
      const posed = poseVertices(head.geometry.positions, head.skin, result.model.bones, new Map([[bone, axisAngle([1, 0, 0], (degrees * Math.PI) / 180)]]));
      assert.equal(crossings(head, posed), 0, `${photo} bone ${bone} at ${degrees} degrees`);
    }
  }
});

test('eyeSquint does not bring the lower lid\'s back out through its skin (p11-a, p06-a)', { timeout: 300_000 }, async () => {
  for (const photo of ['p11-a', 'p06-a']) {
    const head = headOf(await avatar(photo));
    assert.equal(crossings(head, withShape(head, 'eyeSquintRight')), 0, `${photo} eyeSquintRight`);
  }
});

test('no shape or viseme cuts the closed lips through each other or into the mouth (p01-a, p07-a)', { timeout: 300_000 }, async () => {
  for (const photo of ['p01-a', 'p07-a']) {
    const head = headOf(await avatar(photo));
    const lips = nearLips(head, 2);
    const atLips = (name: string) => [...intersectingVertices(asUsed(head, name), head.geometry.indices, allTriangles(head))].some((v) => lips.has(v));
    assert.deepEqual(head.morphs.filter((m) => atLips(m.name)).map((m) => m.name), [], photo);
  }
});

test('no shape that moves the lids crosses round the eyes (p07-a, p12-a)', { timeout: 300_000 }, async () => {
  // Before the lid shapes were untangled round the eyes (eye-untangle.ts), eyeSquintLeft crossed at the eye's inner
  // corner on both (9 vertices of crossing triangles each).
  for (const photo of ['p07-a', 'p12-a']) {
    const head = headOf(await avatar(photo));
    assert.deepEqual(LID_SHAPES.filter((name) => crossings(head, withShape(head, name)) > 0), [], photo);
  }
});

test('no shape, viseme or jaw bone turn crosses on p12-a\'s light head (1.6)', { timeout: 300_000 }, async () => {
  const result = await avatar('p12-a', '1.6');
  const head = headOf(result);
  assert.equal(crossings(head, head.geometry.positions), 0, 'neutral');
  assert.deepEqual(head.morphs.filter((m) => crossings(head, asUsed(head, m.name)) > 0).map((m) => m.name), []);
  // Its lower lip's corner swept through the upper rim behind it at 20 degrees (4 pairs) before clearJawSkin.
  assert.equal(crossings(head, jawBoneOpen(result)), 0, 'jaw bone');
});
