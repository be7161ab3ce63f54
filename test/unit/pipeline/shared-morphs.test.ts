import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inSharedMemory, sparseShapesInSharedMemory } from '../../../src/pipeline/shared-morphs.ts';
import { sparseShape, useSparseShapesFoundElsewhere } from '../../../src/formats/write/sparse-shape.ts';
import type { MorphTarget } from '../../../src/model/avatar.ts';

test('morph deltas move into one shared memory, values and sharing kept, the input left as it was', () => {
  const jaw = Float32Array.of(0.5, -1, 2, 0, 0, 3);
  const smile = Float32Array.of(1, 2, 3, 4, 5, 6);
  const lash = Float32Array.of(-0.25, 0, 7);
  const morphs: Record<'head' | 'lashes', MorphTarget[]> = {
    head: [{ name: 'jawOpen', deltas: jaw }, { name: 'mouthSmileLeft', deltas: smile }, { name: 'viseme_aa', deltas: jaw }],
    lashes: [{ name: 'jawOpen', deltas: lash }],
  };
  const shared = inSharedMemory(morphs);
  assert.deepEqual(Object.keys(shared), ['head', 'lashes']);
  const all = [...shared.head, ...shared.lashes];
  assert.deepEqual(all.map((t) => t.name), ['jawOpen', 'mouthSmileLeft', 'viseme_aa', 'jawOpen']);
  assert.deepEqual(all.map((t) => Array.from(t.deltas)), [jaw, smile, jaw, lash].map((a) => Array.from(a)));
  const memory = all[0].deltas.buffer;
  assert.ok(memory instanceof SharedArrayBuffer);
  assert.ok(all.every((t) => t.deltas.buffer === memory), 'one buffer for all');
  // A viseme that copies an ARKit shape keeps sharing its array; the memory holds each array once.
  assert.equal(shared.head[2].deltas, shared.head[0].deltas);
  assert.equal(memory.byteLength, jaw.byteLength + smile.byteLength + lash.byteLength);
  assert.equal(morphs.head[0].deltas, jaw);
  assert.ok(!(jaw.buffer instanceof SharedArrayBuffer));
});

test('sparse shapes found on one thread move into shared memory and are taken as found by another', () => {
  const morphs: Record<'head' | 'lashes', MorphTarget[]> = {
    head: [{ name: 'jawOpen', deltas: Float32Array.of(0, 0, 0, 0.5, -1, 2, 0, 0, 3) }, { name: 'blink', deltas: new Float32Array(9) }],
    lashes: [{ name: 'jawOpen', deltas: Float32Array.of(-0.25, 0, 7) }],
  };
  const shared = sparseShapesInSharedMemory(morphs);
  assert.deepEqual(Object.keys(shared), ['head', 'lashes']);
  for (const mesh of ['head', 'lashes'] as const) {
    morphs[mesh].forEach((t, k) => {
      const s = shared[mesh]![k];
      assert.deepEqual(s, sparseShape(t), t.name);
      assert.ok(s.indexes.buffer instanceof SharedArrayBuffer && s.deltas.buffer === s.indexes.buffer, t.name);
    });
  }
  // The other thread's targets: new objects over the same deltas (as a message gives them).
  const there = morphs.head.map((t) => ({ ...t }));
  useSparseShapesFoundElsewhere(there, shared.head!);
  there.forEach((t, k) => assert.equal(sparseShape(t), shared.head![k]));
  // One already found here keeps its own.
  const own = sparseShape(morphs.lashes[0]);
  useSparseShapesFoundElsewhere(morphs.lashes, shared.lashes!);
  assert.equal(sparseShape(morphs.lashes[0]), own);
});
