import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeptShapes, type Morphs } from '../../../src/pipeline/kept-shapes.ts';
import { encodeShapes } from '../../../src/formats/write/fbx/blendshapes.ts';
import type { AvatarModel, MorphTarget } from '../../../src/model/avatar.ts';
import { buildTestAvatar } from '../../fixtures/avatar.ts';

const morphsOf = (model: AvatarModel): Morphs => Object.fromEntries(model.meshes.filter((m) => m.morphs.length > 0).map((m) => [m.name, m.morphs]));
/** The model as it arrives from another thread: every target a new object. */
const copied = (model: AvatarModel): AvatarModel => ({ ...model, meshes: model.meshes.map((m) => ({ ...m, morphs: m.morphs.map((t) => ({ ...t, deltas: t.deltas.slice() })) })) });
const targets = (model: AvatarModel): MorphTarget[] => model.meshes.flatMap((m) => m.morphs);

test('the files of an avatar get the targets kept for its shapes request, encoded ahead, once', () => {
  const first = buildTestAvatar({ extraMorphs: 2 });
  const second = buildTestAvatar({ extraMorphs: 2, rings: 20 });
  const kept = new KeptShapes();
  kept.keep(1, morphsOf(first));
  kept.keep(2, morphsOf(second));
  const arrived = copied(second);
  const taken = kept.take(2, arrived);
  assert.deepEqual(targets(taken), targets(second));
  assert.ok(targets(taken).every((t, k) => t === targets(second)[k]), 'the kept objects');
  // Encoded ahead: the file finds their Shapes as they were kept.
  const once = encodeShapes(targets(taken));
  assert.ok(targets(taken).every((t) => encodeShapes([t]).get(t) === once.get(t)));
  assert.ok(targets(arrived).every((t) => encodeShapes([t]).get(t) !== encodeShapes([t]).get(t)), 'a copy has nothing ahead');
  // Taken once; another request's or none gives the model as it came.
  assert.equal(kept.take(2, arrived), arrived);
  assert.equal(kept.take(undefined, arrived), arrived);
});

test('targets kept for one avatar are not swapped into a model whose targets differ in name or size', () => {
  const first = buildTestAvatar({ extraMorphs: 2 });
  const kept = new KeptShapes();
  kept.keep(1, morphsOf(first));
  const renamed = copied(first);
  renamed.meshes[0].morphs[1].name = 'other';
  assert.equal(kept.take(1, renamed), renamed);
  kept.keep(2, morphsOf(first));
  const smaller = buildTestAvatar({ extraMorphs: 2, rings: 20 });
  assert.equal(kept.take(2, smaller), smaller);
  kept.keep(3, morphsOf(first));
  const fewer = copied(first);
  fewer.meshes[0].morphs.pop();
  assert.equal(kept.take(3, fewer), fewer);
});

test('at most `limit` avatars are kept, the oldest dropped first', () => {
  const model = buildTestAvatar({ extraMorphs: 1 });
  const kept = new KeptShapes(2);
  for (const id of [1, 2, 3]) kept.keep(id, morphsOf(model));
  const arrived = copied(model);
  assert.equal(kept.take(1, arrived), arrived);
  assert.notEqual(kept.take(2, arrived), arrived);
  assert.notEqual(kept.take(3, arrived), arrived);
});
