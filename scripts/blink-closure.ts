/**
 * The eyeball still seen through closed lids on the avatars of every test photo (issue 20 item 3): per eye, the share
 * of the open eye's eyeball seen at eyeBlink* = 1 from the front and from 20, 37 and 50 degrees below, and the pairs
 * of head triangles that cross at blink and did not open, and the pairs of lash card and head triangles that cross at
 * blink and not on the neutral head; then the worst and the mean over the eyes (the lash pairs summed where positive).
 * Usage: node --import tsx scripts/blink-closure.ts [--template 1.6|2.0] [photo ...] (names in test/fixtures/faces
 * without .jpg; all of them by default). Template 2.0 by default, the `expressions` feature.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Vec3 } from '../src/model/avatar.ts';
import { TEMPLATES, type TemplateVersion } from '../src/model/product.ts';
import { createPipeline } from '../src/pipeline/index.ts';
import { countIntersectionsBetween } from '../src/geometry/mesh/checks.ts';
import { selfIntersections, stillSeen } from '../tools/quality/lid-closure.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const below = (degrees: number): Vec3 => [0, -Math.sin((degrees * Math.PI) / 180), Math.cos((degrees * Math.PI) / 180)];
const VIEWS: [string, Vec3][] = [['front', [0, 0, 1]], ['below 20', below(20)], ['below 37', below(37)], ['below 50', below(50)]];

const args = process.argv.slice(2);
const at = args.indexOf('--template');
const template = (at >= 0 ? args.splice(at, 2)[1] : '2.0') as TemplateVersion;
if (!TEMPLATES.includes(template)) throw new Error(`--template: one of ${TEMPLATES.join(', ')}`);
const photos = args.length > 0 ? args : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const pipeline = await createPipeline();
const worst = VIEWS.map(() => 0), total = VIEWS.map(() => 0);
let eyeCount = 0, crossings = 0, lashCrossings = 0;
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template, features: ['expressions'] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const mesh = (name: string) => run.model.meshes.find((m) => m.name === name)!;
  const head = mesh('head');
  const neutral = selfIntersections(head.geometry);
  const lashes = mesh('eyelashes');
  const restLashCrossings = countIntersectionsBetween(head.geometry, lashes.geometry);
  const eyes = (['Left', 'Right'] as const).map((side) => {
    const closedAt = (m: typeof head) => {
      const deltas = m.morphs.find((t) => t.name === `eyeBlink${side}`)!.deltas;
      return { ...m.geometry, positions: m.geometry.positions.map((x, i) => x + deltas[i]) };
    };
    const closed = closedAt(head);
    const lashCuts = countIntersectionsBetween(closed, closedAt(lashes)) - restLashCrossings;
    const shares = stillSeen(head.geometry, closed, mesh(`eye${side}`).geometry, VIEWS.map(([, v]) => v)).map(({ share }, k) => {
      worst[k] = Math.max(worst[k], share);
      total[k] += share;
      return `${VIEWS[k][0]} ${(100 * share).toFixed(2)} %`;
    });
    const folds = selfIntersections(closed) - neutral;
    eyeCount++;
    crossings += folds;
    lashCrossings += Math.max(0, lashCuts);
    return `${side.toLowerCase()}: ${shares.join(', ')}; ${folds} new crossings, ${lashCuts} new lash crossings`;
  });
  console.log(`${photo}: ${eyes.join(' | ')} (lashes crossing the neutral head: ${restLashCrossings})`);
}
console.log(`worst: ${VIEWS.map(([name], k) => `${name} ${(100 * worst[k]).toFixed(2)} %`).join(', ')}`);
console.log(`mean over ${eyeCount} eyes: ${VIEWS.map(([name], k) => `${name} ${((100 * total[k]) / eyeCount).toFixed(2)} %`).join(', ')}; ${crossings} new crossings, ${lashCrossings} new lash crossings`);
// The pipeline's helper thread keeps the process alive.
process.exit(0);
