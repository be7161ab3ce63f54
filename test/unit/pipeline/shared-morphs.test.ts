import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sparseShapesInSharedMemory } from '../../../src/pipeline/shared-morphs.ts';
import { sparseShape, useSparseShapesFoundElsewhere } from '../../../src/formats/write/sparse-shape.ts';
import type { MorphTarget } from '../../../src/model/avatar.ts';

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
