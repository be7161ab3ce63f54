/**
 * The lash cards against the head on the avatars of the test photos (issue 20: lashes that follow the lids without
 * cutting them): per avatar, the pairs of lash and head triangles that cross on the neutral head and at eyeBlinkLeft
 * and eyeBlinkRight = 1 (with --all, the most over every shape, at 1 and a quarter, half and three quarters of the way
 * to it, as an animation blends the deltas), and how far the neutral lashes were moved from
 * where their skin triangles put them (their roots, mm, and the turn of their columns, degrees), and at blink from
 * where the neutral's lashes, following their triangles, would be (mm).
 * Usage: node --import tsx scripts/lash-crossings.ts [--template 1.6|2.0] [--all] [photo ...]
 * (names in test/fixtures/faces without .jpg; all of them by default).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPipeline } from '../src/pipeline/index.ts';
import { buildTemplate } from '../src/pipeline/head-template.ts';
import { placeBoundPart, rebind } from '../src/geometry/template/bound-parts.ts';
import { countIntersectionsBetween } from '../src/geometry/mesh/checks.ts';
import type { TemplateVersion } from '../src/model/product.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const args = process.argv.slice(2);
const at = args.indexOf('--template');
const version = (at >= 0 ? args.splice(at, 2)[1] : '2.0') as TemplateVersion;
const all = args.includes('--all');
const named = args.filter((a) => !a.startsWith('--'));
const photos = named.length > 0 ? named : readdirSync(FACES).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4));
const template = buildTemplate(version);
const roots = template.lashRoots;
const pipeline = await createPipeline();
const total = { rest: 0, blink: 0, shapes: 0, halfWay: 0, quarters: 0, shift: 0, turn: 0, blinkMove: 0 };
for (const photo of photos) {
  const run = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template: version, features: ['expressions'] }, () => {}).catch((e: Error) => e);
  if (run instanceof Error) {
    console.log(`${photo}: refused (${run.message})`);
    continue;
  }
  const mesh = (name: string) => run.model.meshes.find((m) => m.name === name)!;
  const head = mesh('head'), lashes = mesh('eyelashes');
  const shapedAt = (m: typeof head, shape: string, weight = 1) => {
    const deltas = m.morphs.find((t) => t.name === shape)!.deltas;
    return { ...m.geometry, positions: m.geometry.positions.map((x, i) => x + weight * deltas[i]) };
  };
  const crossingsAt = (shape: string, weight = 1) => countIntersectionsBetween(shapedAt(head, shape, weight), shapedAt(lashes, shape, weight));
  const rest = countIntersectionsBetween(head.geometry, lashes.geometry);
  const blink = crossingsAt('eyeBlinkLeft') + crossingsAt('eyeBlinkRight');
  const hosts = (shape?: string) => {
    const at = (m: typeof head) => (shape ? shapedAt(m, shape).positions : m.geometry.positions);
    return { head: at(head), eyeLeft: at(mesh('eyeLeft')), eyeRight: at(mesh('eyeRight')) };
  };
  // At blink, how far the lashes were moved from where their triangles put them (from the neutral's lashes on them).
  const own = rebind(template, 'eyelashes', lashes.geometry.positions, hosts());
  let blinkMove = 0;
  for (const shape of ['eyeBlinkLeft', 'eyeBlinkRight']) {
    const followed = placeBoundPart(template, 'eyelashes', hosts(shape), own), shaped = shapedAt(lashes, shape).positions;
    for (let i = 0; i < shaped.length; i += 3) blinkMove = Math.max(blinkMove, Math.hypot(shaped[i] - followed[i], shaped[i + 1] - followed[i + 1], shaped[i + 2] - followed[i + 2]));
  }
  const shapes = all ? Math.max(...head.morphs.map((m) => crossingsAt(m.name))) : 0;
  const halfWay = all ? Math.max(...head.morphs.map((m) => crossingsAt(m.name, 0.5))) : 0;
  // The shape and weight with the most pairs at a quarter or three quarters of the way.
  let quarters = 0, quartersAt = '';
  if (all) for (const m of head.morphs) for (const w of [0.25, 0.75]) {
    const n = crossingsAt(m.name, w);
    if (n > quarters) (quarters = n), (quartersAt = `${m.name} at ${w}`);
  }
  // Where the skin triangles put the lashes, before anything keeps them out of the skin.
  const placed = placeBoundPart(template, 'eyelashes', hosts());
  const p = lashes.geometry.positions;
  let shift = 0, turn = 0;
  const tips = new Map<number, number>();
  for (let v = 0; v < roots.length; v++) tips.set(roots[v], v);
  for (const [root, tip] of tips) {
    const r = 3 * root, t = 3 * tip;
    shift = Math.max(shift, Math.hypot(p[r] - placed[r], p[r + 1] - placed[r + 1], p[r + 2] - placed[r + 2]));
    const a = [0, 1, 2].map((k) => placed[t + k] - placed[r + k]), b = [0, 1, 2].map((k) => p[t + k] - p[r + k]);
    const cos = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b));
    turn = Math.max(turn, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
  }
  total.rest += rest;
  total.blink += blink;
  total.shapes = Math.max(total.shapes, shapes);
  total.halfWay = Math.max(total.halfWay, halfWay);
  total.quarters = Math.max(total.quarters, quarters);
  total.shift = Math.max(total.shift, shift);
  total.turn = Math.max(total.turn, turn);
  total.blinkMove = Math.max(total.blinkMove, blinkMove);
  console.log(`${photo}: ${rest} pairs at rest, ${blink} at blink${all ? `, at most ${shapes} in a shape (${halfWay} half way, ${quarters} at a quarter or three quarters${quarters ? `: ${quartersAt}` : ''})` : ''}; roots moved up to ${(10 * shift).toFixed(2)} mm, columns turned up to ${turn.toFixed(1)}°; at blink lashes moved up to ${(10 * blinkMove).toFixed(2)} mm`);
}
console.log(`template ${version}: ${total.rest} pairs at rest, ${total.blink} at blink${all ? `, at most ${total.shapes} in a shape (${total.halfWay} half way, ${total.quarters} at a quarter or three quarters)` : ''}; roots moved up to ${(10 * total.shift).toFixed(2)} mm, columns turned up to ${total.turn.toFixed(1)}°; at blink lashes moved up to ${(10 * total.blinkMove).toFixed(2)} mm`);
// The pipeline's helper thread keeps the process alive.
process.exit(0);
