/**
 * Morph targets in shared memory. The helper thread builds the blendshapes (their deltas, some 25 MiB for
 * template 2.0 with every feature, made in one SharedArrayBuffer: featureShapes' `allocate`) and later writes the
 * FBX from them, while the pipeline's thread assembles the model and writes the GLB, the Unity JSON and the
 * document: the deltas are held once for both, and the model sent back to the helper carries them without a copy;
 * the sparse shapes the helper found for them cross the same way.
 */
import type { MorphTarget } from '../model/avatar.ts';
import { sparseShape, type SparseShape } from '../formats/write/sparse-shape.ts';
import { sharedCopies } from './shared-memory.ts';

/** Sparse shapes by mesh name, in the order of that mesh's targets. */
export type SparseShapes = Partial<Record<string, SparseShape[]>>;

/**
 * The targets' sparse shapes (the FBX's, GLB's and Unity JSON's), copied into shared memory: found once, on the
 * thread that built the targets, and taken as they are by the other thread's writers (useSparseShapesFoundElsewhere).
 */
export function sparseShapesInSharedMemory(morphs: Partial<Record<string, MorphTarget[]>>): SparseShapes {
  // Loops, not callbacks made per avatar: their optimised code died with them, compiled again every job.
  const shapes: [string, SparseShape[]][] = [];
  const arrays: (Int32Array | Float64Array)[] = [];
  for (const [mesh, targets] of Object.entries(morphs)) {
    const found = targets!.map(sparseShape);
    for (const s of found) arrays.push(s.indexes, s.deltas);
    shapes.push([mesh, found]);
  }
  const copies = sharedCopies(arrays);
  const out: SparseShapes = {};
  for (const [mesh, found] of shapes) {
    const copied: SparseShape[] = [];
    for (const s of found) copied.push({ indexes: copies.get(s.indexes) as Int32Array, deltas: copies.get(s.deltas) as Float64Array });
    out[mesh] = copied;
  }
  return out;
}
