import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ShapeWorker, shapesHere } from '../../../src/pipeline/shape-worker.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import type { MorphTarget } from '../../../src/model/avatar.ts';

test('the blendshape thread builds the same shapes and clips as the calling thread', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  // A fitted head a little wider than the template: the shapes follow the geometry they are given.
  const head = tpl.meshes[0].geometry.positions.map((v, i) => (i % 3 === 0 ? v * 1.1 : v));
  const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions.slice()]));
  const features = ['basic', 'visemes'] as const;
  const workers = new ShapeWorker();
  try {
    const here = await shapesHere(tpl, { head, parts }, [...features]);
    const there = await workers.source(tpl, { head, parts }, [...features]);
    assert.ok(there.ms > 0);
    const want = here.shapes.morphs as Record<string, MorphTarget[]>;
    const got = there.shapes.morphs as Record<string, MorphTarget[]>;
    assert.deepEqual(Object.keys(got), Object.keys(want));
    for (const [mesh, targets] of Object.entries(want)) {
      assert.deepEqual(got[mesh].map((t) => t.name), targets.map((t) => t.name), mesh);
      // Visemes that copy an ARKit shape share its deltas: they arrive intact however often they are listed.
      targets.forEach((t, k) => assert.deepEqual(got[mesh][k].deltas, t.deltas, `${mesh} ${t.name}`));
    }
    assert.ok(want.head.some((t) => t.deltas.some((d) => d !== 0)));
    assert.deepEqual(there.shapes.animations, here.shapes.animations);
    // The input is the caller's still: only the results move between the threads.
    assert.equal(head.length, tpl.meshes[0].geometry.positions.length);
  } finally {
    await workers.close();
  }
});

test('a failure on the blendshape thread fails that request only', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const workers = new ShapeWorker();
  try {
    await assert.rejects(workers.source({ ...tpl, version: 'no-such-template' as never }, { head: new Float32Array(3), parts: {} }, ['basic']), /blendshape thread/);
    const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions]));
    const ok = await workers.source(tpl, { head: tpl.meshes[0].geometry.positions, parts }, ['basic']);
    assert.ok(ok.shapes.morphs!.head!.length > 0);
  } finally {
    await workers.close();
  }
});
