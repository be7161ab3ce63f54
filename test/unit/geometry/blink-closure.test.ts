/**
 * Issue 20 item 3, "Blink closure: no lid gap at weight 1": eyeBlink* = 1 closes the lids: seen from the front and
 * from below, the closed upper lid lies over the lower one, in front of its skin, and hides the eyeball it showed open.
 * On the templates and on heads fitted to photos, and without the head cutting through itself anywhere it did not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { createPipeline } from '../../../src/pipeline/index.ts';
import { buildBlendshapes } from '../../../src/geometry/expressions/blendshapes.ts';
import { PART_NAMES } from '../../../src/geometry/template/types.ts';
import { countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { LID_VIEWS, selfIntersections, stillSeen as seen, type Mesh } from '../../../tools/quality/lid-closure.ts';
import type { TemplateVersion, Vec3 } from '../../../src/model/avatar.ts';

const SHAPES = [['eyeLeft', 'eyeBlinkLeft'], ['eyeRight', 'eyeBlinkRight']] as const;
const below = (degrees: number): Vec3 => [0, -Math.sin((degrees * Math.PI) / 180), Math.cos((degrees * Math.PI) / 180)];
/** The views: LID_VIEWS (front, 37 degrees below), 20 and 50 degrees below. */
const VIEWS = [...LID_VIEWS, below(20), below(50)];
const VIEW_NAMES = ['front', 'below 37°', 'below 20°', 'below 50°'];
/**
 * The most of the open eye's eyeball still seen at blink, from each view (pixels of 0.2 mm: 0.5 % is a few dozen, 0.1 %
 * a few), on the templates (fitted heads, whose lower lids recede more steeply, have their own: FITTED). Seen now at most: templates
 * 0 % from the front, 0.45 % from 37 degrees (1.6's left eye), 0.07 % from 20, 0.63 % from 50; the three fitted heads
 * 0 %, 0.04 % (p07-a's eyes; 0.16 % on its right eye with the lining lifted a little less), 0 % and 0.50 % (p13-a's left; p07-a's left 0.88 % until the lowering counted the eyeball's clearance).
 */
const LIMIT = [0.001, 0.0075, 0.003, 0.01];

/** The share of the open eye's eyeball still seen with the lids closed, from each of VIEWS. */
function stillSeen(open: Mesh, closed: Mesh, eye: Mesh): number[] {
  return seen(open, closed, eye, VIEWS).map(({ open: before, share }) => {
    // (From 50 degrees below, the open eye shows 1,000-1,800 pixels, more from nearer the front.)
    assert.ok(before > 800, `the open eye shows (${before} px)`);
    return share;
  });
}

for (const version of ['1.6', '2.0'] as const) {
  test(`${version}: eyeBlink* at 1 hides the eyeball from the front and from below, without a fold`, () => {
    const tpl = buildTemplate(version);
    const shapes = buildBlendshapes(tpl, { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) }, ['expressions']);
    for (const [eye, shape] of SHAPES) {
      const deltas = shapes.head.find((m) => m.name === shape)!.deltas;
      const closed = { ...tpl.head, positions: tpl.head.positions.map((x, i) => x + deltas[i]) };
      // Before (9b40ee5) 1.4-2.0 % stayed seen from the front, 2.1-4.1 % from 37 degrees below, through lens-shaped
      // slits between the upper margin's straight edges; then none from the front, 1.1-1.5 % from 37 degrees and
      // 2.9-3.3 % from 50; with the margin brought further down to hide the eye from below, 0.1-0.5 % and 0.5-1.2 %.
      stillSeen(tpl.head, closed, tpl.parts[eye]).forEach((share, k) => assert.ok(share < LIMIT[k], `${shape} ${VIEW_NAMES[k]}: ${(100 * share).toFixed(2)} % still seen`));
      assert.equal(selfIntersections(closed), 0, `${shape}: the head folds`);
    }
  });
}

