import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HelperThread, renderHere, shapesHere } from '../../../src/pipeline/helper-thread.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import type { AvatarModel, MorphTarget } from '../../../src/model/avatar.ts';
import { modelFileClaims, writeModelFiles } from '../../../src/formats/write/packages.ts';
import { withoutTemplateArrays } from '../../../src/pipeline/model-transfer.ts';
import { uvSphere } from '../../fixtures/shapes.ts';
import { encodeShapes } from '../../../src/formats/write/fbx/blendshapes.ts';
import { sparseShape } from '../../../src/formats/write/sparse-shape.ts';

test('the helper thread builds the same shapes and clips as the calling thread', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  // A fitted head a little wider than the template: the shapes follow the geometry they are given.
  const head = tpl.meshes[0].geometry.positions.map((v, i) => (i % 3 === 0 ? v * 1.1 : v));
  const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions.slice()]));
  const features = ['basic', 'visemes'] as const;
  const workers = new HelperThread();
  try {
    const here = await shapesHere(tpl, { head, parts }, [...features]);
    const there = await workers.shapes(tpl, { head, parts }, [...features]);
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
    // In memory both threads share: the model later sent back for its files carries them without a copy.
    assert.ok(Object.values(got).every((targets) => targets.every((t) => t.deltas.buffer instanceof SharedArrayBuffer)));
    assert.deepEqual(there.shapes.animations, here.shapes.animations);
    // The input is the caller's still: only the results move between the threads.
    assert.equal(head.length, tpl.meshes[0].geometry.positions.length);
  } finally {
    await workers.close();
  }
});

test("a shapes result's memory is the next avatar's once it is released, and not before", { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions.slice()]));
  const wider = (k: number) => tpl.meshes[0].geometry.positions.map((v, i) => (i % 3 === 0 ? v * k : v));
  const deltasOf = (built: Awaited<ReturnType<HelperThread['shapes']>>) => built.shapes.morphs!.head!.map((t) => t.deltas);
  const workers = new HelperThread();
  try {
    const a = await workers.shapes(tpl, { head: wider(1.1), parts }, ['basic', 'visemes']);
    const before = deltasOf(a).map((d) => d.slice());
    // Not released: another avatar's shapes are made elsewhere.
    const b = await workers.shapes(tpl, { head: wider(0.9), parts }, ['basic', 'visemes']);
    assert.deepEqual(deltasOf(a), before);
    assert.notDeepEqual(deltasOf(b), before);
    // Released: the next avatar's are made in its memory.
    a.release();
    const c = await workers.shapes(tpl, { head: wider(0.9), parts }, ['basic', 'visemes']);
    assert.deepEqual(deltasOf(a), deltasOf(c));
    assert.notDeepEqual(deltasOf(a), before);
    // Made there, they are what they are made anywhere: nothing of the last avatar's is left in them.
    assert.deepEqual(deltasOf(c), deltasOf(b));
    b.release();
    c.release();
  } finally {
    await workers.close();
  }
});

test('a failure on the helper thread fails that request only', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const workers = new HelperThread();
  try {
    await assert.rejects(workers.shapes({ ...tpl, version: 'no-such-template' as never }, { head: new Float32Array(3), parts: {} }, ['basic']), /pipeline helper thread/);
    const parts = Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions]));
    const ok = await workers.shapes(tpl, { head: tpl.meshes[0].geometry.positions, parts }, ['basic']);
    assert.ok(ok.shapes.morphs!.head!.length > 0);
  } finally {
    await workers.close();
  }
});

test('the helper thread draws the same pixels as the calling thread, texture and all', { timeout: 120_000 }, async () => {
  const texture = { width: 2, height: 2, rgba: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]) };
  const items = [{ geometry: uvSphere(0.5, 24, 12), texture, roughness: 0.4 }];
  const camera = { type: 'perspective' as const, fovY: 30, eye: [0.4, 0.3, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number], up: [0, 1, 0] as [number, number, number] };
  const views = [
    { camera, opts: { width: 64, height: 64, supersample: 2 as const } },
    { camera: { ...camera, eye: [2, 0, 2] as [number, number, number] }, opts: { width: 32, height: 48 } },
  ];
  const workers = new HelperThread();
  try {
    const here = await renderHere(items, views);
    const there = await workers.render(items, views);
    assert.equal(there.length, 2);
    there.forEach((img, k) => {
      assert.deepEqual([img.width, img.height], [here[k].width, here[k].height]);
      assert.deepEqual(img.rgba, here[k].rgba, `view ${k}`);
    });
    assert.ok(here[0].rgba.some((v, i) => i % 4 === 3 && v === 255));
  } finally {
    await workers.close();
  }
});

