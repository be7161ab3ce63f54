/**
 * Issue 19 (likeness): a photo avatar's neutral upper lids rest a fifth of the way to closed along its own blink
 * (the detector's contour runs along the lash line). A blink at 1 still closes each eye where it did, the other eye
 * stays at its rest, and the neutral does not depend on the features asked for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { buildBlendshapes, buildShapesAtRest } from '../../../src/geometry/expressions/blendshapes.ts';
import { countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { PART_NAMES, type MeshName } from '../../../src/geometry/template/types.ts';
import { createPipeline } from '../../../src/pipeline/index.ts';

const tpl = buildTemplate('1.6');
const fitted = { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) };

test('the rest takes a share of both blinks, each blink keeps the rest of its way, the lashes stay clear', () => {
  const plain = buildBlendshapes(tpl, fitted, ['expressions']);
  const { morphs, rest } = buildShapesAtRest(tpl, fitted, ['expressions'], (bytes) => new ArrayBuffer(bytes), 0.2);
  assert.ok(rest);
  const shape = (m: typeof plain, mesh: MeshName, name: string) => m[mesh].find((t) => t.name === name)!.deltas;
  const [left, right] = [shape(plain, 'head', 'eyeBlinkLeft'), shape(plain, 'head', 'eyeBlinkRight')];
  assert.ok(left.some((d) => d !== 0) && right.some((d) => d !== 0));
  for (let i = 0; i < left.length; i++) {
    assert.ok(Math.abs(rest.head[i] - 0.2 * (left[i] + right[i])) < 1e-6);
    // At rest plus the left blink at 1: the left lid closed where it was, the right one at its rest.
    assert.ok(Math.abs(rest.head[i] + shape(morphs, 'head', 'eyeBlinkLeft')[i] - (left[i] + 0.2 * right[i])) < 1e-6);
  }
  assert.ok(rest.eyelashes.some((d) => d !== 0), 'the lashes come down with their lids');
  assert.ok(rest.teeth.every((d) => d === 0) && rest.eyeLeft.every((d) => d === 0), 'the teeth and eyeballs stay');
  // Every shape from the rest: no lash card through the skin.
  const at = (mesh: MeshName, name?: string) => {
    const base = mesh === 'head' ? tpl.head : tpl.parts[mesh];
    const d = name ? shape(morphs, mesh, name) : undefined;
    return { ...base, positions: base.positions.map((x, i) => x + rest[mesh][i] + (d ? d[i] : 0)) };
  };
  for (const name of [undefined, ...morphs.head.map((t) => t.name)]) assert.equal(countIntersectionsBetween(at('head', name), at('eyelashes', name)), 0, name ?? 'rest');
});

test('a photo avatar has the same neutral whatever the features', async () => {
  const pipeline = await createPipeline();
  const file = readFileSync(new URL('../../fixtures/faces/p03-a.jpg', import.meta.url));
  // Without expressions the blinks are made for the rest alone, and not kept.
  const [bare, full] = await Promise.all(([[], ['expressions']] as const).map((features) => pipeline.run({ inputType: 'photo', file, template: '1.6', features: [...features] }, () => {})));
  bare.model.meshes.forEach((mesh, m) => assert.deepEqual(mesh.geometry.positions, full.model.meshes[m].geometry.positions, mesh.name));
  assert.equal(bare.model.meshes[0].morphs.length, 0);
});
