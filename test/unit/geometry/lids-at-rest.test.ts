/**
 * Issue 19 (likeness): a photo avatar's neutral upper lids rest a fifth of the way to closed along its own blink
 * (the detector's contour runs along the lash line). A blink at 1 still closes each eye where it did, the other eye
 * stays at its rest, and the neutral does not depend on the features asked for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { BLINKS, buildBlendshapes, lidsAtRest } from '../../../src/geometry/expressions/blendshapes.ts';
import { PART_NAMES, type MeshName } from '../../../src/geometry/template/types.ts';
import { createPipeline } from '../../../src/pipeline/index.ts';

const tpl = buildTemplate('1.6');
const fitted = { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) };

test('the rest takes a share of both blinks, each blink keeps the rest of its way', () => {
  const morphs = buildBlendshapes(tpl, fitted, [], undefined, BLINKS);
  const before = Object.fromEntries(Object.entries(morphs).map(([mesh, targets]) => [mesh, targets.map((t) => t.deltas.slice())])) as Record<MeshName, Float32Array[]>;
  const rest = lidsAtRest(morphs, 0.2);
  for (const mesh of ['head', 'eyelashes'] as MeshName[]) {
    const [left, right] = before[mesh];
    assert.ok(left.some((d) => d !== 0) && right.some((d) => d !== 0), `${mesh}: both blinks move it`);
    for (let i = 0; i < left.length; i++) {
      assert.ok(Math.abs(rest[mesh][i] - 0.2 * (left[i] + right[i])) < 1e-6);
      // At rest plus the left blink at 1: the left lid closed where it was, the right one at its rest.
      assert.ok(Math.abs(rest[mesh][i] + morphs[mesh][0].deltas[i] - (left[i] + 0.2 * right[i])) < 1e-6);
    }
  }
  assert.ok(rest.teeth.every((d) => d === 0), 'the teeth stay');
});

test('a photo avatar has the same neutral whatever the features', async () => {
  const pipeline = await createPipeline();
  const file = readFileSync(new URL('../../fixtures/faces/p03-a.jpg', import.meta.url));
  // Without expressions the blinks are made for the rest alone, and not kept.
  const [bare, full] = await Promise.all(([[], ['expressions']] as const).map((features) => pipeline.run({ inputType: 'photo', file, template: '1.6', features: [...features] }, () => {})));
  bare.model.meshes.forEach((mesh, m) => assert.deepEqual(mesh.geometry.positions, full.model.meshes[m].geometry.positions, mesh.name));
  assert.equal(bare.model.meshes[0].morphs.length, 0);
});