test('the helper thread writes the same FBX and Unity JSON as the calling thread, the template\'s arrays taken from its own template', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const sphere = uvSphere(3, 12, 16);
  const n = sphere.positions.length / 3;
  const hair = {
    name: 'hair', material: 'hair', morphs: [], geometry: sphere,
    skin: { joints: new Uint16Array(n * 4), weights: Float32Array.from({ length: n * 4 }, (_, k) => (k % 4 === 0 ? 1 : 0)) },
  };
  const model: AvatarModel = {
    name: 'avatar',
    template: tpl.version,
    bones: tpl.bones,
    meshes: [
      ...tpl.meshes.map((m, i) => ({
        name: m.name, material: m.name, skin: m.skin,
        geometry: { ...m.geometry, positions: m.geometry.positions.map((v) => v * 1.1) },
        morphs: i === 0 ? [{ name: 'jawOpen', deltas: m.geometry.positions.map((_, k) => (k % 5) * 0.01) }] : [],
      })),
      hair,
    ],
    materials: [...tpl.meshes.map((m) => m.name), 'hair'].map((name) => ({
      name, baseColorFactor: [1, 1, 1, 1] as [number, number, number, number], baseColorTexture: `${name}_baseColor.png`, roughness: 0.5, metallic: 0, alphaMode: 'OPAQUE' as const,
    })),
    // Read by name only.
    textures: [...tpl.meshes.map((m) => m.name), 'hair'].map((name) => ({ name: `${name}_baseColor.png`, mimeType: 'image/png' as const, width: 4, height: 4, data: Uint8Array.of(1, 2, 3) })),
    animations: [],
  };
  // Every template mesh crosses without its UVs, triangles and skin.
  assert.deepEqual(withoutTemplateArrays(model, tpl).fromTemplate, tpl.meshes.map((m) => m.name));
  const platforms = ['maya', 'unity'] as const;
  const workers = new HelperThread();
  try {
    const here = writeModelFiles(model, platforms);
    for (let round = 0; round < 2; round++) {
      const there = await workers.files(tpl, model, platforms, modelFileClaims());
      assert.ok(Buffer.from(there.fbx!).equals(here.fbx!), `FBX, round ${round}`);
      // The Unity JSON is the job thread's (startPackages claims it first): the helper leaves it.
      assert.equal(there.unityJson, undefined);
    }
    assert.equal(model.textures[0].data.length, 3, 'the caller\'s model is left as it was');
    // A file this thread has taken is not written there.
    const claims = modelFileClaims();
    assert.ok(writeModelFiles(model, ['maya'], claims).fbx);
    const rest = await workers.files(tpl, model, platforms, claims);
    assert.deepEqual(rest, {});
    assert.ok(here.unityJson);
  } finally {
    await workers.close();
  }
});