/**
 * Fitted faces differ from the template (their lower lids slope and recede). Before, eyeBlinkLeft and eyeBlinkRight
 * together made 6 (p03-a), 6 (p07-a) and 0 (p13-a) pairs of head triangles cut through each other, and 2.5-3.6 %
 * of the eyeball stayed seen from the front, 3.6-7.1 % from below; the neutral fitted heads have no crossing. With the
 * upper margin brought further down to hide the eye from below (where that makes no crossing), at most 0.22 % stays
 * seen from the front, 1.31 % from 37 degrees below and 5.94 % from 50 (p07-a's left eye, where the fold check keeps
 * it; the other five eyes 0.18-3.42 %, against 2.34-3.42 % before). The margin's points near the corners, faded there
 * by their distance from the lid centre, left up to 0.11 % seen from the front (p03-a's and p07-a's right eyes); closed
 * in full, none. Where the lowering made a crossing, all its points went back unless one nearest the crossing had come
 * down; the lowered points nearest it going back, p07-a's left eye shows 0.68 % from 37 degrees and 4.33 % from 50; with
 * what lies behind the closed margin lifted out of the lower lid's way before the margin is held back, 0.04 % and 0.88 %. The lash
 * cards, which ride on skin triangles the closing lid shears, cut the closed lids until they were kept out of the skin
 * (p03-a 54, p07-a 11, p13-a 35 new pairs of lash and head triangles; the templates' never did). The neutral fitted
 * heads' lashes cut the lower lids at rest (13, 23 and 13 pairs) until the neutral's went through the same clearance
 * (lash-rest.test.ts).
 */
/**
 * 1.6's lids have no thickness and its margin 7 points: on p03-a's right eye and p10-b's left 3.36 % and 2.58 % stayed
 * seen from the front, 11.7 % and 5.8 % from 37 degrees below, until the socket's lining behind the rim moved with the
 * margin as 2.0's lid back does and the margin's edges stood in front of the lower lid's bulge as its points do: 0.30 %
 * and 0.25 % from the front, 1.15 % and 1.85 % from 37 degrees.
 * p03-b's right eye on 1.6: the fold check held the margin back near the inner corner, where what lies behind it would
 * cut the lower rim, and 0.91 % stayed seen from the front through the slit, 2.87 % from 37 degrees; with the lower
 * lid's rim and skin pressed down there instead (as far as they stay over the closed margin), 0.02 % and 0.38 %.
 * p12-a's left eye on 2.0: the lid's back and the socket's lining behind the closed lid folded on themselves (26 pairs
 * of triangles, which holding the margin back did not undo) until their motion was smoothed there. Its right eye showed
 * 0.38 % from the front, 0.96 % from 20 degrees and 1.07 % from 37, where the fold check held the margin back near the
 * nose; with the points still short closed in full, further out where they must (closeAhead), 0 %, 0.25 % and 0.73 %.
 * p03-a's right eye on 1.6, held back the same way, showed 0.38 % from the front: closed ahead, 0.09 % (p10-b's right
 * 0.11 % -> 0), a little more from 37 degrees, where its points stand further out (1.15 -> 1.20 %, p10-b's 1.05 -> 1.40 %).
 */
const FITTED: { template: TemplateVersion; photos: string[]; limit: number[] }[] = [
  { template: '2.0', photos: ['p03-a', 'p07-a', 'p13-a'], limit: [0.001, 0.0025, 0.002, 0.02] },
  { template: '2.0', photos: ['p12-a'], limit: [0.001, 0.01, 0.005, 0.03] },
  { template: '1.6', photos: ['p03-a', 'p10-b', 'p03-b'], limit: [0.002, 0.025, 0.015, 0.08] },
];
const FACES = path.resolve(import.meta.dirname, '../../fixtures/faces');

const pipeline = createPipeline();

for (const { template, photos, limit } of FITTED) for (const photo of photos) {
  test(`${template}, ${photo}: eyeBlink* at 1 on the fitted head hides the eyeball, without a fold`, async () => {
    const { model } = await (await pipeline).run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template, features: ['expressions'] }, () => {});
    const mesh = (name: string) => model.meshes.find((m) => m.name === name)!;
    const head = mesh('head');
    let folds = 0, lashCuts = 0;
    for (const [eye, shape] of SHAPES) {
      const closedAt = (m: typeof head) => {
        const deltas = m.morphs.find((t) => t.name === shape)!.deltas;
        return { ...m.geometry, positions: m.geometry.positions.map((x, i) => x + deltas[i]) };
      };
      const closed = closedAt(head);
      lashCuts += countIntersectionsBetween(closed, closedAt(mesh('eyelashes'))) - countIntersectionsBetween(head.geometry, mesh('eyelashes').geometry);
      stillSeen(head.geometry, closed, mesh(eye).geometry).forEach((share, k) => assert.ok(share < limit[k], `${shape} ${VIEW_NAMES[k]}: ${(100 * share).toFixed(2)} % still seen`));
      folds += selfIntersections(closed) - selfIntersections(head.geometry);
    }
    assert.equal(folds, 0, `${folds} new self-intersections at blink`);
    // (Fewer than at rest where a lash the closing lid reaches was already in the skin: it is moved out with the rest.)
    assert.ok(lashCuts <= 0, `${lashCuts} new pairs of lash and head triangles cross at blink`);
  });
}
