/**
 * Morph targets whose deltas live in one SharedArrayBuffer. The helper thread builds the blendshapes and
 * later writes the FBX and Unity JSON from them, while the pipeline's thread assembles the model and
 * writes the GLB and the document: in shared memory the deltas (some 25 MiB for template 2.0 with every
 * feature) are held once for both, and the model sent back to the helper carries them without a copy.
 */
import type { MorphTarget } from '../model/avatar.ts';
import { sparseShape, type SparseShape } from '../formats/write/sparse-shape.ts';
import { sharedCopies } from './shared-memory.ts';

/** Sparse shapes by mesh name, in the order of that mesh's targets. */
export type SparseShapes = Partial<Record<string, SparseShape[]>>;

/** The same targets, their deltas copied into shared memory; targets that shared an array share its copy. */
export function inSharedMemory<M extends Partial<Record<string, MorphTarget[]>>>(morphs: M): M {
  const copies = sharedCopies(Object.values(morphs).flatMap((targets) => targets!.map((t) => t.deltas)));
  return Object.fromEntries(Object.entries(morphs).map(([mesh, targets]) => [mesh, targets!.map((t) => ({ ...t, deltas: copies.get(t.deltas)! }))])) as M;
}

/**
 * The targets' sparse shapes (the FBX's, GLB's and Unity JSON's), copied into shared memory: found once, on the
 * thread that built the targets, and taken as they are by the other thread's writers (useSparseShapesFoundElsewhere).
 */
export function sparseShapesInSharedMemory(morphs: Partial<Record<string, MorphTarget[]>>): SparseShapes {
  const shapes = Object.entries(morphs).map(([mesh, targets]) => [mesh, targets!.map(sparseShape)] as const);
  const copies = sharedCopies(shapes.flatMap(([, found]) => found.flatMap((s) => [s.indexes, s.deltas])));
  return Object.fromEntries(shapes.map(([mesh, found]) => [mesh, found.map((s) => ({ indexes: copies.get(s.indexes) as Int32Array, deltas: copies.get(s.deltas) as Float64Array }))]));
}