test('the files of each avatar are written from its own shapes, whichever the helper built last', { timeout: 300_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const fitted = (scale: number) => ({
    head: tpl.meshes[0].geometry.positions.map((v, i) => (i % 3 === 1 ? v * scale : v)),
    parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions.map((v, i) => (i % 3 === 1 ? v * scale : v))])),
  });
  const modelOf = (morphs: Partial<Record<string, MorphTarget[]>>, scale: number): AvatarModel => ({
    name: 'avatar',
    template: tpl.version,
    bones: tpl.bones,
    meshes: tpl.meshes.map((m) => ({
      name: m.name, material: m.name, skin: m.skin, morphs: morphs[m.name] ?? [],
      geometry: { ...m.geometry, positions: m.geometry.positions.map((v, i) => (i % 3 === 1 ? v * scale : v)) },
    })),
    materials: tpl.meshes.map((m) => ({ name: m.name, baseColorFactor: [1, 1, 1, 1] as [number, number, number, number], roughness: 0.5, metallic: 0, alphaMode: 'OPAQUE' as const })),
    textures: [],
    animations: [],
  });
  const workers = new HelperThread();
  try {
    const first = await workers.shapes(tpl, fitted(1.1), ['basic']);
    const second = await workers.shapes(tpl, fitted(0.9), ['basic']);
    const models = [modelOf(second.shapes.morphs!, 0.9), modelOf(first.shapes.morphs!, 1.1)];
    // A model whose targets came from both requests: none of either's kept shapes may be used for it.
    const mixed = modelOf({ ...first.shapes.morphs, head: second.shapes.morphs!.head }, 1);
    // The same avatars with targets that nothing was encoded ahead for: the reference.
    const unseen = (model: AvatarModel): AvatarModel => ({ ...model, meshes: model.meshes.map((m) => ({ ...m, morphs: m.morphs.map((t) => ({ name: t.name, deltas: t.deltas.slice() })) })) });
    for (const model of [...models, mixed]) {
      const there = await workers.files(tpl, model, ['maya', 'unity'], modelFileClaims());
      const want = writeModelFiles(unseen(model), ['maya', 'unity']);
      assert.ok(Buffer.from(there.fbx!).equals(want.fbx!));
      assert.ok(Buffer.from(writeModelFiles(model, ['unity']).unityJson!.data).equals(want.unityJson!.data));
      // This thread got the helper's encodings of its targets too (before the files' reply): its FBX is the same.
      assert.ok(Buffer.from(writeModelFiles(model, ['maya']).fbx!).equals(want.fbx!));
    }
    const head = models[0].meshes[0].morphs;
    assert.ok(head.every((t) => encodeShapes([t]).get(t) === encodeShapes([t]).get(t)), 'encoded on the helper, kept here');
    assert.ok(head.every((t) => sparseShape(t).deltas.buffer instanceof SharedArrayBuffer), 'sparse shapes found on the helper, taken here');
    assert.ok(!Buffer.from(writeModelFiles(models[0], ['maya']).fbx!).equals(writeModelFiles(models[1], ['maya']).fbx!));
  } finally {
    await workers.close();
  }
});

test('a shapes request\'s encodings reach this thread before the reply to a files request sent behind it', { timeout: 180_000 }, async () => {
  const tpl = loadTemplateView('1.6');
  const positions = (m: (typeof tpl.meshes)[number]) => m.geometry.positions;
  const fitted = { head: positions(tpl.meshes[0]), parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, positions(m)])) };
  const model: AvatarModel = {
    name: 'avatar', template: tpl.version, bones: tpl.bones,
    meshes: tpl.meshes.map((m) => ({ name: m.name, material: m.name, skin: m.skin, morphs: [], geometry: m.geometry })),
    materials: tpl.meshes.map((m) => ({ name: m.name, baseColorFactor: [1, 1, 1, 1] as [number, number, number, number], roughness: 0.5, metallic: 0, alphaMode: 'OPAQUE' as const })),
    textures: [], animations: [],
  };
  const workers = new HelperThread();
  try {
    // Both queued before the helper has built the shapes: it takes the files request before it is ever idle.
    const [built] = await Promise.all([workers.shapes(tpl, fitted, ['basic']), workers.files(tpl, model, ['maya'], modelFileClaims())]);
    const head = built.shapes.morphs!.head!;
    assert.ok(head.length > 0, 'the template has head shapes');
    assert.ok(head.every((t) => sparseShape(t).deltas.buffer instanceof SharedArrayBuffer), 'sparse shapes found on the helper, taken here');
  } finally {
    await workers.close();
  }
});

test('close() lets the thread answer the requests already sent to it, and the next request starts another thread', { timeout: 180_000 }, async () => {
  // Stopped from outside in the middle of its work, a thread inside zlib aborts the whole process on Node 20.
  const items = [{ geometry: uvSphere(0.5, 96, 48), roughness: 0.4 }];
  const camera = { type: 'perspective' as const, fovY: 30, eye: [0, 0, 3] as [number, number, number], target: [0, 0, 0] as [number, number, number], up: [0, 1, 0] as [number, number, number] };
  const views = [{ camera, opts: { width: 512, height: 512, supersample: 2 as const } }];
  const workers = new HelperThread();
  const first = await workers.render(items, views);
  const onIt = workers.render(items, views);
  // Posted after the request above, before the thread could have answered it: the close comes between them.
  const closed = workers.close();
  const [answered] = await Promise.all([onIt, closed]);
  assert.deepEqual(answered[0].rgba, first[0].rgba);
  const again = await workers.render(items, views);
  assert.deepEqual(again[0].rgba, first[0].rgba);
  await workers.close();
});
