import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeFbx } from '../../../src/formats/write/fbx/encode.ts';
import { encodeShapes, encodeShapesAhead } from '../../../src/formats/write/fbx/blendshapes.ts';
import { node } from '../../../src/formats/write/fbx/node.ts';
import { writeFbx } from '../../../src/formats/write/fbx/write.ts';
import { sparseShape } from '../../../src/formats/write/sparse-shape.ts';
import { readFbx } from '../../../tools/read-fbx.ts';
import type { AvatarModel, MorphTarget } from '../../../src/model/avatar.ts';
import { buildTestAvatar } from '../../fixtures/avatar.ts';

/** The same avatar with new morph objects (and arrays): what nothing was encoded ahead for. */
const fresh = (model: AvatarModel): AvatarModel => ({
  ...model,
  meshes: model.meshes.map((mesh) => ({ ...mesh, morphs: mesh.morphs.map((t) => ({ name: t.name, deltas: t.deltas.slice() })) })),
});

test('a Shape encoded ahead is written as the arrays it was encoded from: indexes, deltas and zero normals', () => {
  const model = buildTestAvatar({ extraMorphs: 6 });
  const morphs = model.meshes.flatMap((m) => m.morphs);
  const shapes = encodeShapes(morphs);
  for (const morph of morphs) {
    const { indexes, deltas } = sparseShape(morph);
    const shape = shapes.get(morph)!;
    const back = readFbx(encodeFbx([node('Shape', [shape.indexes, shape.vertices, shape.normals])])).nodes[0].props;
    assert.deepEqual(back, [indexes, deltas, new Float64Array(deltas.length)], morph.name);
  }
  // Zero normals of one length are one encoding in a file.
  const byLength = new Map<number, unknown>();
  for (const morph of morphs) {
    const length = sparseShape(morph).deltas.length;
    const normals = shapes.get(morph)!.normals;
    assert.equal(byLength.get(length) ?? normals, normals);
    byLength.set(length, normals);
  }
});

test('the FBX of shapes encoded ahead is the FBX written without, byte for byte', () => {
  const model = buildTestAvatar({ extraMorphs: 6 });
  const morphs = model.meshes.flatMap((m) => m.morphs);
  // A viseme that is an ARKit shape shares its deltas array: one Shape encoding for both.
  model.meshes[0].morphs.push({ name: 'viseme_copy', deltas: model.meshes[0].morphs[0].deltas });
  const plain = writeFbx(fresh(model));
  encodeShapesAhead(morphs);
  const ahead = encodeShapes(morphs);
  assert.ok(morphs.every((m) => encodeShapes([m]).get(m) === ahead.get(m)), 'kept by morph');
  assert.ok(Buffer.from(writeFbx(model)).equals(plain));
  const both = encodeShapes(model.meshes[0].morphs);
  assert.equal(both.get(model.meshes[0].morphs.at(-1)!), both.get(model.meshes[0].morphs[0]));
});

test('another avatar with the same morph names never gets the shapes encoded ahead for the first', () => {
  const first = buildTestAvatar({ extraMorphs: 2 });
  encodeShapesAhead(first.meshes.flatMap((m) => m.morphs));
  // Same template, other deltas: a second avatar.
  const second = fresh(first);
  for (const t of second.meshes[0].morphs) t.deltas = t.deltas.map((d, k) => d * 0.5 + (k % 9 === 0 ? 0.01 : 0));
  const written = readFbx(writeFbx(second));
  const shapes = written.nodes.find((n) => n.name === 'Objects')!.children.filter((o) => o.name === 'Geometry' && o.props[2] === 'Shape');
  const want = second.meshes[0].morphs.map((m: MorphTarget) => sparseShape(m));
  assert.equal(shapes.length, want.length);
  shapes.forEach((s, k) => {
    assert.deepEqual(s.children.find((c) => c.name === 'Indexes')!.props[0], want[k].indexes);
    assert.deepEqual(s.children.find((c) => c.name === 'Vertices')!.props[0], want[k].deltas);
  });
});
